/**
 * Free space under the embedded store. PostgreSQL answers a full disk in two ways: a table that cannot
 * grow is an ordinary error, but a WAL segment (16 MiB) that cannot be created is a PANIC, after which
 * PGlite's backend is gone and cannot start again until space comes back. So the owner stops starting
 * writes while less than {@link WRITE_RESERVE_BYTES} are free: the session is made read-only between two
 * connections' turns, writes fail at once with SQLSTATE 25006, and reads keep working.
 */
import * as Fs from "node:fs"

/** Below this much free space the embedded store refuses to start writes (four WAL segments). */
export const WRITE_RESERVE_BYTES = 64 * 1024 * 1024
/** Below this, PGlite is not even tried after its backend died: recovery creates a WAL segment and more. */
export const REOPEN_RESERVE_BYTES = 24 * 1024 * 1024

/** Bytes an unprivileged process may still write on the file system holding `path`. */
export const freeBytes = (path: string): number => {
  const stats = Fs.statfsSync(path)
  return stats.bavail * stats.bsize
}

/** Whether the store in `path` may start writes (or, with `reserve`, whatever needs that much). */
export const hasRoomToWrite = (path: string, reserve = WRITE_RESERVE_BYTES): boolean => freeBytes(path) >= reserve

const mebibytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

/** "the disk holding X has N MiB free" */
const diskState = (path: string): string => `the disk holding ${path} has ${mebibytes(freeBytes(path))} free`

/** Why a write was refused (SQLSTATE 25006 from the read-only switch), and what to do about it. */
export const writesRefusedMessage = (path: string): string =>
  `Writes to the embedded store are refused while ${diskState(path)} ` +
  `(it needs ${mebibytes(WRITE_RESERVE_BYTES)} to write): free some space; reads still work`

/** What connections are told while PGlite waits for room to reopen after its backend died. */
export const reopenWaitMessage = (path: string, reason: string): string =>
  `The embedded PostgreSQL stopped (${reason}) ` +
  `and reopens once the disk holding ${path} has ${mebibytes(REOPEN_RESERVE_BYTES)} free`

/** `message`, with the disk's state appended when the disk is short of room to write. */
export const withDiskState = (path: string, message: string): string => {
  try {
    return hasRoomToWrite(path) ? message : `${message} (${diskState(path)})`
  } catch {
    return message
  }
}
