import { SearchText } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Schema } from "effect"
import { TenderRow, tenderColumns } from "./TenderRow.ts"
import { rememberWords, rewriteTerms } from "./TenderWrite.ts"

const decodeRows = Schema.decodeUnknownEffect(Schema.Array(TenderRow))
const batch = 2_000

/**
 * Rebuilds every tender's index terms (and the vocabulary of words) when the text analysis (its code or its data:
 * glossary, places, classifications) changed since they were written, in one transaction that holds the version
 * row, so two processes starting at once rebuild once.
 */
export const refreshSearchTerms = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const text = yield* SearchText
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
        ORDER BY t.id LIMIT ${batch}`.pipe(Effect.flatMap(decodeRows))
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
