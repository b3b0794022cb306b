import { type KeyKind, keyPrefix } from "@tenders/core"
import { createHash, randomBytes } from "node:crypto"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** 32 uniformly random base62 characters (rejection sampling over CSPRNG bytes). */
const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += base62[byte % 62]
    }
  }
  return out
}

/** A new secret of the given kind: `sk_live_` / `mcp_live_` + 32 base62 characters. */
export const newSecret = (kind: KeyKind): string => keyPrefix[kind] + randomBase62(32)

/** The stored form of a secret: its SHA-256, hex. */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex")

/** The short display prefix kept next to the hash. */
export const displayPrefix = (secret: string, kind: KeyKind): string => secret.slice(0, keyPrefix[kind].length + 4)
