/**
 * Trying a statement or transaction again after the owner of the embedded store went away (the rules are in
 * FailoverClient.ts): before each new try the store is claimed again (Endpoint.ts), and a failure the caller gets
 * says what is known of what ran.
 */
import type * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Option } from "effect"
import { SqlError, UnknownError } from "effect/sql/SqlError"
import { withDiskState, writesRefusedMessage } from "./DiskSpace.ts"
import { type Committing, outcome, sqlState, transactionStatus } from "./EmbeddedTransaction.ts"
import { describeCause } from "./EmbeddedStoreError.ts"
import type { EmbeddedStore } from "./Endpoint.ts"
import { DISK_FULL, READ_ONLY_SQL_TRANSACTION } from "./WireProtocol.ts"

/** Tries of one statement or transaction after the first: 20 ms apart, doubling up to 1 s; about 10 s in all. */
const MAX_RETRIES = 15
const RETRY_BASE_MS = 20
const RETRY_MAX_MS = 1000

export const WENT_AWAY = "The tenders process serving the embedded store went away"

const explained = (error: SqlError, message: string): SqlError =>
  new SqlError({ reason: new UnknownError({ cause: error, message, operation: error.reason.operation }) })

/** The message a caller gets for the failures this module knows the reason of. */
const explain =
  (store: EmbeddedStore, broken: string) =>
  <E>(error: E): E | SqlError => {
    if (!(error instanceof SqlError)) return error
    const code = sqlState(error)
    if (code === READ_ONLY_SQL_TRANSACTION) return explained(error, writesRefusedMessage(store.dataDir))
    if (code === DISK_FULL) return explained(error, withDiskState(store.dataDir, describeCause(error.reason.cause)))
    switch (outcome(error)) {
      case "broken":
        return explained(error, `${broken} (${describeCause(error.reason.cause)})`)
      case "not-run":
        return explained(
          error,
          `Cannot reach the embedded store in ${store.dataDir}: ${describeCause(error.reason.cause)}`
        )
      default:
        return error
    }
  }

const reclaim = (store: EmbeddedStore, seen: number): Effect.Effect<void, SqlError> =>
  Effect.mapError(
    store.reclaim(seen),
    (cause) => new SqlError({ reason: new UnknownError({ cause, message: cause.message, operation: "claim" }) })
  )

/**
 * What a failed try means: `again`, it did not run (send it again); `fail`, an ordinary error or an unknown
 * outcome; `settle`, its COMMIT broke: once the store is claimed again, `settle` says whether it was applied
 * (`Some`: its result) or not (`None`: send it again).
 */
type Next<A> =
  | { readonly _tag: "again" }
  | { readonly _tag: "fail" }
  | { readonly _tag: "settle"; readonly settle: Effect.Effect<Option.Option<A>, SqlError> }

export const again: Next<never> = { _tag: "again" }
export const fail: Next<never> = { _tag: "fail" }

/** One try: what to run, what its failure means, and what a broken connection means if it gives up. */
interface Attempt<A, E, R> {
  readonly effect: Effect.Effect<A, E, R>
  readonly next: (error: E) => Next<A>
  readonly broken: string
}

/** Runs `attempt()` (made afresh each time) until it succeeds or fails for good; before another try, claims again. */
export const withFailover = <A, E, R>(
  store: EmbeddedStore,
  attempt: () => Attempt<A, E, R>
): Effect.Effect<A, E | SqlError, R> => {
  const run = (tries: number): Effect.Effect<A, E | SqlError, R> =>
    Effect.suspend(() => {
      const seen = store.generation()
      const { effect, next, broken } = attempt()
      return Effect.catch(effect, (error) => {
        const decision = next(error)
        const giveUp = Effect.fail(explain(store, broken)(error))
        const retry =
          tries < MAX_RETRIES
            ? Effect.andThen(Effect.sleep(Math.min(RETRY_BASE_MS * 2 ** tries, RETRY_MAX_MS)), run(tries + 1))
            : giveUp
        switch (decision._tag) {
          case "fail":
            return giveUp
          case "again":
            return tries < MAX_RETRIES ? Effect.andThen(reclaim(store, seen), retry) : giveUp
          case "settle":
            return reclaim(store, seen).pipe(
              Effect.andThen(decision.settle),
              Effect.flatMap(Option.match({ onNone: () => retry, onSome: Effect.succeed }))
            )
        }
      })
    })
  return run(0)
}

const unknownFate = (message: string, cause: unknown) =>
  new SqlError({ reason: new UnknownError({ cause, message, operation: "commit" }) })

/**
 * Transactions sent again until they were applied once. `body(learnt)` runs one try, and calls `learnt` just
 * before it sends COMMIT; `broken` is what the caller is told if the tries run out.
 */
export const makeExactlyOnce = (store: EmbeddedStore, inner: PgClient.PgClient) => {
  const status = (xid: string) =>
    withFailover(store, () => ({
      effect: transactionStatus(inner, xid),
      next: (error: SqlError) => (outcome(error) === "other" ? fail : again), // a read: safe to send again
      broken: `${WENT_AWAY} again and again`
    }))
  const settle = <A>(committing: Committing<A>): Effect.Effect<Option.Option<A>, SqlError> =>
    committing.xid === null
      ? Effect.succeedSome(committing.result) // it wrote nothing: there is nothing to apply
      : status(committing.xid).pipe(
          Effect.mapError((error) =>
            unknownFate(`${WENT_AWAY} during COMMIT, and asking whether it was applied failed: ${error.message}`, error)
          ),
          Effect.flatMap((fate) => {
            if (fate === "committed") return Effect.succeedSome(committing.result)
            if (fate === "aborted" || fate === "future") return Effect.succeedNone
            const message = `${WENT_AWAY} during COMMIT, and the store cannot tell whether it was applied (${fate})`
            return Effect.fail(unknownFate(message, fate))
          })
        )
  return <A, E, R>(
    body: (learnt: (committing: Committing<A>) => void) => Effect.Effect<A, E, R>,
    broken: string
  ): Effect.Effect<A, E | SqlError, R> =>
    withFailover(store, () => {
      let committing: Committing<A> | undefined
      return {
        effect: body((learnt) => (committing = learnt)),
        next: (error: E): Next<A> => {
          switch (outcome(error)) {
            case "not-run":
              return again
            case "broken":
              return committing === undefined ? again : { _tag: "settle", settle: settle(committing) }
            default:
              return fail
          }
        },
        broken
      }
    })
}
