import { loadPacks, currentPacksDigest, SearchText } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import { decodeTenderRows, tenderColumns } from "./TenderRow.ts"
import { rememberWords, rewriteTerms } from "./TenderWrite.ts"

const batch = 2_000

/** Gives the text analysis the store's classification packs, when they are not the ones it has. */
export const usePacksOfStore = Effect.gen(function* () {
  const text = yield* SearchText
  if ((yield* currentPacksDigest()) === text.packsDigest) return false
  text.usePacks(yield* loadPacks())
  return true
})

/**
 * Rebuilds every tender's index terms (and the vocabulary of words) when the text analysis (its code, its data:
 * glossary, places, classifications, and the store's classification packs) changed since they were written, in one
 * transaction that holds the version row, so two processes starting at once rebuild once.
 */
export const refreshSearchTerms = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const text = yield* SearchText
  yield* usePacksOfStore
  // Read first, without a lock: a store whose terms are current opens without writing (also on a full disk).
  const current = yield* sql<{ version: string }>`SELECT version FROM search_index_state WHERE id = 1`
  if (current[0]?.version === text.version) return
  yield* Effect.gen(function* () {
    const rows = yield* sql<{ version: string }>`SELECT version FROM search_index_state WHERE id = 1 FOR UPDATE`
    if (rows[0]?.version === text.version) return
    let after = ""
    let rebuilt = 0
    yield* sql`TRUNCATE search_vocabulary`
    for (;;) {
      const tenders = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t WHERE t.id > ${after}
        ORDER BY t.id LIMIT ${batch}`.pipe(Effect.flatMap(decodeTenderRows))
      const last = tenders.at(-1)
      if (last === undefined) break
      yield* rewriteTerms(sql, text, tenders)
      yield* rememberWords(sql, text, tenders)
      rebuilt += tenders.length
      after = last.id
    }
    yield* sql`UPDATE search_index_state SET version = ${text.version} WHERE id = 1`
    if (rebuilt > 0) yield* Effect.logInfo(`Search terms rebuilt for ${rebuilt} tenders (text analysis changed)`)
  }).pipe(sql.withTransaction)
}).pipe(Effect.withSpan("refreshSearchTerms"))

/**
 * Analyses again the tenders whose terms were made by another version of the analysis than the one in use (after a
 * classification pack changed), a batch of 2,000 a transaction, while the store keeps answering; `progress` hears
 * after each batch how many are done and how many there were. When none is left, the version in use is the store's.
 */
export const reanalyseStale = (progress: (done: number, total: number) => Effect.Effect<void>) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const text = yield* SearchText
    const version = text.version
    const counted = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tenders
      WHERE terms_version IS DISTINCT FROM ${version}`
    const total = counted[0]?.n ?? 0
    let after = ""
    let done = 0
    for (;;) {
      const tenders = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t
        WHERE t.id > ${after} AND t.terms_version IS DISTINCT FROM ${version}
        ORDER BY t.id LIMIT ${batch}`.pipe(Effect.flatMap(decodeTenderRows))
      const last = tenders.at(-1)
      if (last === undefined) break
      yield* Effect.andThen(rewriteTerms(sql, text, tenders), rememberWords(sql, text, tenders)).pipe(
        sql.withTransaction
      )
      done += tenders.length
      after = last.id
      yield* progress(done, Math.max(total, done))
    }
    yield* sql`UPDATE search_index_state SET version = ${version} WHERE id = 1`
    return done
  }).pipe(Effect.withSpan("reanalyseStale"))
