import {
  type MatchToken,
  type QueryToken,
  type Script,
  type StoredWatchlist,
  WatchlistInput,
  WatchlistStore
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { randomUUID } from "node:crypto"

const Row = Schema.Struct({
  id: Schema.String,
  accountId: Schema.String,
  name: Schema.String,
  filters: Schema.Union([WatchlistInput.fields.filters, Schema.fromJsonString(WatchlistInput.fields.filters)]),
  email: Schema.Boolean,
  webhook: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
const decodeRows = Schema.decodeUnknownEffect(Schema.Array(Row))

/** The stemming dictionary of each script, as the text vectors use them (TenderWrite.ts). */
const stemmer: Record<Script, string | undefined> = {
  latin: "english_stem",
  cyrillic: "russian_stem",
  armenian: "armenian_stem",
  other: undefined
}

/** WatchlistStore on PostgreSQL; the plan's watchlist limit is checked under a lock on the account row. */
export const PgWatchlistStore = Layer.effect(
  WatchlistStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient

    const resolveTokens = Effect.fn("PgWatchlistStore.resolveTokens")(function* (tokens: ReadonlyArray<QueryToken>) {
      const resolved: Array<MatchToken> = []
      for (const token of tokens) {
        const dictionary = stemmer[token.script]
        const stems =
          dictionary === undefined
            ? []
            : ((yield* sql<{
                l: ReadonlyArray<string> | null
              }>`SELECT ts_lexize(${dictionary}::regdictionary, ${token.text}) AS l`)[0]?.l ?? [])
        const prefix = token.script === "armenian" || token.script === "other" ? [token.text] : []
        // A stop word has no lexeme and no prefix: the search ignores it, so matching does too.
        if (stems.length > 0 || prefix.length > 0) resolved.push({ exact: [...stems], prefix })
      }
      return resolved
    }, Effect.orDie)

    const create = Effect.fn("PgWatchlistStore.create")(function* (
      accountId: string,
      input: WatchlistInput,
      tokens: ReadonlyArray<MatchToken>,
      limit: number
    ) {
      const now = DateTime.formatIso(yield* DateTime.now)
      const id = randomUUID()
      return yield* Effect.gen(function* () {
        yield* sql`SELECT id FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`
        const rows = yield* sql<{
          n: number
        }>`SELECT count(*)::int AS n FROM watchlists WHERE account_id = ${accountId}::uuid`
        if ((rows[0]?.n ?? 0) >= limit) return undefined
        yield* sql`INSERT INTO watchlists (id, account_id, name, filters, email, webhook, created_at, match_tokens)
          VALUES (${id}::uuid, ${accountId}::uuid, ${input.name}, ${sql.json(input.filters)}, ${input.channels?.email ?? true},
            ${input.channels?.webhook ?? null}, ${now}::timestamptz, ${sql.json(tokens)})`
        return id
      }).pipe(sql.withTransaction)
    }, Effect.orDie)

    const list = Effect.fn("PgWatchlistStore.list")(function* (accountId: string) {
      const rows = yield* sql`SELECT id::text AS id, account_id::text AS "accountId", name, filters, email, webhook,
          to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS "createdAt"
        FROM watchlists WHERE account_id = ${accountId}::uuid ORDER BY created_at, id`
      const decoded = yield* decodeRows(rows)
      return decoded.map((r): StoredWatchlist => ({
        id: r.id,
        accountId: r.accountId,
        createdAt: r.createdAt,
        name: r.name,
        filters: r.filters,
        channels: { email: r.email, ...(r.webhook === null ? {} : { webhook: r.webhook }) }
      }))
    }, Effect.orDie)

    const remove = Effect.fn("PgWatchlistStore.remove")(function* (accountId: string, watchlistId: string) {
      if (!/^[0-9a-f-]{36}$/iu.test(watchlistId)) return false
      const rows =
        yield* sql`DELETE FROM watchlists WHERE id = ${watchlistId}::uuid AND account_id = ${accountId}::uuid RETURNING id`
      return rows.length > 0
    }, Effect.orDie)

    return WatchlistStore.of({ create, list, remove, resolveTokens })
  })
)
