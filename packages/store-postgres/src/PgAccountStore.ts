import {
  Account,
  AccountId,
  AccountStore,
  displayPrefix,
  KeyId,
  KeyInfo,
  type KeyKind,
  newSecret,
  newWebhookSecret,
  type Plan,
  packSize,
  QuotaCounterUnavailable
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Option, Schema } from "effect"
import { SqlSchema } from "effect/sql"
import { CounterClient } from "./CounterClient.ts"
import { KeyRequest, makeAuthenticateAndCount } from "./CountedCalls.ts"
import { hashSecret } from "./Secrets.ts"
import { accountColumns, utc, UtcText, writeRefused } from "./Sql.ts"

const decodeAccounts = Schema.decodeUnknownEffect(Schema.Array(Account))
const KeyRow = Schema.Struct({
  ...KeyInfo.fields,
  createdAt: UtcText,
  revokedAt: Schema.NullOr(UtcText),
  lastUsedAt: Schema.NullOr(UtcText)
})
const DayUsageRow = Schema.Struct({ day: Schema.String, calls: Schema.Number })
/** AccountStore on PostgreSQL: hashed secrets, exact monthly counters. */
export const PgAccountStore = Layer.effect(
  AccountStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    // The statements that count calls commit on the counters' pool where there is one (CounterClient.ts).
    const counter = Option.getOrElse(yield* Effect.serviceOption(CounterClient), () => sql)

    const keyAccount = (hash: string, kind: string) => sql`SELECT ${sql.literal(accountColumns)}
      FROM api_keys k JOIN accounts a ON a.id = k.account_id
      WHERE k.secret_hash = ${hash} AND k.kind = ${kind} AND k.revoked_at IS NULL`
    // One round trip: the key's account, and its use noted at most once a minute.
    const byKeyNoted = SqlSchema.findOneOption({
      Request: KeyRequest,
      Result: Account,
      execute: ({ hash, kind, minute }) => sql`WITH noted AS (
          UPDATE api_keys SET last_used_at = ${minute}::timestamptz
          WHERE secret_hash = ${hash} AND kind = ${kind} AND revoked_at IS NULL
            AND (last_used_at IS NULL OR last_used_at < ${minute}::timestamptz)
        )
        ${keyAccount(hash, kind)}`
    })
    const byKey = SqlSchema.findOneOption({
      Request: KeyRequest,
      Result: Account,
      execute: ({ hash, kind }) => keyAccount(hash, kind)
    })
    // A store refusing writes (a full disk) still authenticates; the key's last use is then not noted.
    const authenticate = Effect.fn("PgAccountStore.authenticate")(function* (secret: string, kind: KeyKind) {
      const minute = DateTime.formatIso(DateTime.startOf(yield* DateTime.now, "minute"))
      const request = { hash: hashSecret(secret), kind, minute }
      return yield* byKeyNoted(request).pipe(Effect.catchIf(writeRefused, () => byKey(request)))
    }, Effect.orDie)

    const authenticateAndCount = makeAuthenticateAndCount(counter, byKey)

    const usage = Effect.fn("PgAccountStore.usage")(function* (accountId: AccountId, month: string) {
      const rows = yield* sql<{ calls: number; packs: number }>`SELECT calls, packs FROM usage_months
        WHERE account_id = ${accountId}::uuid AND month = ${month}`
      return rows[0] ?? { calls: 0, packs: 0 }
    }, Effect.orDie)

    // The UPDATE's row lock serialises concurrent calls and re-checks the limit, so no call over-spends; the day's
    // count moves in the same statement, only when the month's did. The month's row is made only when the UPDATE
    // counts nothing (the month's first call, or a refusal), so a counted call is one statement.
    const countCall = (accountId: AccountId, day: string, month: string, limit: number) =>
      counter<{ calls: number; packs: number }>`WITH counted AS (
          UPDATE usage_months SET calls = calls + 1
          WHERE account_id = ${accountId}::uuid AND month = ${month} AND calls < ${limit} + packs * ${packSize}
          RETURNING calls, packs
        ), on_day AS (
          INSERT INTO usage_days (account_id, day, calls)
          SELECT ${accountId}::uuid, ${day}::date, 1 FROM counted
          ON CONFLICT (account_id, day) DO UPDATE SET calls = usage_days.calls + 1
        )
        SELECT calls, packs FROM counted`
    const consumeCall = Effect.fn("PgAccountStore.consumeCall")(
      function* (accountId: AccountId, day: string, limit: number) {
        const month = day.slice(0, 7)
        let updated = yield* countCall(accountId, day, month, limit)
        if (updated.length === 0) {
          // No room, or no row yet: make the row (a concurrent first call may have) and count again.
          yield* counter`INSERT INTO usage_months (account_id, month) VALUES (${accountId}::uuid, ${month})
            ON CONFLICT DO NOTHING`
          updated = yield* countCall(accountId, day, month, limit)
        }
        const row = updated[0]
        if (row !== undefined) return { allowed: true, used: row.calls, limit: limit + row.packs * packSize }
        const current = yield* usage(accountId, month)
        return { allowed: false, used: current.calls, limit: limit + current.packs * packSize }
      },
      (effect) =>
        Effect.catch(effect, (error) =>
          writeRefused(error) ? Effect.fail(new QuotaCounterUnavailable({ message: error.message })) : Effect.die(error)
        )
    )

    const days = SqlSchema.findAll({
      Request: Schema.Struct({ accountId: AccountId, month: Schema.String }),
      Result: DayUsageRow,
      execute: ({ accountId, month }) => sql`SELECT to_char(day, 'YYYY-MM-DD') AS day, calls FROM usage_days
        WHERE account_id = ${accountId}::uuid AND day >= ${`${month}-01`}::date
          AND day < ${`${month}-01`}::date + interval '1 month'
        ORDER BY day`
    })
    const dailyUsage = Effect.fn("PgAccountStore.dailyUsage")(
      (accountId: AccountId, month: string) => days({ accountId, month }),
      Effect.orDie
    )

    const byEmail = SqlSchema.findOneOption({
      Request: Schema.String,
      Result: Account,
      execute: (email) => sql`SELECT ${sql.literal(accountColumns)} FROM accounts a WHERE a.email = ${email}`
    })
    const findAccount = Effect.fn("PgAccountStore.findAccount")((email: string) => byEmail(email), Effect.orDie)

    const saveAccount = Effect.fn("PgAccountStore.saveAccount")(function* (input: {
      readonly email: string
      readonly plan: Plan | undefined
      readonly monthlyLimit: number | null | undefined
    }) {
      const keepLimit = input.monthlyLimit === undefined
      const rows = yield* sql`INSERT INTO accounts AS a (id, email, plan, monthly_limit)
        VALUES (${crypto.randomUUID()}::uuid, ${input.email}, ${input.plan ?? "free"}, ${input.monthlyLimit ?? null})
        ON CONFLICT (email) DO UPDATE SET
          plan = COALESCE(${input.plan ?? null}, a.plan),
          monthly_limit = CASE WHEN ${keepLimit} THEN a.monthly_limit ELSE EXCLUDED.monthly_limit END
        RETURNING ${sql.literal(accountColumns)}`
      const [account] = yield* decodeAccounts(rows)
      if (account === undefined) return yield* Effect.die(new Error("account upsert returned no row"))
      return account
    }, Effect.orDie)

    const createKey = Effect.fn("PgAccountStore.createKey")(function* (accountId: AccountId, kind: KeyKind) {
      const key = newSecret(kind)
      const keyId = KeyId.make(crypto.randomUUID())
      yield* sql`INSERT INTO api_keys (id, account_id, kind, secret_hash, prefix, created_at)
        VALUES (${keyId}::uuid, ${accountId}::uuid, ${kind}, ${hashSecret(key)}, ${displayPrefix(key, kind)},
          ${DateTime.formatIso(yield* DateTime.now)}::timestamptz)`
      return { keyId, key }
    }, Effect.orDie)

    const utcColumn = (column: string) => sql.literal(utc(column))
    const keys = SqlSchema.findAll({
      Request: Schema.NullOr(AccountId),
      Result: KeyRow,
      execute: (accountId) => sql`SELECT k.id::text AS "keyId", a.id::text AS "accountId", a.email, a.plan, k.kind,
          k.prefix, ${utcColumn("k.created_at")} AS "createdAt", ${utcColumn("k.revoked_at")} AS "revokedAt",
          ${utcColumn("k.last_used_at")} AS "lastUsedAt"
        FROM api_keys k JOIN accounts a ON a.id = k.account_id
        ${accountId === null ? sql.literal("") : sql`WHERE k.account_id = ${accountId}::uuid`}
        ORDER BY k.created_at, k.id`
    })
    const listKeys = Effect.fn("PgAccountStore.listKeys")(
      (accountId?: AccountId) => keys(accountId ?? null),
      Effect.orDie
    )

    const revokeKey = Effect.fn("PgAccountStore.revokeKey")(function* (keyId: KeyId, accountId?: AccountId) {
      const now = DateTime.formatIso(yield* DateTime.now)
      const owner = accountId === undefined ? sql.literal("") : sql`AND account_id = ${accountId}::uuid`
      const rows = yield* sql`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ${now}::timestamptz)
        WHERE id = ${keyId}::uuid ${owner} RETURNING id`
      return rows.length > 0
    }, Effect.orDie)

    const addPack = Effect.fn("PgAccountStore.addPack")(function* (accountId: AccountId, month: string) {
      const rows = yield* sql<{ packs: number }>`INSERT INTO usage_months (account_id, month, packs)
        VALUES (${accountId}::uuid, ${month}, 1)
        ON CONFLICT (account_id, month) DO UPDATE SET packs = usage_months.packs + 1 RETURNING packs`
      return rows[0]?.packs ?? 0
    }, Effect.orDie)

    const webhookSecret = Effect.fn("PgAccountStore.webhookSecret")(function* (accountId: AccountId, rotate: boolean) {
      const fresh = newWebhookSecret()
      const rows = yield* sql<{ secret: string }>`UPDATE accounts
        SET webhook_secret = CASE WHEN ${rotate} OR webhook_secret IS NULL THEN ${fresh} ELSE webhook_secret END
        WHERE id = ${accountId}::uuid RETURNING webhook_secret AS secret`
      return rows[0]?.secret ?? fresh
    }, Effect.orDie)

    return AccountStore.of({
      webhookSecret,
      authenticate,
      authenticateAndCount,
      consumeCall,
      usage,
      dailyUsage,
      findAccount,
      saveAccount,
      createKey,
      listKeys,
      revokeKey,
      addPack
    })
  })
)
