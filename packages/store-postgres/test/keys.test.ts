import { assert, describe, it, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { AccountStore, formatUtc, KeyId } from "@tenders/core"
import { DateTime, Effect, Layer, Option, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { join } from "node:path"
import { embeddedClientConfig, SOCKET_NAME } from "../src/embedded/EmbeddedPostgres.ts"
import { closePGlite, openPGlite, PGLITE_DIR } from "../src/embedded/ServePGlite.ts"
import { CounterClient } from "../src/CounterClient.ts"
import { migrate } from "../src/Migrations.ts"
import { PgAccountStore } from "../src/PgAccountStore.ts"
import { backends, postgresStore } from "./backends.ts"
import { serverWithDisk, tempDir } from "./embedded-wire.ts"

type Accounts = AccountStore["Service"]

const lastUsedAt = Effect.fnUntraced(function* (accounts: Accounts, keyId: KeyId) {
  const keys = yield* accounts.listKeys()
  return keys.find((k) => k.keyId === keyId)?.lastUsedAt
})

const setLastUsedAt = Effect.fnUntraced(function* (keyId: KeyId, instant: string) {
  const sql = yield* PgClient.PgClient
  yield* sql`UPDATE api_keys SET last_used_at = ${instant}::timestamptz WHERE id = ${keyId}::uuid`
})

for (const [name, makeLayer] of backends()) {
  describe(`keys on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("lists one account's keys, oldest first, or every key", () =>
        Effect.gen(function* () {
          const accounts = yield* AccountStore
          const first = yield* accounts.saveAccount({ email: "first@example.com", plan: "pro", monthlyLimit: null })
          const second = yield* accounts.saveAccount({ email: "second@example.com", plan: "free", monthlyLimit: null })
          const a = yield* accounts.createKey(first.id, "rest")
          const b = yield* accounts.createKey(second.id, "rest")
          const c = yield* accounts.createKey(first.id, "mcp")
          const own = yield* accounts.listKeys(first.id)
          assert.deepStrictEqual(
            own.map((k) => [k.keyId, k.accountId, k.kind]),
            [
              [a.keyId, first.id, "rest"],
              [c.keyId, first.id, "mcp"]
            ]
          )
          const every = (yield* accounts.listKeys()).map((k) => k.keyId)
          for (const key of [a, b, c]) assert.include(every, key.keyId)
        })
      )

      it.effect("refuses to revoke another account's key, which keeps working", () =>
        Effect.gen(function* () {
          const accounts = yield* AccountStore
          const owner = yield* accounts.saveAccount({ email: "owner@example.com", plan: "pro", monthlyLimit: null })
          const intruder = yield* accounts.saveAccount({
            email: "intruder@example.com",
            plan: "pro",
            monthlyLimit: null
          })
          const { key, keyId } = yield* accounts.createKey(owner.id, "rest")
          assert.isFalse(yield* accounts.revokeKey(keyId, intruder.id))
          assert.deepStrictEqual(yield* accounts.authenticate(key, "rest"), Option.some(owner))
          assert.isNull((yield* accounts.listKeys(owner.id))[0]?.revokedAt)
          assert.isFalse(yield* accounts.revokeKey(KeyId.make(crypto.randomUUID()), owner.id))
          assert.isTrue(yield* accounts.revokeKey(keyId, owner.id))
          assert.isTrue(Option.isNone(yield* accounts.authenticate(key, "rest")))
          assert.isNotNull((yield* accounts.listKeys(owner.id))[0]?.revokedAt)
        })
      )

      it.effect("authenticate notes the key's last use to the minute, writing only when the minute is newer", () =>
        Effect.gen(function* () {
          const accounts = yield* AccountStore
          const account = yield* accounts.saveAccount({ email: "used@example.com", plan: "pro", monthlyLimit: null })
          const { key, keyId } = yield* accounts.createKey(account.id, "rest")
          assert.isNull(yield* lastUsedAt(accounts, keyId))
          assert.isTrue(Option.isNone(yield* accounts.authenticate(key, "mcp")))
          assert.isNull(yield* lastUsedAt(accounts, keyId))

          const before = formatUtc(DateTime.startOf(yield* DateTime.now, "minute"))
          assert.isTrue(Option.isSome(yield* accounts.authenticate(key, "rest")))
          const after = formatUtc(DateTime.startOf(yield* DateTime.now, "minute"))
          const noted = yield* lastUsedAt(accounts, keyId)
          assert.isTrue(noted === before || noted === after, `${noted} is the minute of the call`)

          // A stored minute not older than the call's is left alone; an older one is moved to the call's minute.
          yield* setLastUsedAt(keyId, "2999-01-01T00:00:00Z")
          assert.isTrue(Option.isSome(yield* accounts.authenticate(key, "rest")))
          assert.strictEqual(yield* lastUsedAt(accounts, keyId), "2999-01-01T00:00:00Z")
          yield* setLastUsedAt(keyId, "2000-01-01T00:00:00Z")
          const from = formatUtc(DateTime.startOf(yield* DateTime.now, "minute"))
          assert.isTrue(Option.isSome(yield* accounts.authenticate(key, "rest")))
          const until = formatUtc(DateTime.startOf(yield* DateTime.now, "minute"))
          const moved = yield* lastUsedAt(accounts, keyId)
          assert.isTrue(moved === from || moved === until, `${moved} is the minute of the call`)
        })
      )
    })
  })
}

/**
 * Authentication on a store that refuses writes: `readOnly` runs its argument with an AccountStore whose writes
 * fail as the backend's do then; `accounts` writes.
 */
const authenticatesReadOnly = Effect.fnUntraced(function* (
  accounts: Accounts,
  readOnly: <A, E>(use: (store: Accounts) => Effect.Effect<A, E>) => Effect.Effect<A, E>
) {
  const account = yield* accounts.saveAccount({ email: "full@example.com", plan: "pro", monthlyLimit: 10 })
  const { key, keyId } = yield* accounts.createKey(account.id, "rest")
  yield* readOnly(
    Effect.fnUntraced(function* (store) {
      assert.deepStrictEqual(yield* store.authenticate(key, "rest"), Option.some(account))
      // The one-round-trip path authenticates alone: the call is left to `consumeCall` to charge.
      const limits = { free: 1, pro: 10, business: 100 }
      assert.deepStrictEqual(
        yield* store.authenticateAndCount(key, "rest", "2026-05-04", limits),
        Option.some({ account, counted: Option.none() })
      )
      const refused = yield* Effect.flip(store.consumeCall(account.id, "2026-05-04", 10))
      assert.strictEqual(refused._tag, "QuotaCounterUnavailable")
    })
  )
  assert.isNull(yield* lastUsedAt(accounts, keyId))
  assert.deepStrictEqual(yield* accounts.dailyUsage(account.id, "2026-05"), [])
  assert.isTrue(Option.isSome(yield* accounts.authenticate(key, "rest")))
  assert.isNotNull(yield* lastUsedAt(accounts, keyId))
})

/** An AccountStore of its own over `sql` (not the one the test's store layer memoised). */
/** An account store all of whose statements, its counts' included, go through `sql`. */
const accountStoreOn = (sql: PgClient.PgClient) =>
  Effect.gen(function* () {
    return yield* AccountStore
  }).pipe(
    Effect.provide(Layer.fresh(PgAccountStore)),
    Effect.provideService(PgClient.PgClient, sql),
    Effect.provideService(CounterClient, sql)
  )

describe("authentication on a store refusing writes", () => {
  // `it.live`: the client's connection timeouts run on the real clock.
  it.live("embedded PGlite with a full disk (a read-only session) authenticates without noting the use", () =>
    Effect.gen(function* () {
      const dir = yield* tempDir
      const path = join(dir, SOCKET_NAME)
      const { server, disk } = yield* serverWithDisk(path)
      server.attach(yield* Effect.acquireRelease(openPGlite(join(dir, PGLITE_DIR)), closePGlite))
      const sql = yield* PgClient.makeClient(embeddedClientConfig(path))
      yield* migrate.pipe(Effect.provideService(SqlClient.SqlClient, sql))
      const accounts = yield* accountStoreOn(sql)
      yield* authenticatesReadOnly(accounts, (use) =>
        Effect.acquireUseRelease(
          Effect.sync(() => {
            disk.room = false
          }),
          () => use(accounts),
          () =>
            Effect.sync(() => {
              disk.room = true
            })
        )
      )
    }).pipe(Effect.provide(Reactivity.layer))
  )

  const url = process.env["TEST_DATABASE_URL"]
  it.live.skipIf(url === undefined || url.length === 0)(
    "PostgreSQL in read-only sessions authenticates without noting the use",
    () =>
      Effect.gen(function* () {
        const sql = yield* PgClient.PgClient
        const [row] = yield* sql<{ name: string }>`SELECT current_database() AS name`
        const target = new URL(url ?? "")
        target.pathname = `/${row?.name ?? ""}`
        const readOnlySql = yield* PgClient.make({
          url: Redacted.make(target.toString()),
          maxConnections: 1,
          startupParameters: { default_transaction_read_only: "on" }
        })
        const readOnlyAccounts = yield* accountStoreOn(readOnlySql)
        yield* authenticatesReadOnly(yield* AccountStore, (use) => use(readOnlyAccounts))
      }).pipe(Effect.provide(Layer.merge(postgresStore(url ?? ""), Reactivity.layer)))
  )
})
