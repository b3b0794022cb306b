/**
 * The embedded default store: PGlite (Postgres in WASM) persisted in
 * `<dataDir>/pglite`, served on a Unix socket by exactly one process (the
 * owner) and reached through the ordinary `@effect/sql-pg` client, by the
 * owner itself as well as by other processes (CLI commands run while the
 * server runs).
 *
 * - Who owns PGlite is recorded in `<dataDir>/pglite.lock` (LockFile.ts); a
 *   lock whose pid is dead and a leftover socket file are removed at start.
 *   When the owner exits, the processes it served claim the store again: one
 *   takes it over, the others reach it (Endpoint.ts), and what the owner had
 *   not run is sent again, exactly once (FailoverClient.ts).
 * - The socket server (ExclusiveSocketServer.ts) gives one connection at a time
 *   the single PGlite session, from its first message until ReadyForQuery says
 *   idle. It drains when its owner stops, reopens PGlite when its backend dies
 *   (ServePGlite.ts), and refuses writes while the disk is full (DiskSpace.ts).
 * - No session state in embedded mode (`SET`, temp tables, `LISTEN`/`NOTIFY`,
 *   advisory locks): all connections share one backend session.
 * - A transaction holds PGlite for every connection: code inside a transaction
 *   must not wait on another connection, and a client that stalls mid
 *   transaction stalls the others.
 * - Backups are taken by the owner, and restored only where no process owns
 *   the store (Backup.ts).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, type Layer } from "effect"
import type * as SqlClient from "effect/sql/SqlClient"
import { openEmbedded } from "./Endpoint.ts"
import type { EmbeddedStoreError } from "./EmbeddedStoreError.ts"
import { storeError } from "./EmbeddedStoreError.ts"
import { makeFailoverClient } from "./FailoverClient.ts"

export { backupEmbedded, restoreEmbedded } from "./Backup.ts"
export { EmbeddedStoreError } from "./EmbeddedStoreError.ts"
export {
  acquireEmbedded,
  type EmbeddedEndpoint,
  type EmbeddedStore,
  MAX_SOCKET_PATH_BYTES,
  openEmbedded,
  SOCKET_NAME
} from "./Endpoint.ts"

/** Connections each process opens to the owner's socket (the owner included). */
const POOL_SIZE = 4

/**
 * Connection settings for `PgClient.makeClient` / `PgClient.make` to reach an
 * embedded endpoint (PGlite has a single user and database, `postgres`, and no
 * authentication: access is guarded by the socket's file permissions).
 */
export const embeddedClientConfig = (
  path: string
): { readonly path: string; readonly username: string; readonly database: string } => ({
  path,
  username: "postgres",
  database: "postgres"
})

/** `PgClient` and `SqlClient` for a data directory, over whichever process owns it at the time. */
export const layerEmbedded = (
  dataDir: string
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, EmbeddedStoreError> =>
  PgClient.layerFrom(
    Effect.flatMap(openEmbedded(dataDir), (store) =>
      Effect.mapError(makeFailoverClient(store, POOL_SIZE), storeError("Cannot connect to the embedded PostgreSQL"))
    )
  )
