import { DateTime, Effect, Layer, Option } from "effect"
import type { Account, KeyKind, QuotaDecision } from "../Account.ts"
import { AccountId, KeyId } from "../Ids.ts"
import { packSize, type Plan } from "../Plan.ts"
import { AccountStore } from "../ports/AccountStore.ts"
import { displayPrefix, newSecret, newWebhookSecret } from "../Secrets.ts"
import { formatUtc } from "../Time.ts"
import { MemoryDb, type MemoryState, nextSeq } from "./MemoryDb.ts"
import { memoryUuid } from "./memoryText.ts"

const usageOf = (db: MemoryState, accountId: string, month: string) => {
  const key = `${accountId}/${month}`
  const found = db.usage.get(key)
  if (found !== undefined) return found
  const fresh = { calls: 0, packs: 0 }
  db.usage.set(key, fresh)
  return fresh
}

/** AccountStore over the shared in-memory state: keys by secret, exact monthly counters. */
export const AccountStoreOnMemory = Layer.effect(
  AccountStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const byEmail = (email: string) => [...db.accounts.values()].find((a) => a.account.email === email)?.account
    const authenticate = (secret: string, kind: KeyKind) =>
      Effect.map(DateTime.now, (now) => {
        const index = db.keys.findIndex((k) => k.secret === secret && k.kind === kind && k.revokedAt === null)
        const key = db.keys[index]
        if (key === undefined) return Option.none<Account>()
        db.keys[index] = { ...key, lastUsedAt: `${formatUtc(now).slice(0, 16)}:00Z` }
        return Option.fromNullishOr(db.accounts.get(key.accountId)?.account)
      })
    return AccountStore.of({
      authenticate,
      // No one-round-trip path here: every counted call is charged by `consumeCall` (which tests may replace).
      authenticateAndCount: (secret, kind) =>
        Effect.map(
          authenticate(secret, kind),
          Option.map((account) => ({ account, counted: Option.none<QuotaDecision>() }))
        ),
      consumeCall: (accountId, day, limit) =>
        Effect.sync((): QuotaDecision => {
          const usage = usageOf(db, accountId, day.slice(0, 7))
          const effective = limit + usage.packs * packSize
          if (usage.calls >= effective) return { allowed: false, used: usage.calls, limit: effective }
          usage.calls++
          const dayKey = `${accountId}/${day}`
          db.usageDays.set(dayKey, (db.usageDays.get(dayKey) ?? 0) + 1)
          return { allowed: true, used: usage.calls, limit: effective }
        }),
      usage: (accountId, month) => Effect.sync(() => ({ ...usageOf(db, accountId, month) })),
      dailyUsage: (accountId, month) =>
        Effect.sync(() =>
          [...db.usageDays]
            .filter(([key]) => key.startsWith(`${accountId}/${month}-`))
            .map(([key, calls]) => ({ day: key.slice(key.indexOf("/") + 1), calls }))
            .toSorted((a, b) => a.day.localeCompare(b.day))
        ),
      findAccount: (email) => Effect.sync(() => Option.fromNullishOr(byEmail(email))),
      saveAccount: ({ email, monthlyLimit, plan }) =>
        Effect.sync(() => {
          const existing = byEmail(email)
          const account: Account = {
            id: existing?.id ?? AccountId.make(memoryUuid(nextSeq(db))),
            email,
            plan: plan ?? existing?.plan ?? "free",
            monthlyLimit: monthlyLimit === undefined ? (existing?.monthlyLimit ?? null) : monthlyLimit
          }
          db.accounts.set(account.id, { account, webhookSecret: db.accounts.get(account.id)?.webhookSecret ?? null })
          return account
        }),
      createKey: (accountId: AccountId, kind: KeyKind) =>
        Effect.map(DateTime.now, (now) => {
          const account = db.accounts.get(accountId)?.account
          const key = newSecret(kind)
          const keyId = KeyId.make(memoryUuid(nextSeq(db)))
          db.keys.push({
            keyId,
            accountId,
            email: account?.email ?? "",
            plan: account?.plan ?? "free",
            kind,
            prefix: displayPrefix(key, kind),
            createdAt: formatUtc(now),
            revokedAt: null,
            lastUsedAt: null,
            secret: key
          })
          return { keyId, key }
        }),
      listKeys: (accountId) =>
        Effect.sync(() =>
          db.keys
            .filter((k) => accountId === undefined || k.accountId === accountId)
            .map(({ secret: _secret, ...info }) => info)
        ),
      revokeKey: (keyId, accountId) =>
        Effect.map(DateTime.now, (now) => {
          const index = db.keys.findIndex(
            (k) => k.keyId === keyId && (accountId === undefined || k.accountId === accountId)
          )
          const key = db.keys[index]
          if (key === undefined) return false
          if (key.revokedAt === null) db.keys[index] = { ...key, revokedAt: formatUtc(now) }
          return true
        }),
      webhookSecret: (accountId, rotate) =>
        Effect.sync(() => {
          const entry = db.accounts.get(accountId)
          const secret = rotate || entry?.webhookSecret == null ? newWebhookSecret() : entry.webhookSecret
          if (entry !== undefined) entry.webhookSecret = secret
          return secret
        }),
      addPack: (accountId, month) =>
        Effect.sync(() => {
          const usage = usageOf(db, accountId, month)
          usage.packs++
          return usage.packs
        })
    })
  })
)

/** An AccountStore kept in memory, on its own state. */
export const AccountStoreMemory = AccountStoreOnMemory.pipe(Layer.provide(MemoryDb.layer))

/** Saves an account with `plan` (and an optional monthly limit) and makes it a key of `kind`: a test's caller. */
export const accountWithKey = (email: string, plan: Plan, kind: KeyKind, monthlyLimit: number | null = null) =>
  Effect.gen(function* () {
    const store = yield* AccountStore
    const account = yield* store.saveAccount({ email, plan, monthlyLimit })
    return yield* store.createKey(account.id, kind)
  })
