// Files read a chunk at a time through one small buffer: their lines as strings, their bytes into a hash. A whole
// file read at once is one allocation of its size, which the C library keeps for itself once it is given back: the
// lexicon's files read whole (the label index is 19 MB) left about 40 MB more of the server's memory in use once the
// lexicon was built (docs/decisions.md, "Issue 23: the server's memory").

import type { Hash } from "node:crypto"
import { closeSync, openSync, readSync } from "node:fs"

/** The bytes read at a time. */
const chunkSize = 1 << 16

/** A file's bytes, a chunk at a time (each chunk valid until the next is asked for). */
function* chunksOf(path: string): Generator<Buffer> {
  const fd = openSync(path, "r")
  const buffer = Buffer.allocUnsafeSlow(chunkSize)
  try {
    for (let n = readSync(fd, buffer, 0, chunkSize, null); n > 0; n = readSync(fd, buffer, 0, chunkSize, null))
      yield buffer.subarray(0, n)
  } finally {
    closeSync(fd)
  }
}

/** Adds a file's bytes to a hash. */
export const hashFile = (hash: Hash, path: string): Hash => {
  for (const chunk of chunksOf(path)) hash.update(chunk)
  return hash
}

/**
 * A file's lines, decoded from UTF-8 (a newline's byte is never inside another character's), as `text.split("\n")`
 * gives them but for a last empty one: no string of the whole file is made.
 */
export function* fileLines(path: string): Generator<string> {
  let carried: Array<Buffer> = []
  for (const chunk of chunksOf(path)) {
    let from = 0
    for (let end = chunk.indexOf(10, from); end >= 0; end = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, end)
      yield carried.length === 0 ? piece.toString("utf8") : Buffer.concat([...carried, piece]).toString("utf8")
      carried = []
      from = end + 1
    }
    if (from < chunk.length) carried.push(Buffer.from(chunk.subarray(from)))
  }
  if (carried.length > 0) yield Buffer.concat(carried).toString("utf8")
}
