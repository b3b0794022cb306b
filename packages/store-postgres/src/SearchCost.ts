/**
 * How a search step finds the open tenders of a text condition with the nearest deadlines (NearestTenders.ts), chosen
 * by cost. The GIN index finds them at a cost that grows with the matches; the deadline order, at a cost that grows
 * with the tenders read past until enough match. PostgreSQL's planner picks from its estimate of the matches, which
 * can be far off (a term it has no statistics for; two common words that seldom meet): it read every open tender in
 * deadline order for none (200 ms at 100k). So the choice is made here (`routeOf`, `spanOf`), from the same
 * statistics (a term's share of tenders, a term without statistics taken as half the rarest with) and the filters'
 * share (SearchEstimate.ts), and each way is bounded: the GIN index is asked for a bounded number of matches with
 * other scans off, the deadline order reads a bounded number of tenders; the planner chooses alone only when the
 * bounded ways are expected to fall short (they would read their bound, then every match anyway) or fell short.
 * Pure: the statements are NearestTenders.ts's.
 */
import { Data } from "effect"
import type { SearchStatistics } from "./SearchStatistics.ts"
import type { Estimate, Shares } from "./SearchEstimate.ts"
import { dayMillis, spanLexemes } from "./SearchSql.ts"

/** How many tenders of each candidate tier a search ranks (measured in docs/benchmarks.md). */
export const candidateWindow = 100

/**
 * The cost of each step, in microseconds, measured on PostgreSQL 15 with 1M tenders in memory (docs/benchmarks.md):
 * an index entry read, a tender read from the heap after the index (its row checked), a tender read in deadline
 * order (its row checked). A tender that must have one lexeme of each of several sets is found by the GIN index
 * skipping through their entries (its fast scan) at about a twentieth of the cost of reading them
 * (`skippedPosting`), then reading those of the tenders having all (measured: "school" & "building" at 1M, 65,000
 * entries, 16,000 tenders, 4.5 ms; a rare word & "services", 442,000 entries, 6 ms).
 */
const cost = { posting: 0.2, heapRow: 3, deadlineRow: 2.5, skippedPosting: 0.05 }

/** The index entries the GIN index reads for a condition, with one more set of `more` entries when given. */
const postingsOf = (estimate: Estimate, more?: { readonly entries: number; readonly matches: number }) =>
  more === undefined && estimate.sets <= 1
    ? estimate.entries
    : (estimate.entries + (more?.entries ?? 0)) * cost.skippedPosting + (more?.matches ?? estimate.matches)

/** The bounds of the index probe and the deadline window (`routeOf`), which do not depend on the text. */
const boundsOf = (share: number, limit: number, tenders: number) => {
  const balance = Math.max(100, Math.sqrt(limit * Math.max(tenders, 0)))
  const kept = Math.max(share, 1e-4)
  return {
    kept,
    probeCap: Math.max(limit + 1, Math.ceil(balance * share)),
    window: Math.ceil(balance / Math.sqrt(kept))
  }
}

/** The costs of the index probe, the deadline window and every match (`routeOf`), and the bounds of the first two. */
export interface Route {
  readonly indexFirst: boolean
  readonly viaIndex: number
  readonly viaDeadline: number
  readonly viaAll: number
  readonly probeCap: number
  readonly window: number
}

/**
 * How the nearest matches of a text condition are found, from its estimate and the share the filters keep
 * (`share`). The GIN index reads the condition's entries, then its tenders (all, or `probeCap` filtered ones); the
 * deadline order reads about limit × tenders / (matches × share) tenders, at most `window`; asking for every match,
 * the planner choosing the plan (`viaAll`, estimated as the index reading them all), cannot fall short. The bounds
 * are those of the balance √(limit × tenders), where reading every match through the index costs as many tenders as
 * the deadline order reads: the probe stops at balance × share filtered matches (balance tenders read), the window
 * at balance / √share tenders (what the deadline order reads there). A way the estimate says will stop at its bound
 * costs what it reads, then every match.
 */
export const routeOf = (estimate: Estimate, share: number, limit: number, tenders: number): Route => {
  const { kept, probeCap, window } = boundsOf(share, limit, tenders)
  const postings = postingsOf(estimate) * cost.posting
  const viaAll = postings + estimate.matches * cost.heapRow
  const viaIndex = estimate.matches * kept < probeCap ? viaAll : postings + (probeCap / kept) * cost.heapRow + viaAll
  const needed = (limit * tenders) / Math.max(estimate.matches * kept, 1e-9)
  const viaDeadline = needed <= window ? needed * cost.deadlineRow : window * cost.deadlineRow + viaAll
  return { indexFirst: viaIndex <= viaDeadline, viaIndex, viaDeadline, viaAll, probeCap, window }
}

/**
 * How many pages of matches a span of deadline days is chosen to hold, and the most days it spans. The span is sized
 * by the fewest matches the text likely has (2σ below the sample's count, and the filters' share counted with the
 * text): two pages are margin enough, and a span falling short is followed by one sized by what it found. Four cost
 * every filtered class at 1M a third more at p95 (docs/benchmarks.md, 2026-11-27, fourth session).
 */
const spanPages = 2
const maxSpanDays = 62
/**
 * How many times the matches a span is sized for it may find before it stops, none of them known to be the nearest
 * (its cap): a span is sized by the fewest matches the text likely has, and a text's words often meet more than that.
 */
const spanSlack = 4
/** The most spans one search step probes (a second, sized by what the first found). */
export const maxSpans = 2
/** The largest share of a text's tenders its filtered countries may hold for a span to ask for their days only. */
const maxCountryShare = 0.5

/** A span of deadline days from today: its days, its share of the tenders, their lexemes, and its cost. */
export interface DaySpan {
  readonly days: number
  readonly share: number
  readonly lexemes: ReadonlyArray<string>
  readonly cost: number
}

/**
 * The third way, for a text too common for the index alone and too rare for the deadline order (its cost peaks at
 * the balance, where both read √(limit × tenders) tenders): the index asked for the tenders of the text whose
 * deadline falls in the next days (their day and week lexemes; those of the countries the search is filtered by,
 * when it is), as many days from today as should hold `spanPages` pages of filtered matches by the deadlines'
 * distribution (the planner's histogram). The GIN index skips through the text's and the days' entries and reads
 * the tenders having both: few. A full page there is the nearest there is.
 */
export const spanOf = (
  stats: SearchStatistics,
  now: number,
  estimate: Estimate,
  shares: Shares,
  limit: number,
  countries: ReadonlyArray<string> = []
): DaySpan | undefined => {
  if (stats.deadlineShare === undefined || !Number.isFinite(estimate.matches)) return undefined
  const today = Math.floor(now / dayMillis) * dayMillis
  // The filtered countries' days when they hold at most half the text's tenders (an English word's, filtered to two
  // EU countries, Russia and Armenia); else every country's (a Russian word's: the countries' days would drop few
  // tenders from the heap reads, and the index would merge each day's entries once per country).
  const byCountry = countries.length > 0 && shares.inCountries <= maxCountryShare
  const entriesIn = byCountry ? stats.countryShare(countries) : 1
  const rowsIn = byCountry ? shares.inCountries : 1
  for (let days = 1; days <= maxSpanDays; days++) {
    const spanShare = stats.deadlineShare(now, today + days * dayMillis)
    if (estimate.least * shares.kept * spanShare < spanPages * limit) continue
    const found = estimate.matches * spanShare * rowsIn
    const postings = postingsOf(estimate, { entries: stats.tenders * spanShare * entriesIn, matches: found })
    return {
      days,
      share: spanShare,
      lexemes: spanLexemes(today, days, byCountry ? countries : []),
      cost: postings * cost.posting + found * cost.heapRow
    }
  }
  return undefined
}

/** The most tenders a span's probe reads: its probe cap, or `spanSlack` times the matches it is sized for. */
export const spanCap = (route: Route, limit: number) => Math.max(route.probeCap, spanSlack * spanPages * limit)

/**
 * A way to the nearest matches: the GIN index probed up to its cap, the deadline order read up to its window, the
 * planner asked for every match, or the GIN index asked for those due in a span of days.
 */
export type Way = Data.TaggedEnum<{
  Index: {}
  Deadline: {}
  All: {}
  Span: { readonly span: DaySpan }
}>
export const Way = Data.taggedEnum<Way>()

/** What a way is known by among those tried: a span by its days (a span of other days is another way). */
export const wayKey = (way: Way): string => (way._tag === "Span" ? `Span ${way.span.days}` : way._tag)

/** The cheapest way by the estimate among those not tried yet (`wayKey`); every match when all were. */
export const cheapestWay = (route: Route, span: DaySpan | undefined, tried: ReadonlySet<string>): Way =>
  [
    { way: Way.Index(), cost: route.viaIndex },
    { way: Way.Deadline(), cost: route.viaDeadline },
    { way: Way.All(), cost: route.viaAll },
    ...(span === undefined ? [] : [{ way: Way.Span({ span }), cost: span.cost }])
  ]
    .filter(({ way }) => !tried.has(wayKey(way)))
    .toSorted((a, b) => a.cost - b.cost)[0]?.way ?? Way.All()

// A way that fell short tells more than the estimate did: the estimate corrected by what it read.

/** After a probe stopped at its cap: at least cap / share tenders have the text. */
export const afterProbe = (estimate: Estimate, route: Route, share: number): Estimate => {
  const least = route.probeCap / Math.max(share, 1e-9)
  return { ...estimate, matches: Math.max(estimate.matches, least), least: Math.max(estimate.least, least) }
}

/** After a deadline window too short for a page: at most limit × tenders / (window × share) have it. */
export const afterWindow = (estimate: Estimate, route: Route, share: number, limit: number, tenders: number) => {
  const most = (limit * tenders) / (route.window * Math.max(share, 1e-9))
  return { ...estimate, matches: Math.min(estimate.matches, most), least: Math.min(estimate.least, most) }
}

/**
 * After a span of days that held less than a page (`found` of them): about found / (its share × share); stopped at
 * its cap (`found` undefined): at least that many (a shorter span holds the page).
 */
export const afterSpan = (estimate: Estimate, span: DaySpan, found: number | undefined, cap: number, share: number) => {
  const measured = Math.max(found ?? cap, 0.5) / Math.max(span.share * Math.max(share, 1e-9), 1e-9)
  return found === undefined
    ? { ...estimate, matches: Math.max(estimate.matches, measured), least: Math.max(estimate.least, measured) }
    : { ...estimate, matches: measured, least: measured }
}
