import { crc32, inflateRawSync } from "node:zlib"
import { Result } from "effect"

/** One file of a ZIP archive, decompressed. */
export interface ZipEntry {
  readonly name: string
  readonly data: Uint8Array
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const utf8 = new TextDecoder("utf-8")

class ZipError extends Error {}

const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)

/** Reads little-endian fields, failing (instead of reading garbage) when the archive is shorter than claimed. */
const reader = (bytes: Uint8Array) => {
  const dv = view(bytes)
  const need = (offset: number, length: number, what: string) => {
    if (offset < 0 || offset + length > bytes.byteLength) throw new ZipError(`truncated ZIP (${what})`)
  }
  return {
    u16: (offset: number, what: string): number => {
      need(offset, 2, what)
      return dv.getUint16(offset, true)
    },
    u32: (offset: number, what: string): number => {
      need(offset, 4, what)
      return dv.getUint32(offset, true)
    },
    slice: (offset: number, length: number, what: string): Uint8Array => {
      need(offset, length, what)
      return bytes.subarray(offset, offset + length)
    }
  }
}

const findEndOfCentralDirectory = (bytes: Uint8Array): number => {
  const dv = view(bytes)
  const lowest = Math.max(0, bytes.byteLength - 22 - 0xffff)
  for (let at = bytes.byteLength - 22; at >= lowest; at--) {
    if (dv.getUint32(at, true) === EOCD) return at
  }
  throw new ZipError("not a ZIP archive or truncated (no end of central directory)")
}

const inflate = (method: number, raw: Uint8Array, name: string): Uint8Array => {
  if (method === 0) return raw
  if (method !== 8) throw new ZipError(`unsupported compression method ${method} for ${name}`)
  try {
    return new Uint8Array(inflateRawSync(raw))
  } catch (error) {
    throw new ZipError(`corrupt deflate data in ${name}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const readEntries = (bytes: Uint8Array): ReadonlyArray<ZipEntry> => {
  const r = reader(bytes)
  const end = findEndOfCentralDirectory(bytes)
  const count = r.u16(end + 10, "entry count")
  let at = r.u32(end + 16, "central directory offset")
  if (count === 0xffff || at === 0xffffffff) throw new ZipError("ZIP64 archives are not supported")
  const entries: Array<ZipEntry> = []
  for (let i = 0; i < count; i++) {
    if (r.u32(at, "central directory") !== CENTRAL) throw new ZipError(`corrupt central directory at entry ${i}`)
    const flags = r.u16(at + 8, "flags")
    const method = r.u16(at + 10, "method")
    const crc = r.u32(at + 16, "crc")
    const compressedSize = r.u32(at + 20, "compressed size")
    const size = r.u32(at + 24, "size")
    const nameLength = r.u16(at + 28, "name length")
    const extraLength = r.u16(at + 30, "extra length")
    const commentLength = r.u16(at + 32, "comment length")
    const localOffset = r.u32(at + 42, "local header offset")
    const name = utf8.decode(r.slice(at + 46, nameLength, "file name"))
    at += 46 + nameLength + extraLength + commentLength
    if (name.endsWith("/")) continue
    if ((flags & 1) !== 0) throw new ZipError(`encrypted entry ${name}`)
    if (compressedSize === 0xffffffff || size === 0xffffffff) throw new ZipError("ZIP64 entries are not supported")
    if (r.u32(localOffset, "local header") !== LOCAL) throw new ZipError(`corrupt local header of ${name}`)
    const dataStart =
      localOffset + 30 + r.u16(localOffset + 26, "local name length") + r.u16(localOffset + 28, "local extra length")
    const data = inflate(method, r.slice(dataStart, compressedSize, `data of ${name}`), name)
    if (data.byteLength !== size) throw new ZipError(`size mismatch in ${name}`)
    if (crc32(data) !== crc) throw new ZipError(`CRC mismatch in ${name}`)
    entries.push({ name, data })
  }
  return entries
}

/** Reads every file of a ZIP archive (stored or deflated, CRC-checked); a damaged archive is an error, not a throw. */
export const readZip = (bytes: Uint8Array): Result.Result<ReadonlyArray<ZipEntry>, string> => {
  try {
    return Result.succeed(readEntries(bytes))
  } catch (error) {
    if (error instanceof ZipError) return Result.fail(error.message)
    return Result.fail(`unreadable ZIP: ${String(error)}`)
  }
}
