/**
 * The lock file that says which process owns the PGlite files of a data
 * directory: `<dataDir>/pglite.lock`, JSON `{ pid, socketPath, hostname, createdAt }`.
 *
 * Every read, judgement and write of the lock file happens while holding a
 * short-lived guard file (`pglite.lock.guard`, created with O_EXCL and removed
 * microseconds later), so two processes can never both decide that a stale lock
 * is theirs to replace. A guard left by a crashed process (dead pid, or older
 * than {@link GUARD_STALE_MS}) is removed.
 *
 * A lock is stale when its pid is not alive. Our own pid counts as alive only
 * if this very process holds the lock (a per-process registry), because after
 * a container restart the new server often gets the pid of the old one.
 */
import * as Crypto from "node:crypto"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { Effect, Option, Schema } from "effect"
import { EmbeddedStoreError, storeError } from "./EmbeddedStoreError.ts"

export const LOCK_FILE = "pglite.lock"
const GUARD_STALE_MS = 10_000
const GUARD_WAIT_MS = 15_000

export const LockInfo = Schema.Struct({
  pid: Schema.Int,
  socketPath: Schema.String,
  hostname: Schema.String,
  createdAt: Schema.String
})
export type LockInfo = typeof LockInfo.Type

const decodeLock = Schema.decodeUnknownOption(Schema.fromJsonString(LockInfo))
const encodeLock = (info: LockInfo): string => JSON.stringify(info)

/** Lock files held by this process, shared by every copy of this module. */
const ownedLocks: Set<string> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for("@tenders/store-postgres/embedded/ownedLocks")
] ??= new Set<string>()) as Set<string>

export type Claim =
  | { readonly _tag: "Owner"; readonly lockPath: string; readonly info: LockInfo }
  | { readonly _tag: "Held"; readonly lockPath: string; readonly info: LockInfo }

export const isAlive = (pid: number, lockPath: string): boolean => {
  if (pid === process.pid) return ownedLocks.has(lockPath)
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

export interface ClaimOptions {
  /** The socket the new owner will serve; evaluated only when this process becomes the owner. */
  readonly socketPath: () => string
  /** Cleans up after the dead owner of a stale lock (called before the lock is replaced). */
  readonly onStale: (stale: LockInfo) => void
}

/**
 * Takes the lock for `dataDir` if nobody alive holds it (recording the
 * owner's socket path in it), otherwise reports the live holder.
 */
export const claimLock = Effect.fnUntraced(function* (dataDir: string, options: ClaimOptions) {
  const lockPath = Path.join(dataDir, LOCK_FILE)
  const guardPath = `${lockPath}.guard`
  const deadline = Date.now() + GUARD_WAIT_MS
  while (true) {
    // Synchronous from taking the guard to removing it: no fiber of this
    // process can see the guard, only other processes.
    const claim = yield* Effect.try({
      try: () => {
        if (!tryGuard(guardPath)) return undefined
        try {
          return judge(lockPath, options)
        } finally {
          Fs.rmSync(guardPath, { force: true })
        }
      },
      catch: storeError(`Cannot take the lock ${lockPath}`)
    })
    if (claim !== undefined) return claim
    if (Date.now() > deadline) {
      return yield* new EmbeddedStoreError({
        message: `Timed out waiting for ${guardPath}; if no tenders process is starting, delete it`
      })
    }
    yield* Effect.sleep("5 millis")
  }
})

const judge = (lockPath: string, options: ClaimOptions): Claim => {
  const existing = readLock(lockPath)
  if (Option.isSome(existing)) {
    const info = existing.value
    if (info.hostname !== Os.hostname()) {
      throw new Error(`it belongs to host ${info.hostname}; a data directory must not be shared between hosts`)
    }
    if (isAlive(info.pid, lockPath)) return { _tag: "Held", lockPath, info }
    options.onStale(info)
  }
  // Absent, stale (its owner is gone) or unreadable (never ours: we write it atomically).
  Fs.rmSync(lockPath, { force: true })
  const info: LockInfo = {
    pid: process.pid,
    socketPath: options.socketPath(),
    hostname: Os.hostname(),
    createdAt: new Date().toISOString()
  }
  const temp = `${lockPath}.${process.pid}.${Crypto.randomBytes(4).toString("hex")}`
  Fs.writeFileSync(temp, encodeLock(info), { mode: 0o600 })
  Fs.renameSync(temp, lockPath)
  ownedLocks.add(lockPath)
  return { _tag: "Owner", lockPath, info }
}

/** Removes our lock (only if it is still ours). */
export const releaseLock = (lockPath: string): Effect.Effect<void> =>
  Effect.sync(() => {
    ownedLocks.delete(lockPath)
    const current = readLock(lockPath)
    if (Option.isSome(current) && current.value.pid === process.pid) Fs.rmSync(lockPath, { force: true })
  })

const readLock = (lockPath: string): Option.Option<LockInfo> => {
  let text: string
  try {
    text = Fs.readFileSync(lockPath, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return Option.none()
    throw error
  }
  return decodeLock(text)
}

const tryGuard = (guardPath: string): boolean => {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      Fs.writeFileSync(guardPath, String(process.pid), { flag: "wx", mode: 0o600 })
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
    // Someone holds it, normally for microseconds. Remove it if its holder crashed.
    try {
      const pid = Number(Fs.readFileSync(guardPath, "utf8"))
      const age = Date.now() - Fs.statSync(guardPath).mtimeMs
      // Our own pid is never a live holder: this process holds the guard only synchronously.
      const dead = Number.isInteger(pid) && pid > 0 && !isAlive(pid, guardPath)
      if (!dead && age <= GUARD_STALE_MS) return false
      Fs.rmSync(guardPath, { force: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
    }
  }
  return false
}
