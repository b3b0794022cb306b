/**
 * A sample of the open tenders' lexemes, for what the planner's statistics cannot tell: how often words meet. They
 * give each lexeme's share of tenders, and several words are then taken as independent, or as always together, or
 * between the two (SearchEstimate.ts); the words of one query are often near always together ("school" and "building":
 * 30,600 tenders at 1M, estimated 1,850 as independent). Counted in a sample of about `sampleRows` tenders, a
 * condition met often enough for the count to mean something (`minHits`, an error of about 1/√hits) is estimated
 * from it. Each sampled tender's country, currency, budget, deadline and CPV prefixes are kept too: how many of a
 * text's tenders a search's filters keep is counted the same way (the statistics take them as independent of the
 * text). A word the sample has is also known to the spelling check without asking the index (PgTenderStore).
 */
import { type FilterFacts, parseDecimal } from "@tenders/core"
import { DateTime, Effect, Option, Schema } from "effect"
import type { Statement } from "effect/sql"
import { openTender } from "./Sql.ts"

/** About how many tenders the sample holds (whole pages of the table: `TABLESAMPLE SYSTEM`). */
const sampleRows = 3_000
/** The fewest sampled tenders a condition must have for the sample's count to be used. */
const minHits = 16

/** What the sample says of a condition: the tenders estimated to meet it, and the fewest they likely are (2σ). */
export interface SampledMatches {
  readonly matches: number
  readonly least: number
}

/** The sample as a search reads it: the open tenders having one lexeme of each set, when it met enough of them. */
export interface LexemeSample {
  /** Whether a sampled open tender has one of the lexemes (then some open tender has it; else nothing is known). */
  readonly hasAny: (lexemes: ReadonlyArray<string>) => boolean
  readonly matchesOfEvery: (sets: ReadonlyArray<ReadonlyArray<string>>) => SampledMatches | undefined
  /**
   * The share of the open tenders having one lexeme of each set that a query's structured filters keep (`passes`),
   * when the sample met enough of them: a text and the filters are seldom independent (a Russian word's tenders are
   * Russia's, so a filter keeping Russia keeps most of them, and few of all tenders). The count starts from `prior`
   * (the share taken without it) weighed as `minHits` tenders: a few kept of a few dozen say little.
   */
  readonly keptShare: (
    sets: ReadonlyArray<ReadonlyArray<string>>,
    passes: (facts: FilterFacts) => boolean,
    prior: number
  ) => number | undefined
}

const SampleRow = Schema.Struct({
  tenders: Schema.Number,
  lexemes: Schema.NullOr(Schema.Array(Schema.String)),
  country: Schema.NullOr(Schema.String),
  currency: Schema.NullOr(Schema.String),
  budget: Schema.NullOr(Schema.String),
  deadline: Schema.NullOr(Schema.Number),
  cpvPrefixes: Schema.NullOr(Schema.Array(Schema.String))
})

/**
 * A sample from `rows`: each sampled tender's lexemes, null for a tender not open (it counts in the sample's size,
 * as the table's size counts every tender), and the table's size (`tenders`).
 */
export const toLexemeSample = (rows: ReadonlyArray<typeof SampleRow.Type>): LexemeSample => {
  // The sample's size, not the rows: a closure below keeping `rows` kept every sampled tender's list of lexemes (about
  // 5 MB of heap at 1M tenders) where only the distinct lexemes are needed, as the postings' keys.
  const sampled = rows.length
  const tenders = Math.max(rows[0]?.tenders ?? 0, sampled)
  const postings = new Map<string, Array<number>>()
  const facts: Array<FilterFacts> = []
  for (const row of rows) {
    if (row.lexemes === null) continue
    for (const lexeme of row.lexemes) {
      const list = postings.get(lexeme)
      if (list === undefined) postings.set(lexeme, [facts.length])
      else list.push(facts.length)
    }
    // A tender's few prefixes as their list: a set of each sampled tender's held more.
    const prefixes = row.cpvPrefixes ?? []
    facts.push({
      country: row.country,
      currency: row.currency,
      budget: row.budget === null ? null : Option.getOrNull(parseDecimal(row.budget)),
      deadline: row.deadline,
      hasCpvPrefix: (prefix) => prefixes.includes(prefix)
    })
  }
  const open = facts.length
  // The sampled open tenders having one lexeme of each set (each set counted once, and only after all those before).
  const tendersOfEvery = (sets: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<number> => {
    if (sets.length === 0) return []
    const met = new Uint16Array(open)
    const having: Array<number> = []
    sets.forEach((set, k) => {
      for (const lexeme of set)
        for (const i of postings.get(lexeme) ?? [])
          if (met[i] === k) {
            met[i] = k + 1
            if (k + 1 === sets.length) having.push(i)
          }
    })
    return having
  }
  return {
    hasAny: (lexemes) => lexemes.some((lexeme) => postings.has(lexeme)),
    matchesOfEvery: (sets) => {
      const having = tendersOfEvery(sets)
      if (sampled === 0 || having.length < minHits) return undefined
      const hits = having.length
      const scale = tenders / sampled
      return { matches: hits * scale, least: Math.max(hits - 2 * Math.sqrt(hits), 1) * scale }
    },
    keptShare: (sets, passes, prior) => {
      const having = tendersOfEvery(sets)
      if (having.length < minHits) return undefined
      let kept = 0
      for (const i of having) if (passes(facts[i] as FilterFacts)) kept++
      return (kept + minHits * prior) / (having.length + minHits)
    }
  }
}

/** Reads a sample of about `sampleRows` tenders (all of a smaller table), with the table's size. */
export const loadLexemeSample = (sql: Statement.Constructor) =>
  Effect.gen(function* () {
    const now = yield* DateTime.now
    const percent = sql`LEAST(100, ${sampleRows * 100} / GREATEST((SELECT tenders FROM size), 1))`
    const rows = yield* sql`WITH size AS (SELECT GREATEST(c.reltuples, 0)::float8 AS tenders FROM pg_class c
        WHERE c.oid = 'tenders'::regclass)
      SELECT size.tenders, CASE WHEN ${openTender(sql, now)} THEN tsvector_to_array(t.search_vec) END AS lexemes,
        t.country, t.currency, t.budget::text AS budget, t.cpv_prefixes AS "cpvPrefixes",
        (extract(epoch FROM t.deadline) * 1000)::float8 AS deadline
      FROM size, tenders t TABLESAMPLE SYSTEM (${percent}) REPEATABLE (7)`.pipe(
      Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(SampleRow)))
    )
    return toLexemeSample(rows)
  }).pipe(Effect.orDie)
