import { DateTime, Effect, Layer, Option, Ref } from "effect"
import { type Account, type KeyInfo, type KeyKind, keyPrefix, type QuotaDecision } from "../Account.ts"
import { packSize, type Plan } from "../Plan.ts"
import { AccountStore } from "../ports/AccountStore.ts"

interface State {
  readonly accounts: ReadonlyArray<Account>
  readonly keys: ReadonlyArray<KeyInfo & { readonly secret: string }>
  readonly usage: ReadonlyMap<string, { readonly calls: number; readonly packs: number }>
  readonly seq: number
}

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** An AccountStore kept in memory; secrets are deterministic per sequence number (tests only). */
export const AccountStoreMemory = Layer.effect(
  AccountStore,
  Effect.gen(function* () {
    const state = yield* Ref.make<State>({ accounts: [], keys: [], usage: new Map(), seq: 0 })
    const usageOf = (s: State, accountId: string, month: string) =>
      s.usage.get(`${accountId}/${month}`) ?? { calls: 0, packs: 0 }
    return AccountStore.of({
      authenticate: (secret, kind) =>
        Effect.map(Ref.get(state), (s) => {
          const key = s.keys.find((k) => k.secret === secret && k.kind === kind && k.revokedAt === null)
          return Option.fromNullishOr(key && s.accounts.find((a) => a.id === key.accountId))
        }),
      consumeCall: (accountId, month, limit) =>
        Ref.modify(state, (s): readonly [QuotaDecision, State] => {
          const current = usageOf(s, accountId, month)
          const effective = limit + current.packs * packSize
          if (current.calls >= effective) return [{ allowed: false, used: current.calls, limit: effective }, s]
          const usage = new Map(s.usage).set(`${accountId}/${month}`, { ...current, calls: current.calls + 1 })
          return [
            { allowed: true, used: current.calls + 1, limit: effective },
            { ...s, usage }
          ]
        }),
      usage: (accountId, month) => Effect.map(Ref.get(state), (s) => usageOf(s, accountId, month)),
      findAccount: (email) =>
        Effect.map(Ref.get(state), (s) => Option.fromNullishOr(s.accounts.find((a) => a.email === email))),
      saveAccount: ({ email, monthlyLimit, plan }) =>
        Ref.modify(state, (s) => {
          const existing = s.accounts.find((a) => a.email === email)
          const account: Account = {
            id: existing?.id ?? `acc-${s.seq + 1}`,
            email,
            plan: plan ?? existing?.plan ?? "free",
            monthlyLimit: monthlyLimit === undefined ? (existing?.monthlyLimit ?? null) : monthlyLimit
          }
          return [
            account,
            { ...s, seq: s.seq + 1, accounts: [...s.accounts.filter((a) => a.email !== email), account] }
          ]
        }),
      createKey: (accountId: string, kind: KeyKind) =>
        Effect.gen(function* () {
          const now = DateTime.formatIso(yield* DateTime.now)
          return yield* Ref.modify(state, (s) => {
            const account = s.accounts.find((a) => a.id === accountId)
            const n = s.seq + 1
            const secret =
              keyPrefix[kind] + Array.from({ length: 32 }, (_, i) => base62[(n * 7 + i * 13) % 62]).join("")
            const keyId = `key-${n}`
            const info = {
              keyId,
              accountId,
              email: account?.email ?? "",
              plan: account?.plan ?? "free",
              kind,
              prefix: secret.slice(0, keyPrefix[kind].length + 4),
              createdAt: now,
              revokedAt: null,
              secret
            }
            return [
              { keyId, key: secret },
              { ...s, seq: n, keys: [...s.keys, info] }
            ]
          })
        }),
      listKeys: Effect.map(Ref.get(state), (s) => s.keys.map(({ secret: _secret, ...info }) => info)),
      revokeKey: (keyId) =>
        Effect.gen(function* () {
          const now = DateTime.formatIso(yield* DateTime.now)
          return yield* Ref.modify(state, (s) => {
            const found = s.keys.some((k) => k.keyId === keyId)
            return [
              found,
              {
                ...s,
                keys: s.keys.map((k) => (k.keyId === keyId && k.revokedAt === null ? { ...k, revokedAt: now } : k))
              }
            ]
          })
        }),
      webhookSecret: (accountId, rotate) => Effect.succeed(`whsec_${rotate ? "rotated" : "initial"}${accountId}`),
      addPack: (accountId, month) =>
        Ref.modify(state, (s) => {
          const current = usageOf(s, accountId, month)
          const next = { ...current, packs: current.packs + 1 }
          return [next.packs, { ...s, usage: new Map(s.usage).set(`${accountId}/${month}`, next) }]
        })
    })
  })
)

/** Saves an account with `plan` (and an optional monthly limit) and makes it a key of `kind`: a test's caller. */
export const accountWithKey = (email: string, plan: Plan, kind: KeyKind, monthlyLimit: number | null = null) =>
  Effect.gen(function* () {
    const store = yield* AccountStore
    const account = yield* store.saveAccount({ email, plan, monthlyLimit })
    return yield* store.createKey(account.id, kind)
  })
