/**
 * Search by relevance on PostgreSQL (core TextQuery `relevance`), exact where it can be and over a candidate window
 * where not, with a cost that stays bounded however many tenders match:
 * 0. a text the statistics say few tenders have (or too rare for them to list): every match ranked in one statement
 *    (`rankedFew`), when they are few indeed;
 * 1. the tenders of the highest relevance there is (every clause's best alternatives in the title), by deadline,
 *    when they fill the page;
 * 2. for a one-clause query, the next levels of relevance in turn, each by deadline, until the page is full;
 * 3. else every tender with any clause, ranked, when fewer than `candidateWindow` have one;
 * 4. else, in each tier (every clause in the title, every clause anywhere, every clause but one when there are
 *    three to `dropOneClauses`, any clause, the rarest clause by the statistics), the `candidateWindow` open tenders
 *    with the nearest deadlines, ranked together: a tender that lacks one word of a long query, or has only its
 *    rarest, is among the candidates however many tenders have only one common word.
 * The candidates are ranked as core's `rankOrder` says: those matching the whole query first, then by relevance, each
 * clause weighed by its rarity among the tenders (core `weighClauses`, from the statistics below). Ties: nearest
 * deadline, then id.
 *
 * Each step needs the open tenders of a text condition with the nearest deadlines (`nearest`). The GIN index finds
 * them at a cost that grows with the matches; the deadline order, at a cost that grows with the tenders read past
 * until enough match. PostgreSQL's planner picks from its estimate of the matches, which can be far off (a term it
 * has no statistics for; two common words that seldom meet): it read every open tender in deadline order for none
 * (200 ms at 100k). So the choice is made here (`routeOf`), from the same statistics (a term's share of tenders, a
 * term without statistics taken as half the rarest with) and the filters' share, and each way is bounded: the GIN
 * index is asked for a bounded number of matches with other scans off, the deadline order reads a bounded number
 * of tenders; the planner chooses alone only when the bounded ways are expected to fall short (they would read their
 * bound, then every match anyway) or fell short.
 */
import {
  type Clause,
  deadlineOrder,
  type DocumentTerms,
  type Field,
  fieldLetter,
  type FilterFacts,
  hasEveryClause,
  matchesWhole,
  passesCountryFilter,
  passesStructuredFilters,
  rankedFields,
  rankOrder,
  relevance,
  type SearchQuery,
  weighClauses
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Option, Schema } from "effect"
import type { Statement } from "effect/sql"
import {
  allButOne,
  allOf,
  bestLexemes,
  clauseLexemes,
  dayMillis,
  hasAnyLexeme,
  levelLexemes,
  lexemesOf,
  relevanceSql,
  searchConditions,
  spanLexemes,
  termOfLexeme,
  wholeCondition
} from "./SearchSql.ts"
import { type LexemeSample, loadLexemeSample } from "./LexemeSample.ts"
import { loadSearchStatistics, type SearchStatistics } from "./SearchStatistics.ts"
import { BitmapClient, makeScanSettings, type ScanSettings } from "./ScanSettings.ts"
import { openTender } from "./Sql.ts"
import { TenderRow, tenderColumns } from "./TenderRow.ts"

/** How many tenders of each candidate tier a search ranks (measured in docs/benchmarks.md). */
const candidateWindow = 100
/** The most clauses a query may have for its tenders lacking one clause to be a tier (the tsquery grows as n²). */
const dropOneClauses = 6
/**
 * What a text condition is estimated to cost: the tenders having it (`matches`), the fewest it is likely to have
 * (`least`: what a span of deadline days is sized by, since too few days cost a probe), and the index entries of its
 * sets of lexemes (`entries`: the sets a tender must each have one of, `sets` of them).
 */
export interface Estimate {
  readonly matches: number
  readonly least: number
  readonly entries: number
  readonly sets: number
}

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
export const routeOf = (estimate: Estimate, share: number, limit: number, tenders: number) => {
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
const maxSpans = 2
/** The largest share of a text's tenders its filtered countries may hold for a span to ask for their days only. */
const maxCountryShare = 0.5

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
) => {
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

/**
 * The estimate of the tenders having one lexeme of each set: counted in the sample when it met enough of them; else
 * between what independent sets would have (the planner's estimate) and what the rarest set has (sets always found
 * together). The words of one query tend to occur together ("поставка лекарственных препаратов"): taken halfway, as
 * the geometric mean. An estimate, not a bound (every way is bounded).
 */
const estimateOf = (
  stats: SearchStatistics,
  sample: LexemeSample,
  sets: ReadonlyArray<ReadonlyArray<string>>
): Estimate => {
  const counts = sets.map((set) => stats.matchesOfAny(set)).toSorted((a, b) => a - b)
  const rarest = counts[0] ?? stats.tenders
  const independent = counts.reduce((matches, count) => (matches * count) / Math.max(stats.tenders, 1), stats.tenders)
  const counted = sample.matchesOfEvery(sets)
  return {
    matches: counted?.matches ?? Math.sqrt(independent * rarest),
    least: counted?.least ?? independent,
    entries: counts.reduce((sum, count) => sum + count, 0),
    sets: counts.length
  }
}

type Tender = typeof TenderRow.Type
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TenderRow))
const decodeLevels = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, level: Schema.Number, matches: Schema.Number }))
)
const decodeRanked = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, complete: Schema.Boolean }))
)
const decodeFew = Schema.decodeUnknownEffect(
  Schema.Array(Schema.Struct({ ...TenderRow.fields, complete: Schema.Boolean, matches: Schema.Number }))
)
const termsOf = (clause: Clause) => clause.alternatives.map((a) => a.term)
/** A query's clause with the fewest tenders by the statistics, as its lexemes. */
const rarestClause = (clauses: ReadonlyArray<ReadonlyArray<string>>, stats: SearchStatistics) =>
  clauses.toSorted((a, b) => stats.matchesOfAny(a) - stats.matchesOfAny(b))[0]
/**
 * Shares of the tenders of a text condition (one lexeme of each set): those a query's structured filters keep
 * (`kept`), and those in its filtered countries (`inCountries`, 1 without a country filter).
 */
export interface Shares {
  readonly kept: number
  readonly inCountries: number
}

/**
 * The share of the tenders of a text condition (one lexeme of each set) that pass a test: counted in the sample among
 * those it has, when it met enough of them, else among those having the condition's rarest set (a text and the
 * filters are seldom independent: a Russian word's tenders are Russia's, an English word's the EU's); else the
 * statistics' (`prior`), which take the filters as independent of the text.
 */
const sampledShare = (
  stats: SearchStatistics,
  sampled: LexemeSample,
  sets: ReadonlyArray<ReadonlyArray<string>>,
  passes: (facts: FilterFacts) => boolean,
  prior: number
) => {
  if (prior >= 1 || sets.length === 0) return prior
  const rarest = sets.length > 1 ? rarestClause(sets, stats) : undefined
  const counted =
    sampled.keptShare(sets, passes, prior) ??
    (rarest === undefined ? undefined : sampled.keptShare([rarest], passes, prior))
  return counted === undefined ? prior : Math.max(counted, 1e-6)
}
/** The shares of a text condition's tenders its query's filters keep, and its filtered countries hold. */
const filteredShares = (
  query: SearchQuery,
  stats: SearchStatistics,
  sampled: LexemeSample,
  sets: ReadonlyArray<ReadonlyArray<string>>
): Shares => ({
  kept: sampledShare(stats, sampled, sets, (facts) => passesStructuredFilters(query, facts), stats.filterShare(query)),
  inCountries:
    query.countries.length === 0
      ? 1
      : sampledShare(
          stats,
          sampled,
          sets,
          (facts) => passesCountryFilter(query.countries, facts.country),
          stats.countryShare(query.countries)
        )
})
/** The query's plan with each clause weighed by its rarity among the tenders (core `weighClauses`). */
const weighedPlan = (query: SearchQuery, stats: SearchStatistics) =>
  weighClauses(query.text, (clause) => stats.matchesOfAny(lexemesOf(termsOf(clause))), stats.tenders)
const fieldOfLetter = new Map<string, Field>(rankedFields.map((field) => [fieldLetter[field], field]))
/**
 * A tender's terms from its stored lexemes (`fieldLexeme`: the field's letter, then the term), each in its best field.
 */
const documentTermsOf = (lexemes: ReadonlyArray<string>): DocumentTerms => {
  const terms = new Map<string, Field>()
  for (const lexeme of lexemes) {
    const field = fieldOfLetter.get(lexeme.slice(0, 1))
    const term = termOfLexeme(lexeme)
    const before = terms.get(term)
    if (field !== undefined && (before === undefined || rankedFields.indexOf(field) < rankedFields.indexOf(before)))
      terms.set(term, field)
  }
  return terms
}
export const makeRankedSearch = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const bitmap = yield* Effect.serviceOption(BitmapClient)

  // Statistics change when ANALYZE runs (after a large ingest, or by autovacuum): read again after a minute. How
  // often words meet changes slowly: its sample is read again after ten minutes (LexemeSample.ts).
  const [statistics, statisticsRead] = yield* Effect.cachedInvalidateWithTTL(loadSearchStatistics(sql), "1 minute")
  const [sample, sampleRead] = yield* Effect.cachedInvalidateWithTTL(loadLexemeSample(sql), "10 minutes")
  const statisticsChanged = Effect.andThen(statisticsRead, sampleRead)

  // Statements the planner plans run unprepared: a cached generic plan cannot see the words. Those that run with
  // the GIN index only are prepared: their plan is the same for every word.
  const page = (where: Statement.Fragment, limit: number) =>
    sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE ${where}
      ORDER BY t.deadline_sort, t.id LIMIT ${limit}`.unprepared.pipe(Effect.flatMap(decodeRows))

  /**
   * For each condition, from the GIN index (other scans off): its `limit` nearest matches, and whether that is all
   * of them or `cap` were found (then `undefined`).
   */
  const probe = Effect.fn("RankedSearch.probe")(function* (
    planner: ScanSettings,
    conditions: ReadonlyArray<Statement.Fragment>,
    limit: number,
    cap: number
  ) {
    if (conditions.length === 0) return []
    yield* planner.free(false)
    const name = (i: number) => sql.literal(`p${i}`)
    const probes = conditions.map(
      (where, i) => sql`${name(i)} AS MATERIALIZED (
        SELECT t.id, t.deadline_sort FROM tenders t WHERE ${where} LIMIT ${cap})`
    )
    const nearestOf = conditions.map(
      (_, i) => sql`(SELECT ${i}::int AS level, (SELECT count(*)::int FROM ${name(i)}) AS matches, id
        FROM (SELECT id FROM ${name(i)} ORDER BY deadline_sort, id LIMIT ${limit}) n)`
    )
    const rows = yield* planner.sql(false)`WITH ${sql.join(", ", false)(probes)}
      SELECT ${sql.literal(tenderColumns)}, p.level, p.matches
      FROM (${sql.join(" UNION ALL ", false)(nearestOf)}) p JOIN tenders t ON t.id = p.id
      ORDER BY p.level, t.deadline_sort, t.id`.pipe(Effect.flatMap(decodeLevels))
    return conditions.map((_, i): ReadonlyArray<Tender> | undefined => {
      const own = rows.filter((row) => row.level === i)
      return (own[0]?.matches ?? 0) >= cap ? undefined : own.map(({ level: _l, matches: _m, ...tender }) => tender)
    })
  })

  /** The `limit` open tenders of a condition with the nearest deadlines, found the cheaper way (module doc). */
  const nearest = Effect.fn("RankedSearch.nearest")(function* (
    planner: ScanSettings,
    query: SearchQuery,
    where: Statement.Fragment,
    estimate: Estimate,
    shares: Shares,
    limit: number
  ) {
    const stats = yield* statistics
    const share = shares.kept
    const now = DateTime.toEpochMillis(query.now)
    const viaIndex = (cap: number) => probe(planner, [where], limit, cap).pipe(Effect.map(([found]) => found))
    const viaDeadline = (window: number) =>
      Effect.gen(function* () {
        yield* planner.free(true)
        const early = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM (
            SELECT * FROM tenders t WHERE ${openTender(sql, query.now)}
            ORDER BY t.deadline_sort, t.id LIMIT ${window}) t
          WHERE ${where} LIMIT ${limit}`.unprepared.pipe(Effect.flatMap(decodeRows))
        return early.length === limit ? early : undefined
      })
    // The cheapest way by the estimate first; when it falls short (the estimate was wrong), what it read corrects
    // the estimate and the ways left are weighed again: a probe stopped at its cap counted at least cap / share
    // tenders with the text, a deadline window too short at most limit × tenders / (window × share); a span of days
    // that held less than a page, about found / (its share × share). Asking the planner for every match ends it.
    const kept = Math.max(share, 1e-9)
    let current = estimate
    const tried = new Set<string>()
    for (let spans = 0; ;) {
      const route = routeOf(current, share, limit, stats.tenders)
      const span = spans < maxSpans ? spanOf(stats, now, current, shares, limit, query.countries) : undefined
      const ways = [
        { way: "index", cost: route.viaIndex },
        { way: "deadline", cost: route.viaDeadline },
        { way: "all", cost: route.viaAll },
        ...(span === undefined ? [] : [{ way: `span ${span.days}`, cost: span.cost }])
      ]
        .filter(({ way }) => !tried.has(way))
        .toSorted((a, b) => a.cost - b.cost)
      const next = ways[0]?.way ?? "all"
      tried.add(next)
      if (next === "all") {
        yield* planner.free(true)
        return yield* page(where, limit)
      }
      if (next === "index") {
        const found = yield* viaIndex(route.probeCap)
        if (found !== undefined) return found
        const least = route.probeCap / kept
        current = { ...current, matches: Math.max(current.matches, least), least: Math.max(current.least, least) }
      } else if (next === "deadline") {
        const found = yield* viaDeadline(route.window)
        if (found !== undefined) return found
        const most = (limit * stats.tenders) / (route.window * kept)
        current = { ...current, matches: Math.min(current.matches, most), least: Math.min(current.least, most) }
      } else if (span !== undefined) {
        spans++
        const cap = Math.max(route.probeCap, spanSlack * spanPages * limit)
        const [found] = yield* probe(planner, [sql`${where} AND ${hasAnyLexeme(sql, span.lexemes)}`], limit, cap)
        if (found?.length === limit) return found
        // Fewer than a page: about that many; stopped at its cap: at least that many (a shorter span holds the page).
        const measured = Math.max(found?.length ?? cap, 0.5) / Math.max(span.share * kept, 1e-9)
        current =
          found === undefined
            ? { ...current, matches: Math.max(current.matches, measured), least: Math.max(current.least, measured) }
            : { ...current, matches: measured, least: measured }
      }
    }
  })

  /**
   * The first `limit` tenders of the levels of a one-clause query after the first (`found` holds its tenders, all of
   * them when fewer than `limit`). A level is read only when those before it had fewer than asked for, so all of
   * theirs are found: those of its own found already belong to a level before it. The levels estimated small are
   * probed at once, up to the first large one expected to fill the page.
   */
  const byLevel = Effect.fn("RankedSearch.byLevel")(function* (
    planner: ScanSettings,
    query: SearchQuery,
    levels: ReadonlyArray<ReadonlyArray<string>>,
    found: ReadonlyArray<Tender>
  ) {
    const stats = yield* statistics
    const sampled = yield* sample
    const steps = levels.map((lexemes) => {
      const estimate = estimateOf(stats, sampled, [lexemes])
      const shares = filteredShares(query, stats, sampled, [lexemes])
      return {
        where: searchConditions(sql, query, [hasAnyLexeme(sql, lexemes)]),
        estimate,
        shares,
        route: routeOf(estimate, shares.kept, query.limit, stats.tenders)
      }
    })
    // A level is read only when those before it fell short: the small ones are probed at once (one statement) up to
    // the first large level expected to fill the page (its fewest likely matches, filtered), the rest only if reached.
    const filling = steps.findIndex(
      (step) => !step.route.indexFirst && step.estimate.least * step.shares.kept >= query.limit - found.length
    )
    const small = (filling === -1 ? steps : steps.slice(0, filling + 1)).filter((step) => step.route.indexFirst)
    const probed = new Map(
      (yield* probe(
        planner,
        small.map((step) => step.where),
        query.limit,
        Math.max(0, ...small.map((step) => step.route.probeCap))
      )).map((tenders, i) => [small[i], tenders] as const)
    )
    const result = [...found]
    for (const step of steps) {
      if (result.length >= query.limit) break
      const tenders =
        probed.get(step) ?? (yield* nearest(planner, query, step.where, step.estimate, step.shares, query.limit))
      const seen = new Set(result.map((tender) => tender.id))
      result.push(...tenders.filter((tender) => !seen.has(tender.id)).slice(0, query.limit - result.length))
    }
    return result
  })

  // Core's `rankOrder`: the tenders matching the whole query first, then by relevance, each clause weighed by its
  // rarity (core `weighClauses`, from the statistics), then by deadline.
  const rankOrderSql = (query: SearchQuery, stats: SearchStatistics) => {
    const weighed = weighedPlan(query, stats)
    return sql`${wholeCondition(sql, query.text)} DESC, ${relevanceSql(sql, weighed)} DESC, t.deadline_sort, t.id`
  }
  // A ranked page's columns: the tender's, and whether it has every clause.
  const rankedColumns = (query: SearchQuery) =>
    sql`${sql.literal(tenderColumns)}, t.search_vec @@ ${allOf(sql, clauseLexemes(query.text))} AS complete`
  const ranked = (query: SearchQuery, stats: SearchStatistics, ids: ReadonlyArray<string>) =>
    sql`SELECT ${rankedColumns(query)}
      FROM tenders t WHERE t.id IN ${sql.in(ids)}
      ORDER BY ${rankOrderSql(query, stats)}
      LIMIT ${query.limit}`.unprepared.pipe(Effect.flatMap(decodeRanked))

  /**
   * A text few tenders have (by the statistics, at most `candidateWindow` after the filters, or made of lexemes too
   * rare for the statistics to list, whose index entries are then few): every match read in one small statement, as
   * the naive baseline reads them, and ranked by core's own rules (`rankOrder`), when they are indeed no more than
   * that (the statement stops reading at one more); else undefined, and the search takes its steps. On PostgreSQL the
   * statement ranks them (`rankOrderSql`) on the bitmap pool, whose sessions plan it once: only the page is sent
   * (p95 at 1M 2.4 -> 1.5 ms). The embedded store, which would plan the longer statement at every call, sends every
   * match with its lexemes and they are ranked here (docs/benchmarks.md, issue 21, fifth session).
   */
  const rankedFew = Effect.fnUntraced(function* (query: SearchQuery) {
    const stats = yield* statistics
    const sampled = yield* sample
    const lexemes = [...new Set(clauseLexemes(query.text).flat())]
    const few =
      stats.unlisted(lexemes) ||
      estimateOf(stats, sampled, [lexemes]).matches * filteredShares(query, stats, sampled, [lexemes]).kept <=
        candidateWindow
    if (!few) return undefined
    const where = searchConditions(sql, query, [hasAnyLexeme(sql, lexemes)])
    if (Option.isSome(bitmap)) {
      const rows = yield* bitmap.value`WITH few AS MATERIALIZED (
          SELECT * FROM tenders t WHERE ${where} LIMIT ${candidateWindow + 1})
        SELECT ${rankedColumns(query)},
          (SELECT count(*) FROM few)::int AS matches
        FROM few t ORDER BY ${rankOrderSql(query, stats)} LIMIT ${query.limit}`.pipe(Effect.flatMap(decodeFew))
      if ((rows[0]?.matches ?? 0) > candidateWindow) return undefined
      return {
        tenders: rows.map(({ complete: _complete, matches: _matches, ...tender }) => tender),
        approximate: rows.some((row) => !row.complete)
      }
    }
    const rows = yield* sql<{ readonly vector: ReadonlyArray<string>; readonly [column: string]: unknown }>`
      SELECT ${sql.literal(tenderColumns)}, tsvector_to_array(t.search_vec) AS vector FROM tenders t WHERE ${where}
      LIMIT ${candidateWindow + 1}`.unprepared
    if (rows.length > candidateWindow) return undefined
    const weighed = weighedPlan(query, stats)
    const clauses = query.text.clauses
    const ranked = rows
      .map(({ vector, ...row }) => {
        const has = new Set(vector)
        const terms = documentTermsOf(lexemes.filter((lexeme) => has.has(lexeme)))
        return {
          row,
          id: String(row["id"]),
          deadline: typeof row["deadline"] === "string" ? row["deadline"] : null,
          complete: hasEveryClause(clauses, terms),
          whole: matchesWhole(clauses, terms),
          score: relevance(weighed, terms)
        }
      })
      .toSorted(rankOrder<{ whole: boolean; score: number; deadline: string | null; id: string }>(deadlineOrder))
      .slice(0, query.limit)
    return {
      tenders: yield* decodeRows(ranked.map(({ row }) => row)),
      approximate: ranked.some((tender) => !tender.complete)
    }
  })

  const rankedSearch = Effect.fnUntraced(function* (query: SearchQuery, planner: ScanSettings) {
    const stats = yield* statistics
    const sampled = yield* sample
    const shareOf = (sets: ReadonlyArray<ReadonlyArray<string>>) => filteredShares(query, stats, sampled, sets)
    const clauses = clauseLexemes(query.text)
    const best = bestLexemes(query.text)
    // One condition per set, each a key of its own for the GIN index, which then skips through each set's entries
    // to the others' (one tsquery of them all: a span of "road repair" read 7.8 ms of entries against 6.1-6.4).
    const whereAll = (sets: ReadonlyArray<ReadonlyArray<string>>) =>
      searchConditions(
        sql,
        query,
        sets.map((set) => hasAnyLexeme(sql, set))
      )
    const estimateAll = (sets: ReadonlyArray<ReadonlyArray<string>>) => estimateOf(stats, sampled, sets)
    const top = yield* nearest(planner, query, whereAll(best), estimateAll(best), shareOf(best), query.limit)
    if (top.length === query.limit) return { tenders: top, approximate: false }
    const [clause, ...others] = query.text.clauses
    if (clause !== undefined && others.length === 0) {
      const tenders = yield* byLevel(planner, query, levelLexemes(clause).slice(1), top)
      return { tenders, approximate: false }
    }
    const any = [clauses.flat()]
    const inTitle = clauseLexemes(query.text, ["title"])
    const rarest = clauses.length < 2 ? undefined : rarestClause(clauses, stats)
    const complete =
      stats.matchesOfAny(any[0] ?? []) * shareOf(any).kept <= candidateWindow
        ? (yield* probe(planner, [whereAll(any)], candidateWindow, candidateWindow))[0]
        : undefined
    const candidates = complete ?? [
      ...(yield* nearest(planner, query, whereAll(inTitle), estimateAll(inTitle), shareOf(inTitle), candidateWindow)),
      ...(yield* nearest(planner, query, whereAll(clauses), estimateAll(clauses), shareOf(clauses), candidateWindow)),
      ...(clauses.length >= 3 && clauses.length <= dropOneClauses
        ? yield* nearest(
            planner,
            query,
            searchConditions(sql, query, [sql`t.search_vec @@ ${allButOne(sql, clauses)}`]),
            clauses
              .map((_, i) => estimateAll(clauses.filter((_, j) => j !== i)))
              .reduce((sum, one) => ({
                matches: sum.matches + one.matches,
                entries: sum.entries + one.entries,
                sets: sum.sets + one.sets,
                least: sum.least + one.least
              })),
            shareOf(any),
            candidateWindow
          )
        : []),
      ...(yield* nearest(planner, query, whereAll(any), estimateAll(any), shareOf(any), candidateWindow)),
      // The rarest clause's own: a tender having only the query's most telling word is a candidate however many have
      // only its common ones.
      ...(rarest === undefined
        ? []
        : yield* nearest(planner, query, whereAll([rarest]), estimateAll([rarest]), shareOf([rarest]), candidateWindow))
    ]
    if (candidates.length === 0) return { tenders: [], approximate: false }
    yield* planner.free(true)
    const rows = yield* ranked(query, stats, [...new Set(candidates.map((tender) => tender.id))])
    return {
      tenders: rows.map(({ complete: _complete, ...tender }) => tender),
      approximate: rows.some((row) => !row.complete)
    }
  })

  // Its bitmap statements on the bitmap pool when there is one (PostgreSQL), else in a transaction that sets them.
  const rankedSearchScoped = (query: SearchQuery) => {
    const { settings, scoped } = makeScanSettings(sql, bitmap)
    return scoped(rankedSearch(query, settings))
  }

  /** Searches open tenders: with text best first (`approximate` when some lack a clause), else by deadline. */
  const search = (query: SearchQuery) =>
    query.text.clauses.length > 0
      ? Effect.flatMap(rankedFew(query), (few) => (few === undefined ? rankedSearchScoped(query) : Effect.succeed(few)))
      : Effect.map(page(searchConditions(sql, query, []), query.limit), (tenders) => ({ tenders, approximate: false }))

  return { search, statisticsChanged, sample, statistics }
})
