// Run by embedded.test.ts in a separate OS process: node embedded-child.ts <dataDir> <id>
// Joins the data directory's embedded PostgreSQL, writes one row and reports what it saw.
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import { acquireEmbedded, embeddedClientConfig } from "../src/embedded/EmbeddedPostgres.ts"

const [dataDir, id] = process.argv.slice(2)

const program = Effect.gen(function* () {
  const endpoint = yield* acquireEmbedded(dataDir!)
  const sql = yield* PgClient.make({ ...embeddedClientConfig(endpoint.path), maxConnections: 4 })
  yield* sql`INSERT INTO notes (id, body) VALUES (${Number(id)}, ${`written by process ${process.pid}`})`
  const rows = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM notes`
  process.stdout.write(JSON.stringify({ owner: endpoint.owner, path: endpoint.path, count: rows[0]!.count }))
}).pipe(Effect.scoped, Effect.provide(Reactivity.layer))

Effect.runPromise(program).then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(String(error))
    process.exit(1)
  }
)
