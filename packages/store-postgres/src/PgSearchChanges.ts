import { SearchChanges } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Queue, Schedule } from "effect"
import { searchChangesChannel } from "./migrations/SearchChanges.ts"

/**
 * SearchChanges on PostgreSQL: a connection of its own LISTENs on the channel the tables a search reads announce
 * their commits on (migrations/SearchChanges.ts), and each notice moves the generation. While the listener is not
 * confirmed (at start, or after its connection was lost and until it is back) the generation is none, so no answer is
 * kept or given from the cache; a listener back moves the generation, since notices may have been missed meanwhile.
 */
export const PgSearchChanges = Layer.effect(
  SearchChanges,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    let generation = 0
    let listening = false
    const follow = Effect.scoped(
      Effect.gen(function* () {
        const notices = yield* sql.listen(searchChangesChannel)
        generation++
        listening = true
        yield* Effect.forever(
          Effect.map(Queue.takeAll(notices), () => {
            generation++
          })
        )
      })
    ).pipe(
      Effect.ensuring(
        Effect.sync(() => {
          listening = false
          generation++
        })
      ),
      Effect.tapError((error) =>
        Effect.logWarning(`The search result cache is off until its change feed is back: ${error.message}`)
      ),
      Effect.retry(Schedule.spaced("1 second"))
    )
    yield* Effect.forkScoped(follow)
    return SearchChanges.of({
      generation: Effect.sync(() => (listening ? Option.some(generation) : Option.none()))
    })
  })
)
