/**
 * The owner's PGlite: opened with the options every embedded store uses, served on the socket by
 * ExclusiveSocketServer.ts, and reopened when its backend ends (after a PANIC on a full disk, once the disk
 * has room again: PGlite cannot even recover without, and each try costs a second of CPU), or to give back the
 * memory it grew to ({@link EmbeddedMemoryRelease}). Committed transactions survive: they are in the WAL, which the
 * reopened PGlite replays.
 */
import type { PGlite } from "@electric-sql/pglite"
import { Context, Duration, Effect, FiberSet, Schedule } from "effect"
import * as Path from "node:path"
import {
  hasRoomToWrite,
  REOPEN_RESERVE_BYTES,
  reopenWaitMessage,
  withDiskState,
  WRITE_RESERVE_BYTES
} from "./DiskSpace.ts"
import { describeCause, EmbeddedStoreError, storeError } from "./EmbeddedStoreError.ts"
import { ExclusiveSocketServer } from "./ExclusiveSocketServer.ts"
import { DISK_FULL } from "./WireProtocol.ts"

const MiB = 1024 * 1024

/**
 * When the owner gives back PGlite's memory. Its WebAssembly memory never shrinks: what an `ANALYZE` of the tenders
 * (it samples every row of a store of 100,000: 128 → 266 MB), a re-analysis or a large sort once took stays in the
 * process's RSS. Every `every` the owner looks how far it grew since PGlite was opened and, past `slack` bytes,
 * detaches it at a moment no connection holds the session (waiting at most `wait`, else it looks again later), closes
 * it and opens it again: 0.2–0.6 s at 100,000 tenders, during which clients wait, reconnect and send again what was
 * not answered (FailoverClient.ts). Measured in docs/benchmarks.md, "Issue 23, 2026-11-29 (twelfth session)".
 */
export const EmbeddedMemoryRelease = Context.Reference<{
  readonly every: Duration.Duration
  readonly slack: number
  readonly wait: Duration.Duration
}>("@tenders/store-postgres/EmbeddedMemoryRelease", {
  defaultValue: () => ({ every: Duration.minutes(1), slack: 64 * MiB, wait: Duration.seconds(5) })
})

/** PGlite's WebAssembly memory, in bytes. */
const wasmBytes = (db: PGlite): number => db.Module.wasmMemory.buffer.byteLength

/** The directory under the data directory that holds PGlite's files. */
export const PGLITE_DIR = "pglite"

/**
 * Settings that bound PGlite's WebAssembly memory, which never shrinks: whatever Postgres once allocated stays in the
 * process's RSS. PGlite's data directory says `shared_buffers = 128MB` (initdb's default), all of it touched once the
 * searches have read that much; the pages it no longer caches are read from the operating system's page cache. Its
 * `max_connections = 100` sizes shared memory for backends a single-user PGlite never has. VACUUM (after an ingest)
 * may use `maintenance_work_mem` (64 MB by default) at once. Measured in docs/benchmarks.md, "Issue 23, 2026-11-28".
 */
const memorySettings = ["shared_buffers=32MB", "max_connections=8", "maintenance_work_mem=16MB"]

/**
 * PGlite with `pg_trgm`, the memory settings, and no startup-progress timer: Postgres arms it while it starts, and
 * when the start fails nobody disarms it, so the process would never exit. Its modules are loaded by the first store
 * opened, so that a process on PostgreSQL never loads them (their code and source, about 1 MB of a server's heap).
 */
const createPGlite = async (pgliteDir: string, loadDataDir: Blob | undefined) => {
  const [{ PGlite }, { pg_trgm }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/pg_trgm")
  ])
  const startParams = [
    ...PGlite.defaultStartParams,
    ...[...memorySettings, "log_startup_progress_interval=0"].flatMap((setting) => ["-c", setting])
  ]
  return PGlite.create(pgliteDir, { extensions: { pg_trgm }, startParams, ...(loadDataDir && { loadDataDir }) })
}

/** Opens (or creates, or with `loadDataDir` unpacks a backup into) the PGlite store in `pgliteDir`. */
export const openPGlite = (pgliteDir: string, loadDataDir?: Blob): Effect.Effect<PGlite, EmbeddedStoreError> =>
  Effect.tryPromise({
    try: () => createPGlite(pgliteDir, loadDataDir),
    catch: (cause) =>
      new EmbeddedStoreError({
        message: withDiskState(Path.dirname(pgliteDir), `Cannot open PGlite in ${pgliteDir}: ${describeCause(cause)}`)
      })
  })

/** Closes PGlite (data flushed); also safe on one whose backend ended. */
export const closePGlite = (db: PGlite): Effect.Effect<void> =>
  Effect.tryPromise(() => db.close()).pipe(
    Effect.catchCause((cause) => Effect.logWarning("Closing PGlite failed", cause))
  )

/** The reply to a backup request: the data directory as a gzipped tarball (see Backup.ts). */
const dumpDataDir = async (db: PGlite): Promise<Uint8Array> =>
  new Uint8Array(await (await db.dumpDataDir("gzip")).arrayBuffer())

const roomFor =
  (dataDir: string, reserve = WRITE_RESERVE_BYTES) =>
  (): boolean => {
    try {
      return hasRoomToWrite(dataDir, reserve)
    } catch {
      return true // cannot tell: let PostgreSQL find out
    }
  }

/**
 * Opens PGlite again once the disk has room for its recovery (meanwhile clients are told the disk is full),
 * trying again (1 s, doubling to 30 s) on failure.
 */
const reopenPGlite = (server: ExclusiveSocketServer, dataDir: string, pgliteDir: string, reason: string) =>
  Effect.gen(function* () {
    if (!roomFor(dataDir, REOPEN_RESERVE_BYTES)()) {
      server.unavailable(DISK_FULL, reopenWaitMessage(dataDir, reason))
      yield* Effect.logWarning(withDiskState(dataDir, "Waiting for disk space to reopen the embedded PostgreSQL"))
      yield* Effect.sync(roomFor(dataDir, REOPEN_RESERVE_BYTES)).pipe(
        Effect.repeat({ until: (room) => room, schedule: Schedule.spaced("1 second") })
      )
    }
    return yield* openPGlite(pgliteDir)
  }).pipe(
    Effect.tapError((error) => Effect.logWarning(error.message)),
    Effect.retry(Schedule.min([Schedule.exponential("1 second"), Schedule.spaced("30 seconds")])),
    Effect.orDie // the schedule never ends
  )

/**
 * Opens `<dataDir>/pglite` and serves it on `socketPath` until the scope closes; then the server drains,
 * and PGlite closes (data flushed).
 */
export const servePGlite = Effect.fnUntraced(function* (dataDir: string, socketPath: string) {
  const pgliteDir = Path.join(dataDir, PGLITE_DIR)
  const release = yield* EmbeddedMemoryRelease
  const reopening = yield* FiberSet.make<void, never>()
  const runFork = yield* FiberSet.runtime(reopening)<never>()
  let db: PGlite | undefined
  let openedBytes = 0
  const attach = (server: ExclusiveSocketServer, opened: PGlite) => {
    db = opened
    openedBytes = wasmBytes(opened)
    server.attach(opened)
  }
  const reopen = (server: ExclusiveSocketServer, reason: string) =>
    Effect.gen(function* () {
      const closing = db
      db = undefined // nobody reads a closed PGlite's memory
      if (closing !== undefined) yield* closePGlite(closing)
      attach(server, yield* reopenPGlite(server, dataDir, pgliteDir, reason))
    })
  const reopenLost = (server: ExclusiveSocketServer, reason: string) =>
    Effect.gen(function* () {
      yield* Effect.logWarning(`The embedded PostgreSQL in ${pgliteDir} stopped (${reason}); reopening it`)
      yield* reopen(server, reason)
      yield* Effect.logInfo(`The embedded PostgreSQL in ${pgliteDir} is back`)
    })
  /** Reopens PGlite when its memory grew past `release.slack` since it was opened, at a moment it is idle. */
  const giveBackMemory = (server: ExclusiveSocketServer) =>
    Effect.gen(function* () {
      const grown = db === undefined ? 0 : wasmBytes(db)
      if (grown - openedBytes < release.slack) return
      const sizes = `${Math.round(openedBytes / MiB)} MB when opened, ${Math.round(grown / MiB)} MB now`
      const message = `the embedded PostgreSQL is reopening to give back the memory it grew to (${sizes})`
      const wait = Duration.toMillis(release.wait)
      if (!(yield* Effect.promise(() => server.detachWhenIdle(message, wait)))) return
      const [took] = yield* Effect.timed(reopen(server, "giving back memory"))
      yield* Effect.logInfo(
        `The embedded PostgreSQL in ${pgliteDir} gave back its memory (${sizes}): reopened in ` +
          `${Math.round(Duration.toMillis(took))} ms`
      )
    }).pipe(
      Effect.catchCause((cause) => Effect.logWarning("Giving back the embedded PostgreSQL's memory failed", cause))
    )
  const server: ExclusiveSocketServer = yield* Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const server: ExclusiveSocketServer = new ExclusiveSocketServer({
          path: socketPath,
          maxConnections: 100,
          writable: roomFor(dataDir),
          backup: dumpDataDir,
          onBackendLost: (reason) => runFork(reopenLost(server, reason))
        })
        await server.listen()
        return server
      },
      catch: storeError(`Cannot listen on ${socketPath}`)
    }),
    (server) => Effect.promise(() => server.stop())
  )
  // Runs before the release above: no reopening, no query while PGlite closes.
  yield* Effect.addFinalizer(() =>
    FiberSet.clear(reopening).pipe(
      Effect.andThen(Effect.promise(() => server.stop())),
      Effect.andThen(Effect.suspend(() => (db === undefined ? Effect.void : closePGlite(db))))
    )
  )
  attach(server, yield* openPGlite(pgliteDir))
  runFork(Effect.repeat(giveBackMemory(server), Schedule.spaced(release.every)).pipe(Effect.asVoid))
})
