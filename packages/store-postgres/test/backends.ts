import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SearchTextLive } from "@tenders/search-text"
import { layerStore } from "../src/index.ts"

/** A fresh embedded store in a temporary directory, removed afterwards. */
export const embeddedStore = () =>
  Layer.unwrap(
    Effect.acquireRelease(
      Effect.sync(() => mkdtempSync(join(tmpdir(), "tdr-"))),
      (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
    ).pipe(
      Effect.map((dataDir) => layerStore({ databaseUrl: undefined, dataDir }).pipe(Layer.provideMerge(SearchTextLive)))
    )
  )

/** A fresh database on the PostgreSQL server of TEST_DATABASE_URL, dropped afterwards. */
export const postgresStore = (url: string) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const name = `tenders_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
      const admin = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1 }).pipe(
        Effect.provide(Reactivity.layer)
      )
      yield* Effect.acquireRelease(admin.unsafe(`CREATE DATABASE ${name}`), () =>
        admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(Effect.orDie)
      )
      const target = new URL(url)
      target.pathname = `/${name}`
      return layerStore({ databaseUrl: target.toString(), dataDir: "" }).pipe(Layer.provideMerge(SearchTextLive))
    }).pipe(Effect.orDie)
  )

/** The backends the store suite runs on: always embedded, plus PostgreSQL when TEST_DATABASE_URL is set. */
export const backends = (): ReadonlyArray<readonly [string, () => ReturnType<typeof embeddedStore>]> => {
  const url = process.env["TEST_DATABASE_URL"]
  return [
    ["embedded PGlite", embeddedStore],
    ...(url !== undefined && url.length > 0 ? [["PostgreSQL", () => postgresStore(url)] as const] : [])
  ]
}
