// A counted call's key statement (PgAccountStore's `authenticateAndCount`): the calls of one key asked for while its
// statement is in flight counted together, in the next one.
import { Account, type KeyKind, type Plan, packSize } from "@tenders/core"
import type { PgClient } from "@effect/sql-pg"
import { Context, DateTime, Deferred, Effect, Exit, Option, Request, RequestResolver, Schema } from "effect"
import { type SqlError, SqlSchema } from "effect/sql"
import { hashSecret } from "./Secrets.ts"
import { writeRefused } from "./Sql.ts"

/** A key's secret hashed, its kind, and the minute of the call (`last_used_at` is kept to the minute). */
export const KeyRequest = Schema.Struct({ hash: Schema.String, kind: Schema.String, minute: Schema.String })
/** Counted calls' key, with their day (`YYYY-MM-DD`), the plans' monthly limits as JSON, and how many calls. */
const CountedKeyRequest = Schema.Struct({
  ...KeyRequest.fields,
  day: Schema.String,
  limits: Schema.String,
  calls: Schema.Number
})
/** The key's account, and the month's calls and packs after the call when it was counted. */
const CountedKeyRow = Schema.Struct({
  ...Account.fields,
  calls: Schema.NullOr(Schema.Number),
  packs: Schema.NullOr(Schema.Number)
})

/** A counted call's key, as its call asks: its day and the plans' limits besides. */
type CountedCallRequest = typeof KeyRequest.Type & { readonly day: string; readonly limits: string }

/** The calls one statement may count together: one key's, in one minute and day, against the same limits. */
const batchKeyOf = (request: CountedCallRequest) =>
  [request.hash, request.kind, request.minute, request.day, request.limits].join("\u0000")

/** The batch a call asks to join, for the resolver's delay (it runs in the batch's first caller's context). */
const BatchKey = Context.Reference<string | undefined>("@tenders/store-postgres/CountedCalls/BatchKey", {
  defaultValue: () => undefined
})

/** One counted call's key statement, asked for by the call (`authenticateAndCount`). */
class CountedCall extends Request.Class<
  CountedCallRequest,
  Option.Option<typeof CountedKeyRow.Type>,
  SqlError.SqlError | Schema.SchemaError
> {}

/**
 * `authenticateAndCount` on `counter` (the counters' pool where there is one, CounterClient.ts), with `byKey` (the
 * key's account alone) for a store refusing writes.
 */
export const makeAuthenticateAndCount = (
  counter: PgClient.PgClient,
  byKey: (
    request: typeof KeyRequest.Type
  ) => Effect.Effect<Option.Option<Account>, SqlError.SqlError | Schema.SchemaError>
) => {
  // One round trip for `calls` counted calls of one key: the key's account, its use noted at most once a minute, and
  // the month's `UPDATE … WHERE calls + n <= limit` of `countCall` with the account's limit taken in the statement
  // (its own, else its plan's): all of them counted, or none. The day's count moves only with the month's. No row:
  // no such key; no count: not room for them all, or no row for the month yet.
  const keyCounted = SqlSchema.findOneOption({
    Request: CountedKeyRequest,
    Result: CountedKeyRow,
    execute: ({ hash, kind, minute, day, limits, calls }) => counter`WITH key AS (
        SELECT a.id, a.email, a.plan, a.monthly_limit, k.id AS key_id, k.last_used_at
        FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.secret_hash = ${hash} AND k.kind = ${kind} AND k.revoked_at IS NULL
      ), noted AS (
        UPDATE api_keys SET last_used_at = ${minute}::timestamptz
        WHERE id IN (SELECT key_id FROM key WHERE last_used_at IS NULL OR last_used_at < ${minute}::timestamptz)
      ), counted AS (
        UPDATE usage_months u SET calls = u.calls + ${calls}::int
        FROM key
        WHERE u.account_id = key.id AND u.month = ${day.slice(0, 7)}
          AND u.calls + ${calls}::int <= coalesce(key.monthly_limit, (${limits}::jsonb ->> key.plan)::int)
            + u.packs * ${packSize}
        RETURNING u.calls, u.packs
      ), on_day AS (
        INSERT INTO usage_days (account_id, day, calls)
        SELECT key.id, ${day}::date, ${calls}::int FROM key, counted
        ON CONFLICT (account_id, day) DO UPDATE SET calls = usage_days.calls + EXCLUDED.calls
      )
      SELECT key.id::text AS id, key.email, key.plan, key.monthly_limit AS "monthlyLimit",
        counted.calls, counted.packs
      FROM key LEFT JOIN counted ON true`
  })
  // A store refusing writes (a full disk) authenticates the key alone, nothing counted (each call is then charged).
  const uncounted = (request: CountedCallRequest) =>
    Effect.map(
      byKey(request),
      Option.map((account) => ({ ...account, calls: null, packs: null }))
    )
  /**
   * The key's statement for `calls` calls of it: each call's row, its count after it (the first call the lowest).
   * When they do not all fit (or the month has no row yet), each call is counted alone, as many as fit; when the store
   * refuses writes, the key is authenticated once for them all.
   */
  const countCalls = Effect.fnUntraced(function* (request: CountedCallRequest, calls: number) {
    const tried = yield* keyCounted({ ...request, calls }).pipe(
      Effect.map(Option.some),
      Effect.catchIf(writeRefused, () => Effect.succeedNone)
    )
    const row = Option.isSome(tried) ? tried.value : yield* uncounted(request)
    if (calls > 1 && Option.isSome(tried) && Option.isSome(row) && row.value.calls === null) {
      const alone = keyCounted({ ...request, calls: 1 }).pipe(Effect.catchIf(writeRefused, () => uncounted(request)))
      return yield* Effect.forEach(Array.from({ length: calls }), () => alone, { concurrency: "unbounded" })
    }
    return Array.from({ length: calls }, (_, i) =>
      Option.map(row, (found) => (found.calls === null ? found : { ...found, calls: found.calls - calls + i + 1 }))
    )
  })
  // The calls of one key asked for while its statement is in flight wait for it and then share the next one: one round
  // trip, one row lock and one commit for them all, where each waited for the one before. A call of a key with nothing
  // in flight goes at once, alone, so a quiet server adds no wait.
  const inFlight = new Map<string, Deferred.Deferred<void>>()
  /** `counting` as the key's statement in flight: the calls asked for meanwhile wait for it to end. */
  const asInFlight = <A, E>(key: string, counting: Effect.Effect<A, E>) =>
    Effect.suspend(() => {
      const done = Deferred.makeUnsafe<void>()
      inFlight.set(key, done)
      return Effect.ensuring(
        counting,
        Effect.sync(() => {
          if (inFlight.get(key) === done) inFlight.delete(key)
          Deferred.doneUnsafe(done, Effect.void)
        })
      )
    })
  const countedCalls = RequestResolver.makeWith<CountedCall>({
    batchKey: ({ request }) => batchKeyOf(request),
    delay: Effect.flatMap(BatchKey, (key) => {
      const running = key === undefined ? undefined : inFlight.get(key)
      return running === undefined ? Effect.void : Deferred.await(running)
    }),
    collectWhile: () => true,
    runAll: (entries, key) =>
      asInFlight(
        String(key),
        Effect.map(Effect.exit(countCalls(entries[0].request, entries.length)), (exit) => {
          if (Exit.isFailure(exit)) for (const entry of entries) entry.completeUnsafe(Exit.failCause(exit.cause))
          else for (const [i, row] of exit.value.entries()) entries[i]?.completeUnsafe(Exit.succeed(row))
        })
      )
  })
  const authenticateAndCount = Effect.fn("PgAccountStore.authenticateAndCount")(function* (
    secret: string,
    kind: KeyKind,
    day: string,
    limits: Readonly<Record<Plan, number>>
  ) {
    const minute = DateTime.formatIso(DateTime.startOf(yield* DateTime.now, "minute"))
    const request = { hash: hashSecret(secret), kind, minute, day, limits: JSON.stringify(limits) }
    const key = batchKeyOf(request)
    const row = inFlight.has(key)
      ? yield* Effect.request(new CountedCall(request), countedCalls).pipe(Effect.provideService(BatchKey, key))
      : (yield* asInFlight(key, countCalls(request, 1)))[0]
    if (row === undefined) return yield* Effect.die(new Error("a counted call's statement gave no row for it"))
    return Option.map(row, ({ calls, packs, ...account }) => ({
      account,
      counted:
        calls === null || packs === null
          ? Option.none()
          : Option.some({
              allowed: true,
              used: calls,
              limit: (account.monthlyLimit ?? limits[account.plan]) + packs * packSize
            })
    }))
  }, Effect.orDie)

  return authenticateAndCount
}
