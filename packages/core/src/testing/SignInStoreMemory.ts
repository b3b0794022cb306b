import { DateTime, Effect, Layer, Option } from "effect"
import { SignInStore } from "../ports/SignInStore.ts"
import { MemoryDb } from "./MemoryDb.ts"

/** SignInStore over the shared in-memory state (secrets kept in clear: tests only). */
export const SignInStoreOnMemory = Layer.effect(
  SignInStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const usable = (token: string, now: DateTime.Utc) =>
      db.signInLinks.find((l) => l.token === token && !l.used && DateTime.isLessThan(now, l.expiresAt))
    return SignInStore.of({
      saveLink: (link) => Effect.sync(() => void db.signInLinks.push({ ...link, used: false })),
      linksSince: (email, client, since) =>
        Effect.sync(() => {
          const recent = db.signInLinks.filter((l) => DateTime.isGreaterThanOrEqualTo(l.createdAt, since))
          return {
            address: recent.filter((l) => l.email === email).length,
            client: recent.filter((l) => l.client === client).length
          }
        }),
      peekLink: (token, now) => Effect.sync(() => Option.fromNullishOr(usable(token, now)?.email)),
      useLink: (token, now) =>
        Effect.sync(() => {
          const link = usable(token, now)
          if (link === undefined) return Option.none()
          link.used = true
          return Option.some(link.email)
        }),
      createSession: ({ token, accountId, expiresAt }) =>
        Effect.sync(() => void db.sessions.set(token, { accountId, expiresAt })),
      sessionAccount: (token, now) =>
        Effect.sync(() => {
          const session = db.sessions.get(token)
          if (session === undefined || !DateTime.isLessThan(now, session.expiresAt)) return Option.none()
          return Option.fromNullishOr(db.accounts.get(session.accountId)?.account)
        }),
      endSession: (token) => Effect.sync(() => void db.sessions.delete(token))
    })
  })
)
