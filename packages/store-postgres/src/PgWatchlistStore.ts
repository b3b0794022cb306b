import { AccountId, type StoredWatchlist, WatchlistId, WatchlistInput, WatchlistStore } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { jsonColumn, utc, UtcInstant } from "./Sql.ts"

const Row = Schema.Struct({
  id: WatchlistId,
  accountId: AccountId,
  name: Schema.String,
  filters: jsonColumn(WatchlistInput.fields.filters),
  email: Schema.Boolean,
  webhook: Schema.NullOr(Schema.String),
  createdAt: UtcInstant
})

const toStored = (row: typeof Row.Type): StoredWatchlist => ({
  id: row.id,
  accountId: row.accountId,
  createdAt: row.createdAt,
  name: row.name,
  filters: row.filters,
  channels: { email: row.email, ...(row.webhook === null ? {} : { webhook: row.webhook }) }
})

/** WatchlistStore on PostgreSQL; the plan's watchlist limit is checked under a lock on the account row. */
export const PgWatchlistStore = Layer.effect(
  WatchlistStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient

    const create = Effect.fn("PgWatchlistStore.create")(function* (
      accountId: AccountId,
      input: WatchlistInput,
      limit: number
    ) {
      const now = DateTime.formatIso(yield* DateTime.now)
      const id = WatchlistId.make(crypto.randomUUID())
      return yield* Effect.gen(function* () {
        yield* sql`SELECT id FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`
        const rows = yield* sql<{
          n: number
        }>`SELECT count(*)::int AS n FROM watchlists WHERE account_id = ${accountId}::uuid`
        if ((rows[0]?.n ?? 0) >= limit) return undefined
        yield* sql`INSERT INTO watchlists (id, account_id, name, filters, email, webhook, created_at)
            VALUES (${id}::uuid, ${accountId}::uuid, ${input.name}, ${sql.json(input.filters)},
              ${input.channels?.email ?? true}, ${input.channels?.webhook ?? null}, ${now}::timestamptz)`
        return id
      }).pipe(sql.withTransaction)
    }, Effect.orDie)

    const byAccount = SqlSchema.findAll({
      Request: AccountId,
      Result: Row,
      execute: (accountId) => sql`SELECT id::text AS id, account_id::text AS "accountId", name, filters, email, webhook,
          ${sql.literal(utc("created_at"))} AS "createdAt"
        FROM watchlists WHERE account_id = ${accountId}::uuid ORDER BY created_at, id`
    })

    const list = Effect.fn("PgWatchlistStore.list")(function* (accountId: AccountId) {
      return (yield* byAccount(accountId)).map(toStored)
    }, Effect.orDie)

    const remove = Effect.fn("PgWatchlistStore.remove")(function* (accountId: AccountId, watchlistId: WatchlistId) {
      const rows = yield* sql`DELETE FROM watchlists WHERE id = ${watchlistId}::uuid AND account_id = ${accountId}::uuid
        RETURNING id`
      return rows.length > 0
    }, Effect.orDie)

    return WatchlistStore.of({ create, list, remove })
  })
)
