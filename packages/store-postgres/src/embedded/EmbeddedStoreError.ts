import { Predicate, Schema } from "effect"

/** The embedded PGlite store could not be started, reached or stopped. */
export class EmbeddedStoreError extends Schema.TaggedError<EmbeddedStoreError>()("EmbeddedStoreError", {
  message: Schema.String
}) {}

/** Emscripten's errno numbers (not Linux's) for the file system failures an operator can act on. */
const wasmErrnos: Readonly<Record<number, string>> = {
  2: "EACCES: permission denied",
  19: "EDQUOT: disk quota exceeded",
  29: "EIO: input/output error",
  44: "ENOENT: no such file or directory",
  51: "ENOSPC: no space left on device",
  63: "EPERM: operation not permitted",
  69: "EROFS: read-only file system"
}

/**
 * What went wrong, in words, whatever was thrown: an `Error`, PGlite's file system `ErrnoError` (a plain
 * object `{ name: "ErrnoError", errno }`), an Emscripten `ExitStatus`, a string.
 */
export const describeCause = (cause: unknown): string => {
  if (cause instanceof Error) return cause.message
  if (Predicate.hasProperty(cause, "errno") && typeof cause.errno === "number") {
    return wasmErrnos[cause.errno] ?? `file system error ${cause.errno} (Emscripten errno)`
  }
  if (Predicate.hasProperty(cause, "message") && typeof cause.message === "string") return cause.message
  if (typeof cause === "string") return cause
  try {
    return JSON.stringify(cause) ?? String(cause)
  } catch {
    return String(cause)
  }
}

/** Fails with `${message}: ${what went wrong}`: the one place a cause of an embedded-store failure is put in words. */
export const storeError =
  (message: string) =>
  (cause: unknown): EmbeddedStoreError =>
    new EmbeddedStoreError({ message: `${message}: ${describeCause(cause)}` })
