import { BudgetCurrency, DecimalString, RatesStore, type StoredRate } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { utc } from "./Sql.ts"

const Row = Schema.Struct({
  quarter: Schema.String,
  currency: BudgetCurrency,
  perEur: DecimalString,
  publisher: Schema.String,
  publishedOn: Schema.String,
  origin: Schema.String,
  fetchedAt: Schema.String
})

/** The reference rates on PostgreSQL (both stores); the refresh's slot is claimed with one atomic UPDATE. */
export const PgRatesStore = Layer.effect(
  RatesStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const now = Effect.map(DateTime.now, DateTime.formatIso)

    const save = Effect.fn("PgRatesStore.save")(function* (figures: ReadonlyArray<StoredRate>) {
      const at = yield* now
      yield* sql.withTransaction(
        Effect.forEach(
          figures,
          (f) => sql`INSERT INTO reference_rates
              (quarter, currency, per_eur, publisher, published_on, origin, fetched_at)
            VALUES (${f.quarter}, ${f.currency}, ${f.perEur}::numeric, ${f.publisher}, ${f.publishedOn}::date,
              ${f.origin}, ${f.fetchedAt ?? at}::timestamptz)
            ON CONFLICT (quarter, currency) DO UPDATE SET per_eur = EXCLUDED.per_eur, publisher = EXCLUDED.publisher,
              published_on = EXCLUDED.published_on, origin = EXCLUDED.origin, fetched_at = EXCLUDED.fetched_at`,
          { discard: true }
        )
      )
    }, Effect.orDie)

    // Per currency its figure of the newest quarter that has one (quarters as `YYYY-Qn` sort as text).
    const newest = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Row,
      execute: () => sql`SELECT DISTINCT ON (currency) quarter, currency, per_eur::text AS "perEur", publisher,
          to_char(published_on, 'YYYY-MM-DD') AS "publishedOn", origin, ${sql.literal(utc("fetched_at"))} AS "fetchedAt"
        FROM reference_rates ORDER BY currency, quarter DESC`
    })
    const latest = newest(undefined).pipe(
      Effect.map((rows) => rows.map((row): StoredRate => ({ ...row, official: true }))),
      Effect.orDie,
      Effect.withSpan("PgRatesStore.latest")
    )

    const claimRefresh = Effect.fn("PgRatesStore.claimRefresh")(function* (
      owner: string,
      lease: { readonly until: DateTime.Utc }
    ) {
      const at = yield* now
      yield* sql`INSERT INTO reference_rates_schedule (id, next_run_at) VALUES (1, ${at}::timestamptz)
        ON CONFLICT DO NOTHING`
      const rows = yield* sql`UPDATE reference_rates_schedule
        SET lease_owner = ${owner}, lease_expires_at = ${DateTime.formatIso(lease.until)}::timestamptz
        WHERE id = 1 AND next_run_at <= ${at}::timestamptz
          AND (lease_owner IS NULL OR lease_expires_at < ${at}::timestamptz)
        RETURNING id`
      return rows.length === 1
    }, Effect.orDie)

    const releaseRefresh = Effect.fn("PgRatesStore.releaseRefresh")(function* (owner: string, nextRunAt: DateTime.Utc) {
      yield* sql`UPDATE reference_rates_schedule SET lease_owner = NULL, lease_expires_at = NULL,
          next_run_at = ${DateTime.formatIso(nextRunAt)}::timestamptz
        WHERE id = 1 AND lease_owner = ${owner}`
    }, Effect.orDie)

    return RatesStore.of({ save, latest, claimRefresh, releaseRefresh })
  })
)
