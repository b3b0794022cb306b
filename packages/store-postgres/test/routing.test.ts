import { decimalFromNumber, noText, type SearchQuery } from "@tenders/core"
import { DateTime } from "effect"
import { describe, expect, it } from "vitest"
import { routeOf, spanOf } from "../src/SearchCost.ts"
import { type ColumnRow, toSearchStatistics } from "../src/SearchStatistics.ts"
import { deadlineLexemes, spanLexemes } from "../src/SearchSql.ts"

// How a search step picks its way (SearchCost.ts): the GIN index, the deadline order, or the index asked for the
// tenders due in the next days. Pure functions of the planner's statistics, checked on statistics made here.

const day = 86_400_000
const now = Date.UTC(2026, 10, 24) // midnight: today is a whole day
// 1M tenders with deadlines spread evenly over the 90 days from today: an equi-depth histogram of 100 bounds.
const bounds = Array.from({ length: 101 }, (_, i) => String((now + (i * 90 * day) / 100) / 1000))
/** A column's statistics as `pg_stats` gives them, of a table of 1M tenders. */
const column = (fields: Partial<ColumnRow> & Pick<ColumnRow, "name">): ColumnRow => ({
  rows: 1_000_000,
  nulls: 0,
  distinctValues: 0,
  commonValues: null,
  commonShares: null,
  bounds: null,
  elems: null,
  elemShares: null,
  ...fields
})
const lexemes = column({
  name: "search_vec",
  elems: ["Aservic", "Abathyscaph"],
  elemShares: [0.44, 0.0001, 0.0001, 0.44, 0]
})
const statistics = (extra: { commonDeadlines?: Array<number>; commonShares?: Array<number> } = {}) =>
  toSearchStatistics([
    lexemes,
    column({
      name: "deadline_sort",
      bounds,
      commonValues: extra.commonDeadlines?.map(String) ?? null,
      commonShares: extra.commonShares ?? null
    })
  ])
const one = (matches: number) => ({ matches, least: matches, entries: matches, sets: 1 })

describe("the share of tenders due in a time range", () => {
  it("reads the histogram evenly within its buckets, and the most common deadlines apart", () => {
    const share = statistics().deadlineShare!
    expect(share(now, now + 9 * day)).toBeCloseTo(0.1, 6)
    expect(share(now + 4.5 * day, now + 9 * day)).toBeCloseTo(0.05, 6)
    expect(share(now - 30 * day, now)).toBe(0)
    const common = statistics({ commonDeadlines: [(now + day / 2) / 1000], commonShares: [0.2] }).deadlineShare!
    expect(common(now, now + day)).toBeCloseTo(0.2 + 0.8 / 90, 6)
    expect(common(now + day, now + 10 * day)).toBeCloseTo((0.8 * 9) / 90, 6)
  })

  it("is unknown without statistics", () => {
    const none = toSearchStatistics([])
    expect(none.deadlineShare).toBeUndefined()
    expect(none.matchesOfAny(["Aservic"])).toBe(Infinity)
    expect(none.unlisted(["Azzzz"])).toBe(false)
  })

  it("tells lexemes rarer than any listed: none of them among the most common", () => {
    const stats = statistics()
    expect(stats.unlisted(["Azzzz", "Bzzzz"])).toBe(true)
    expect(stats.unlisted(["Azzzz", "Abathyscaph"])).toBe(false)
    expect(stats.unlisted(["Aservic"])).toBe(false)
  })
})

describe("the lexemes of deadlines", () => {
  it("tag a deadline with its day and week, and a span with whole weeks where it can", () => {
    // 2026-11-26 is day 20,783 since 1970-01-01, the first of week 2,969 (days 7k to 7k + 6).
    expect(deadlineLexemes(Date.UTC(2026, 10, 26, 23, 59))).toEqual(["Y2026-11-26", "W2969"])
    expect(deadlineLexemes(Date.UTC(2026, 10, 25, 12))).toEqual(["Y2026-11-25", "W2968"])
    expect(spanLexemes(now, 14)).toEqual([
      "Y2026-11-24",
      "Y2026-11-25",
      "W2969",
      "Y2026-12-03",
      "Y2026-12-04",
      "Y2026-12-05",
      "Y2026-12-06",
      "Y2026-12-07"
    ])
    expect(spanLexemes(now, 3)).toEqual(["Y2026-11-24", "Y2026-11-25", "Y2026-11-26"])
    expect(spanLexemes(now, 9)).toEqual(["Y2026-11-24", "Y2026-11-25", "W2969"])
  })

  it("tag them in the tender's country too, for a span of the countries a search is filtered by", () => {
    expect(deadlineLexemes(Date.UTC(2026, 10, 26, 23, 59), "PL")).toEqual([
      "Y2026-11-26",
      "W2969",
      "YPL2026-11-26",
      "WPL2969"
    ])
    expect(deadlineLexemes(Date.UTC(2026, 10, 26), null)).toEqual(["Y2026-11-26", "W2969"])
    expect(spanLexemes(now, 9, ["PL", "AM"])).toEqual([
      "YPL2026-11-24",
      "YAM2026-11-24",
      "YPL2026-11-25",
      "YAM2026-11-25",
      "WPL2969",
      "WAM2969"
    ])
  })
})

/** The shares of a step whose filters keep `share` of its tenders, with no country filter. */
const kept = (share: number) => ({ kept: share, inCountries: 1 })

describe("the way a search step takes", () => {
  it("asks the index for a rare text and reads the deadline order for a common one", () => {
    expect(routeOf(one(100), 1, 10, 1_000_000).indexFirst).toBe(true)
    expect(routeOf(one(440_000), 1, 10, 1_000_000).indexFirst).toBe(false)
  })

  it("counts a way expected to stop at its bound as what it reads, then every match", () => {
    // 1M tenders, limit 10: the balance is √(10 × 1M) ≈ 3,162; a filter keeping a sixth: the probe stops at 528
    // filtered matches, the deadline order at 7,746 tenders read.
    const share = 1 / 6
    const few = routeOf(one(2_000), share, 10, 1_000_000)
    expect(few.viaIndex).toBe(few.viaAll) // 333 filtered matches: the probe reads them all
    const many = routeOf(one(30_000), share, 10, 1_000_000)
    expect(many.viaIndex).toBeGreaterThan(many.viaAll) // 5,000 filtered: the probe stops at its cap, in vain
    expect(many.viaDeadline).toBeLessThan(many.viaAll) // 2,000 tenders read in deadline order hold ten matches
    const between = routeOf(one(6_000), share, 10, 1_000_000)
    // 1,000 filtered: too many for the probe, too few for the window (10,000 tenders to read): every match
    expect(Math.min(between.viaIndex, between.viaDeadline)).toBeGreaterThan(between.viaAll)
  })

  it("spans as many days from today as should hold two pages of filtered matches", () => {
    const stats = statistics()
    // 9,000 tenders have the text: 100 a day; two pages of 10 are in the first day.
    const common = spanOf(stats, now, one(9_000), kept(1), 10)
    expect(common?.days).toBe(1)
    expect(common?.lexemes).toEqual(["Y2026-11-24"])
    // A filter keeping a tenth: 10 a day, two days; a twentieth: 5 a day, four days.
    expect(spanOf(stats, now, one(9_000), kept(0.1), 10)?.lexemes).toEqual(["Y2026-11-24", "Y2026-11-25"])
    expect(spanOf(stats, now, one(9_000), kept(0.05), 10)?.lexemes).toEqual([
      "Y2026-11-24",
      "Y2026-11-25",
      "Y2026-11-26",
      "Y2026-11-27"
    ])
    // Too rare for any span of at most 62 days; no statistics of deadlines.
    expect(spanOf(stats, now, one(20), kept(1), 10)).toBeUndefined()
    expect(spanOf({ ...stats, deadlineShare: undefined }, now, one(9_000), kept(1), 10)).toBeUndefined()
  })

  it("asks for the filtered countries' days when they hold at most half the text's tenders", () => {
    const stats = statistics()
    // Two countries holding a fifth of the text's tenders, a tenth kept by every filter: two days of theirs.
    expect(spanOf(stats, now, one(9_000), { kept: 0.1, inCountries: 0.2 }, 10, ["PL", "RU"])?.lexemes).toEqual([
      "YPL2026-11-24",
      "YRU2026-11-24",
      "YPL2026-11-25",
      "YRU2026-11-25"
    ])
    // Holding most of them: every country's days (theirs would drop few rows, and merge each day once per country).
    expect(spanOf(stats, now, one(9_000), { kept: 0.1, inCountries: 0.9 }, 10, ["PL", "RU"])?.lexemes).toEqual([
      "Y2026-11-24",
      "Y2026-11-25"
    ])
  })

  it("prefers the span for two common words that seldom meet, and the index for a rare word", () => {
    const stats = statistics()
    // "school" & "building": 30,000 tenders each, 1,000 together (the independent estimate: 900).
    const pair = { matches: 5_000, least: 900, entries: 60_000, sets: 2 }
    const route = routeOf(pair, 1, 10, 1_000_000)
    const span = spanOf(stats, now, pair, kept(1), 10)
    expect(span).toBeDefined()
    expect(span!.cost).toBeLessThan(Math.min(route.viaIndex, route.viaDeadline))
    const rare = one(60)
    expect(routeOf(rare, 1, 10, 1_000_000).viaIndex).toBeLessThan(
      spanOf(stats, now, rare, kept(0.1), 1)?.cost ?? Infinity
    )
  })
})

describe("the share of tenders the filters keep, from the column statistics", () => {
  const columns = [
    column({ name: "country", distinctValues: 12, commonValues: ["RU", "DE"], commonShares: [0.4, 0.1] }),
    column({ name: "currency", distinctValues: 3, commonValues: ["EUR", "RUB"], commonShares: [0.5, 0.4] }),
    // Budgets 0 to 1,000 in ten equal buckets, a fifth of the tenders without one.
    column({ name: "budget", nulls: 0.2, bounds: Array.from({ length: 11 }, (_, i) => String(i * 100)) }),
    column({ name: "cpv_prefixes", elems: ["45", "4523"], elemShares: [0.3, 0.05, 0.05, 0.3, 0] })
  ]
  const share = toSearchStatistics([...columns, column({ name: "deadline_sort", bounds })]).filterShare
  const query = (fields: Partial<SearchQuery>): SearchQuery => ({
    text: noText,
    countries: [],
    cpvPrefixes: [],
    budget: undefined,
    deadlineAfter: undefined,
    limit: 10,
    now: DateTime.makeUnsafe(now),
    ...fields
  })
  const decimal = (n: number) => decimalFromNumber(n)

  it("multiplies the shares of countries, codes, budget and deadline", () => {
    expect(share(query({}))).toBe(1)
    // Listed countries by their share; an unlisted one takes an even part of the rest (0.5 over 10 countries).
    expect(share(query({ countries: ["RU", "FR"] }))).toBeCloseTo(0.45, 6)
    expect(share(query({ cpvPrefixes: ["4523", "7"] }))).toBeCloseTo(0.05 + 0.025, 6)
    expect(share(query({ budget: { _tag: "Own", range: { min: decimal(100), max: decimal(300) } } }))).toBeCloseTo(
      0.16,
      6
    )
    const converted = new Map([
      ["EUR", { min: decimal(100), max: null }],
      ["RUB", { min: null, max: null }]
    ])
    expect(share(query({ budget: { _tag: "Converted", ranges: converted } }))).toBeCloseTo(0.5 * 0.5 * 0.8 + 0.4, 6)
    // Deadlines evenly over 90 days: after the 45th day, half of the open tenders.
    expect(share(query({ deadlineAfter: DateTime.makeUnsafe(now + 45 * day) }))).toBeCloseTo(0.5, 6)
    expect(share(query({ countries: ["DE"], deadlineAfter: DateTime.makeUnsafe(now + 45 * day) }))).toBeCloseTo(0.05, 6)
  })

  it("keeps every tender without statistics of a filtered column", () => {
    expect(toSearchStatistics([]).filterShare(query({ countries: ["RU"], cpvPrefixes: ["45"] }))).toBe(1)
  })
})
