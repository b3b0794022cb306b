/**
 * The embedded default store: PGlite (Postgres in WASM) persisted in
 * `<dataDir>/pglite`, served on a Unix socket by exactly one process (the
 * owner) and reached through the ordinary `@effect/sql-pg` client, by the
 * owner itself as well as by other processes (CLI commands run while the
 * server runs).
 *
 * - Who owns PGlite is recorded in `<dataDir>/pglite.lock` (see LockFile.ts);
 *   a lock whose pid is dead and a leftover socket file are removed at start.
 * - The socket server (ExclusiveSocketServer.ts) gives one connection at a time
 *   the single PGlite session, from its first message until ReadyForQuery says
 *   idle. The owner uses one connection; non-owners a small pool.
 * - No session state in embedded mode (`SET`, temp tables, `LISTEN`/`NOTIFY`,
 *   advisory locks): all connections share one backend session.
 * - A transaction holds PGlite for every connection: code inside a transaction
 *   must not wait on another connection, and a client that stalls mid
 *   transaction stalls the others.
 */
import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Layer, type Scope } from "effect"
import type * as SqlClient from "effect/sql/SqlClient"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { EmbeddedStoreError } from "./EmbeddedStoreError.ts"
import { ExclusiveSocketServer } from "./ExclusiveSocketServer.ts"
import { type Claim, claimLock, isAlive, releaseLock } from "./LockFile.ts"

export { EmbeddedStoreError } from "./EmbeddedStoreError.ts"

export interface EmbeddedEndpoint {
  /** The Unix socket to give `PgClient` as `path`. */
  readonly path: string
  /** Whether this scope opened PGlite (and must use a single connection). */
  readonly owner: boolean
}

export const SOCKET_NAME = ".s.PGSQL.5432"
/** `sun_path` holds 108 bytes on Linux and 104 on macOS, including the NUL. */
export const MAX_SOCKET_PATH_BYTES = 100
const TMP_SOCKET_DIR_PREFIX = "tenders-pg-"
/** The owner listens right after taking the lock, so its socket answers within milliseconds. */
const OWNER_SOCKET_WAIT_MS = 15_000
const MAX_CLAIM_ATTEMPTS = 5

const fail = (message: string) => (cause: unknown) =>
  new EmbeddedStoreError({ message: `${message}: ${cause instanceof Error ? cause.message : String(cause)}` })

/**
 * The socket lives at `<dataDir>/.s.PGSQL.5432` when that path is shorter than
 * {@link MAX_SOCKET_PATH_BYTES}. Otherwise it falls back to a fresh private
 * directory under `os.tmpdir()` (`mkdtemp`, mode 0700, so other users cannot
 * reach the socket): other processes find it through the lock file, and the
 * owner removes it when it stops (or the next owner, if it crashed).
 */
const chooseSocketPath = (dataDir: string): string => {
  const preferred = Path.join(dataDir, SOCKET_NAME)
  if (Buffer.byteLength(preferred) < MAX_SOCKET_PATH_BYTES) return preferred
  const fallback = Path.join(Fs.mkdtempSync(Path.join(Os.tmpdir(), TMP_SOCKET_DIR_PREFIX)), SOCKET_NAME)
  if (Buffer.byteLength(fallback) < MAX_SOCKET_PATH_BYTES) return fallback
  Fs.rmdirSync(Path.dirname(fallback))
  throw new Error(
    `neither ${preferred} nor ${fallback} is shorter than ${MAX_SOCKET_PATH_BYTES} bytes (the Unix socket path limit); use a shorter data directory or TMPDIR`
  )
}

/** Removes a socket file (never anything else), and the private temp directory around it if `withDir`. */
const removeSocket = (socketPath: string, withDir: boolean): void => {
  try {
    if (Fs.lstatSync(socketPath).isSocket()) Fs.rmSync(socketPath, { force: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
  }
  const dir = Path.dirname(socketPath)
  if (withDir && Path.dirname(dir) === Os.tmpdir() && Path.basename(dir).startsWith(TMP_SOCKET_DIR_PREFIX)) {
    Fs.rmSync(dir, { recursive: true, force: true })
  }
}

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

/** Whether something accepts connections on the socket. */
const probe = (socketPath: string): Effect.Effect<boolean> =>
  Effect.callback<boolean>((resume) => {
    const socket = Net.connect({ path: socketPath })
    socket.once("connect", () => {
      socket.destroy()
      resume(Effect.succeed(true))
    })
    socket.once("error", () => resume(Effect.succeed(false)))
    return Effect.sync(() => socket.destroy())
  })

/** Waits until the live owner's socket answers: false if the owner died meanwhile. */
const awaitOwner = Effect.fnUntraced(function* (claim: Claim) {
  const deadline = Date.now() + OWNER_SOCKET_WAIT_MS
  while (true) {
    if (yield* probe(claim.info.socketPath)) return true
    if (!isAlive(claim.info.pid, claim.lockPath)) return false
    if (Date.now() > deadline) {
      return yield* new EmbeddedStoreError({
        message: `${claim.lockPath} says process ${claim.info.pid} serves this data directory on ${claim.info.socketPath}, but nothing answers there; if no tenders process uses this data directory, delete the lock file`
      })
    }
    yield* Effect.sleep("20 millis")
  }
})

/** Opens PGlite and serves it on the socket; everything is undone when the scope closes. */
const serve = Effect.fnUntraced(function* (dataDir: string, socketPath: string) {
  yield* Effect.try({
    try: () => removeSocket(socketPath, false),
    catch: fail(`Cannot remove the stale socket ${socketPath}`)
  })
  const server = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const server = new ExclusiveSocketServer({ path: socketPath, maxConnections: 100 })
        await server.listen()
        return server
      },
      catch: fail(`Cannot listen on ${socketPath}`)
    }),
    (server) => Effect.promise(() => server.stop())
  )
  const pgliteDir = Path.join(dataDir, "pglite")
  const db = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: () => PGlite.create(pgliteDir, { extensions: { pg_trgm } }),
      catch: fail(`Cannot open PGlite in ${pgliteDir}`)
    }),
    (db) =>
      Effect.tryPromise(async () => {
        await server.stop() // no query may run while PGlite closes
        await db.close()
      }).pipe(Effect.catchCause((cause) => Effect.logWarning("Closing PGlite failed", cause)))
  )
  server.attach(db)
})

/**
 * Becomes the owner of the data directory's PGlite (opens `<dataDir>/pglite`,
 * serves it on the socket, writes the lock) unless a live owner already serves
 * it, in which case this returns the owner's socket with `owner: false`. When
 * the scope closes, the owner stops the server, closes PGlite (data flushed)
 * and removes the socket and the lock.
 */
export const acquireEmbedded: (dataDir: string) => Effect.Effect<EmbeddedEndpoint, EmbeddedStoreError, Scope.Scope> =
  Effect.fn("acquireEmbedded")(function* (dataDir: string) {
    const dir = Path.resolve(dataDir)
    yield* Effect.try({
      try: () => Fs.mkdirSync(dir, { recursive: true, mode: 0o700 }),
      catch: fail(`Cannot create the data directory ${dir}`)
    })
    for (let attempt = 1; ; attempt++) {
      const claim = yield* Effect.acquireRelease(
        claimLock(dir, {
          socketPath: () => chooseSocketPath(dir),
          onStale: (stale) => removeSocket(stale.socketPath, true)
        }),
        (claim) =>
          claim._tag === "Owner"
            ? Effect.try(() => removeSocket(claim.info.socketPath, true)).pipe(
                Effect.catchCause((cause) => Effect.logWarning("Removing the PGlite socket failed", cause)),
                Effect.andThen(releaseLock(claim.lockPath))
              )
            : Effect.void
      )
      if (claim._tag === "Owner") {
        yield* serve(dir, claim.info.socketPath)
        return { path: claim.info.socketPath, owner: true }
      }
      if (yield* awaitOwner(claim)) return { path: claim.info.socketPath, owner: false }
      if (attempt >= MAX_CLAIM_ATTEMPTS) {
        return yield* new EmbeddedStoreError({ message: `Could not take or reach the owner of ${dir}` })
      }
    }
  })

/**
 * `PgClient` and `SqlClient` for a data directory: the owner talks to its own
 * PGlite through one connection, other processes through a pool of at most 4.
 */
export const layerEmbedded = (
  dataDir: string
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, EmbeddedStoreError> =>
  Layer.unwrap(
    Effect.gen(function* () {
      const { owner, path } = yield* acquireEmbedded(dataDir)
      const config = embeddedClientConfig(path)
      const client = owner ? PgClient.makeClient(config) : PgClient.make({ ...config, maxConnections: 4 })
      return PgClient.layerFrom(Effect.mapError(client, fail(`Cannot connect to the embedded PostgreSQL at ${path}`)))
    })
  )
