import { DateTime, Duration, Effect, Layer, Option } from "effect"
import { SignInStore } from "../ports/SignInStore.ts"
import { MemoryDb } from "./MemoryDb.ts"

/** SignInStore over the shared in-memory state (secrets kept in clear: tests only). */
export const SignInStoreOnMemory = Layer.effect(
  SignInStore,
  Effect.gen(function* () {
    const db = yield* MemoryDb
    const usable = (token: string, now: DateTime.Utc) =>
      db.signInLinks.find((l) => l.token === token && !l.used && DateTime.isLessThan(now, l.expiresAt))
    const byId = (id: string) => db.signInLinks.find((l) => l.token === id)
    const settle = (id: string, state: "sent" | "failed", error: string | undefined) =>
      Effect.sync(() => {
        const link = byId(id)
        if (link === undefined) return
        link.mail = undefined
        link.mailState = state
        link.mailLeaseUntil = undefined
        link.mailError = error
      })
    return SignInStore.of({
      saveLink: ({ mail, ...link }) =>
        Effect.sync(
          () =>
            void db.signInLinks.push({
              ...link,
              used: false,
              mail,
              mailState: mail === undefined ? "none" : "pending",
              mailAttempts: 0,
              mailDueAt: link.createdAt,
              mailLeaseUntil: undefined,
              mailError: undefined
            })
        ),
      claimMails: (now, leaseUntil, limit) =>
        Effect.sync(() => {
          const due = db.signInLinks.filter(
            (l) =>
              l.mailState === "pending" &&
              !DateTime.isGreaterThan(l.mailDueAt, now) &&
              (l.mailLeaseUntil === undefined || !DateTime.isGreaterThan(l.mailLeaseUntil, now))
          )
          for (const link of due.filter((l) => !DateTime.isLessThan(now, l.expiresAt))) {
            link.mail = undefined
            link.mailState = "failed"
            link.mailError = "the link expired before its mail could be sent"
          }
          return due
            .filter((l) => l.mail !== undefined)
            .slice(0, limit)
            .map((link) => {
              link.mailAttempts++
              link.mailLeaseUntil = leaseUntil
              const mail = link.mail ?? { url: "", language: "en" }
              return {
                id: link.token,
                attempts: link.mailAttempts,
                expiresAt: link.expiresAt,
                message: {
                  to: link.email,
                  url: mail.url,
                  language: mail.language,
                  minutes: Math.round(Duration.toMinutes(DateTime.distance(link.createdAt, link.expiresAt)))
                }
              }
            })
        }),
      markMailSent: (id) => settle(id, "sent", undefined),
      rescheduleMail: (id, at, error) =>
        Effect.sync(() => {
          const link = byId(id)
          if (link === undefined) return
          link.mailDueAt = at
          link.mailLeaseUntil = undefined
          link.mailError = error
        }),
      dropMail: (id, error) => settle(id, "failed", error),
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
      endSession: (token) => Effect.sync(() => void db.sessions.delete(token)),
      endSessions: (accountId) =>
        Effect.sync(() => {
          const ended = [...db.sessions].filter(([, session]) => session.accountId === accountId)
          for (const [token] of ended) db.sessions.delete(token)
          return ended.length
        })
    })
  })
)
