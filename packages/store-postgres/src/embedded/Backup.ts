/**
 * Backup and restore of the embedded store: a gzipped tarball of `<dataDir>/pglite` (PGlite's
 * `dumpDataDir`), the supported alternative to `pg_dump` (Debian's refuses PostgreSQL 18 anyway).
 *
 * - The owner takes the backup, whoever it is (a running `tenders serve`, or this process when none
 *   runs): it is asked through its socket with a startup packet of our own code (BACKUP_REQUEST_CODE;
 *   reply "B" + tarball, or "E" + message). It answers between two connections' turns, when no
 *   transaction is open and nothing writes, so the files hold every committed transaction (in the data
 *   pages or the WAL): a consistent crash image, which PGlite recovers when the backup is restored.
 * - A restore takes the lock for its duration, so it refuses a data directory a live process owns, and
 *   refuses one that holds a store unless forced. The tarball is unpacked and opened (proving it is a
 *   store) in `<dataDir>/pglite.restoring`, then moved in place; a store it replaces is kept beside it as
 *   `pglite.replaced-<time>`.
 */
import { DateTime, Effect, Schedule } from "effect"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Path from "node:path"
import { acquireEmbedded, SOCKET_NAME } from "./Endpoint.ts"
import { EmbeddedStoreError, storeError } from "./EmbeddedStoreError.ts"
import { claimLock, releaseLock } from "./LockFile.ts"
import { closePGlite, openPGlite, PGLITE_DIR } from "./ServePGlite.ts"
import { BACKUP_REQUEST_CODE, ReadyScanner, refusedBeforeRunning } from "./WireProtocol.ts"

/**
 * The owner ended the request with FATAL 57P01 or 57P03 (ExclusiveSocketServer.ts): it is stopping, or reopening
 * PGlite (to give back its memory, or after its backend ended); it made no backup, and asking again reaches it, or the
 * next owner, soon.
 */
class OwnerBusy extends Error {}

/** The SQLSTATE of a reply that is one FATAL ErrorResponse (how the owner refuses a connection), if it is one. */
const refusalCode = (reply: Buffer): string | undefined => {
  if (reply.length < 6 || reply[0] !== 0x45 || reply.readInt32BE(1) !== reply.length - 1) return undefined
  const scanner = new ReadyScanner()
  scanner.push(reply)
  return scanner.fatalCode
}

/** How often, and how many times, a backup asks again while the owner is busy: 15 s (a stop drains in at most 10). */
const busyRetries = { schedule: Schedule.spaced("200 millis"), times: 75 }

/** Asks the owner serving `socketPath` for a backup. */
const requestBackup = (socketPath: string) =>
  Effect.callback<Buffer, EmbeddedStoreError | OwnerBusy>((resume) => {
    const chunks: Array<Buffer> = []
    const socket = Net.connect({ path: socketPath }, () => {
      const packet = Buffer.alloc(8)
      packet.writeInt32BE(8, 0)
      packet.writeInt32BE(BACKUP_REQUEST_CODE, 4)
      socket.write(packet)
    })
    socket.on("data", (chunk) => chunks.push(chunk))
    socket.once("error", (error) => resume(Effect.fail(storeError(`Cannot get a backup from ${socketPath}`)(error))))
    socket.once("end", () => {
      const reply = Buffer.concat(chunks)
      const refusal = refusalCode(reply)
      if (refusedBeforeRunning(refusal)) {
        return resume(
          Effect.fail(new OwnerBusy(`the owner of the embedded store is stopping or restarting (${refusal})`))
        )
      }
      const kind = reply.subarray(0, 1).toString("latin1")
      resume(
        kind === "B"
          ? Effect.succeed(reply.subarray(1))
          : Effect.fail(
              new EmbeddedStoreError({
                message:
                  "The owner of the embedded store did not make a backup: " +
                  (kind === "E" ? reply.subarray(1).toString("utf8") : "it closed the connection")
              })
            )
      )
    })
    return Effect.sync(() => socket.destroy())
  })

/** Backs up the store in `dataDir` to `file` (atomically: a partial file never has its name); returns its size. */
export const backupEmbedded = Effect.fn("backupEmbedded")(function* (dataDir: string, file: string) {
  // Each try reaches whoever owns the store then (this process, if nobody does; it serves until the scope closes).
  const tarball = yield* Effect.flatMap(acquireEmbedded(dataDir), (endpoint) => requestBackup(endpoint.path)).pipe(
    Effect.retry({ while: (error) => error instanceof OwnerBusy, ...busyRetries }),
    Effect.mapError((error) =>
      error instanceof OwnerBusy ? new EmbeddedStoreError({ message: `No backup made: ${error.message}` }) : error
    )
  )
  const target = Path.resolve(file)
  yield* Effect.try({
    try: () => {
      const partial = `${target}.partial`
      Fs.writeFileSync(partial, tarball, { mode: 0o600 })
      Fs.renameSync(partial, target)
    },
    catch: storeError(`Cannot write ${target}`)
  })
  return { file: target, bytes: tarball.length }
}, Effect.scoped)

const isEmptyOrAbsent = (dir: string): boolean => !Fs.existsSync(dir) || Fs.readdirSync(dir).length === 0

/** Restores the backup in `file` into `dataDir` (see the module doc); `force` replaces a store that is there. */
export const restoreEmbedded = Effect.fn("restoreEmbedded")(function* (
  dataDir: string,
  file: string,
  options: { readonly force: boolean }
) {
  const dir = Path.resolve(dataDir)
  const tarball = yield* Effect.try({ try: () => Fs.readFileSync(file), catch: storeError(`Cannot read ${file}`) })
  yield* Effect.try({
    try: () => Fs.mkdirSync(dir, { recursive: true, mode: 0o700 }),
    catch: storeError(`Cannot create the data directory ${dir}`)
  })
  const claim = yield* Effect.acquireRelease(
    claimLock(dir, { socketPath: () => Path.join(dir, SOCKET_NAME), onStale: () => {} }),
    (claim) => (claim._tag === "Owner" ? releaseLock(claim.lockPath) : Effect.void)
  )
  if (claim._tag === "Held") {
    return yield* new EmbeddedStoreError({
      message: `${dir} is in use by process ${claim.info.pid} (${claim.lockPath}): stop it before restoring`
    })
  }
  const target = Path.join(dir, PGLITE_DIR)
  if (!isEmptyOrAbsent(target) && !options.force) {
    return yield* new EmbeddedStoreError({
      message:
        `${target} holds a store already: restore into a fresh data directory, ` +
        `or pass --force to replace it (it is kept as ${PGLITE_DIR}.replaced-<time>)`
    })
  }
  const staging = Path.join(dir, `${PGLITE_DIR}.restoring`)
  yield* Effect.try({
    try: () => Fs.rmSync(staging, { recursive: true, force: true }),
    catch: storeError(`Cannot remove ${staging}`)
  })
  const removeStaging = Effect.sync(() => Fs.rmSync(staging, { recursive: true, force: true }))
  yield* openPGlite(staging, new Blob([tarball])).pipe(
    Effect.flatMap(closePGlite),
    Effect.onError(() => removeStaging)
  )
  const replaced = `${target}.replaced-${DateTime.formatIso(yield* DateTime.now).replaceAll(":", "-")}`
  yield* Effect.try({
    try: () => {
      if (isEmptyOrAbsent(target)) Fs.rmSync(target, { recursive: true, force: true })
      else Fs.renameSync(target, replaced)
      Fs.renameSync(staging, target)
    },
    catch: storeError(`Cannot move the restored store into ${target}`)
  })
  return { dataDir: dir, replaced: Fs.existsSync(replaced) ? replaced : undefined }
}, Effect.scoped)
