/**
 * Who serves a data directory's embedded store, seen from this process, and how to find out again when
 * that changes.
 *
 * A claim takes the lock (LockFile.ts) when nobody alive holds it, and then this process serves PGlite
 * (ServePGlite.ts); otherwise it waits until the live owner's socket answers. An owner that exits drains
 * its connections and releases the lock; the processes it served then claim again (`reclaim`): one of them
 * takes the store over, the others reach the new owner. The lock's guard file serialises the claims.
 */
import { Clock, Effect, Exit, Scope, Semaphore } from "effect"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { EmbeddedStoreError, storeError } from "./EmbeddedStoreError.ts"
import { claimLock, releaseLock } from "./LockFile.ts"
import { servePGlite } from "./ServePGlite.ts"

export const SOCKET_NAME = ".s.PGSQL.5432"
/** `sun_path` holds 108 bytes on Linux and 104 on macOS, including the NUL. */
export const MAX_SOCKET_PATH_BYTES = 100
const TMP_SOCKET_DIR_PREFIX = "tenders-pg-"
/** How long a live owner may leave its socket unanswered (it listens right after taking the lock). */
const OWNER_SOCKET_WAIT_MS = 15_000

/** The socket to connect to, and whether this process serves it. */
export interface EmbeddedEndpoint {
  /** The Unix socket to give `PgClient` as `path`. */
  readonly path: string
  /** Whether this process opened PGlite and serves it. */
  readonly owner: boolean
}

/** A data directory's store as this process reaches it, across changes of owner. */
export interface EmbeddedStore {
  /** The data directory, absolute. */
  readonly dataDir: string
  /** The socket to connect to now. */
  readonly path: () => string
  /** How many times the store was claimed again: a caller passes the number it saw to `reclaim`. */
  readonly generation: () => number
  /** Owner lost: take the store over or find the new owner (once for concurrent callers that saw `seen`). */
  readonly reclaim: (seen: number) => Effect.Effect<void, EmbeddedStoreError>
}

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
    `neither ${preferred} nor ${fallback} is shorter than ${MAX_SOCKET_PATH_BYTES} bytes ` +
      "(the Unix socket path limit); use a shorter data directory or TMPDIR"
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

type Attempt = { readonly _tag: "Reached"; readonly endpoint: EmbeddedEndpoint } | { readonly _tag: "Unanswered" }

/** One claim. An owner's resources go into a child of `scope`, closed at once if serving fails. */
const claimOnce = (dir: string, scope: Scope.Scope, socketPath: () => string) =>
  Effect.gen(function* () {
    const attempt = yield* Scope.fork(scope)
    return yield* Effect.gen(function* () {
      const claim = yield* Effect.acquireRelease(
        claimLock(dir, { socketPath, onStale: (stale) => removeSocket(stale.socketPath, true) }),
        (claim) =>
          claim._tag === "Owner"
            ? Effect.try(() => removeSocket(claim.info.socketPath, true)).pipe(
                Effect.catchCause((cause) => Effect.logWarning("Removing the PGlite socket failed", cause)),
                Effect.andThen(releaseLock(claim.lockPath))
              )
            : Effect.void
      )
      if (claim._tag === "Owner") {
        yield* Effect.try({
          try: () => removeSocket(claim.info.socketPath, false),
          catch: storeError(`Cannot remove the stale socket ${claim.info.socketPath}`)
        })
        yield* servePGlite(dir, claim.info.socketPath)
        return { _tag: "Reached", endpoint: { path: claim.info.socketPath, owner: true } } satisfies Attempt
      }
      if (yield* probe(claim.info.socketPath)) {
        return { _tag: "Reached", endpoint: { path: claim.info.socketPath, owner: false } } satisfies Attempt
      }
      return { _tag: "Unanswered" } satisfies Attempt
    }).pipe(
      Scope.provide(attempt),
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) && exit.value._tag === "Reached" && exit.value.endpoint.owner
          ? Effect.void
          : Scope.close(attempt, exit)
      )
    )
  })

/** Claims until this process serves the store or reaches its live owner. */
const claim = Effect.fnUntraced(function* (dir: string, scope: Scope.Scope) {
  const deadline = (yield* Clock.currentTimeMillis) + OWNER_SOCKET_WAIT_MS
  const socketPath = () => chooseSocketPath(dir)
  while (true) {
    const attempt = yield* claimOnce(dir, scope, socketPath)
    if (attempt._tag === "Reached") return attempt.endpoint
    if ((yield* Clock.currentTimeMillis) > deadline) {
      return yield* new EmbeddedStoreError({
        message:
          `${Path.join(dir, "pglite.lock")} names a live tenders process serving this data directory, ` +
          `but its socket has not answered for ${OWNER_SOCKET_WAIT_MS / 1000} s; ` +
          "if no tenders process uses this data directory, delete the lock file"
      })
    }
    yield* Effect.sleep("20 millis")
  }
})

const ensureDir = (dataDir: string) =>
  Effect.try({
    try: () => {
      const dir = Path.resolve(dataDir)
      Fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
      return dir
    },
    catch: storeError(`Cannot create the data directory ${dataDir}`)
  })

/**
 * Becomes the owner of the data directory's PGlite (opens `<dataDir>/pglite`,
 * serves it on the socket, writes the lock) unless a live owner already serves
 * it, in which case this returns the owner's socket with `owner: false`. When
 * the scope closes, the owner drains the server, closes PGlite (data flushed)
 * and removes the socket and the lock.
 */
export const acquireEmbedded: (dataDir: string) => Effect.Effect<EmbeddedEndpoint, EmbeddedStoreError, Scope.Scope> =
  Effect.fn("acquireEmbedded")(function* (dataDir: string) {
    return yield* claim(yield* ensureDir(dataDir), yield* Effect.scope)
  })

/** Like {@link acquireEmbedded}, and able to claim again when the owner goes away. */
export const openEmbedded: (dataDir: string) => Effect.Effect<EmbeddedStore, EmbeddedStoreError, Scope.Scope> =
  Effect.fn("openEmbedded")(function* (dataDir: string) {
    const dir = yield* ensureDir(dataDir)
    const scope = yield* Effect.scope
    let endpoint = yield* claim(dir, scope)
    let generation = 0
    const claiming = yield* Semaphore.make(1)
    return {
      dataDir: dir,
      path: () => endpoint.path,
      generation: () => generation,
      // An owner has nothing to claim: its own server answers (or tells clients to wait while PGlite reopens).
      reclaim: (seen) =>
        Semaphore.withPermit(claiming)(
          Effect.suspend(() =>
            seen !== generation || endpoint.owner
              ? Effect.void
              : Effect.map(claim(dir, scope), (next) => {
                  endpoint = next
                  generation++
                })
          )
        )
    }
  })
