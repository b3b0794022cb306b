import { SecureRandom } from "effect/crypto"
import { Base64, Base64Url } from "effect/encoding"
import { type KeyKind, keyPrefix } from "./Account.ts"

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** `length` uniformly random base62 characters (rejection sampling over CSPRNG bytes). */
const randomBase62 = (length: number): string => {
  let out = ""
  while (out.length < length) {
    for (const byte of SecureRandom.randomBytesUnsafe(length * 2)) {
      if (byte < 248 && out.length < length) out += base62[byte % 62]
    }
  }
  return out
}

/** A new key of the given kind: `sk_live_` / `mcp_live_` + 32 base62 characters (shown once, stored hashed). */
export const newSecret = (kind: KeyKind): string => keyPrefix[kind] + randomBase62(32)

/** The short display prefix kept next to a key's hash. */
export const displayPrefix = (secret: string, kind: KeyKind): string => secret.slice(0, keyPrefix[kind].length + 4)

/** A new Standard Webhooks signing secret: `whsec_` + base64 of 32 random bytes. */
export const newWebhookSecret = (): string => `whsec_${Base64.encode(SecureRandom.randomBytesUnsafe(32))}`

/** A new Standard Webhooks message id, kept by every retry of one delivery. */
export const newWebhookId = (): string => `msg_${SecureRandom.uuidV4Unsafe()}`

/** 32 random bytes, base64url (43 characters): a sign-in link's, a session's or an OAuth code's or token's secret. */
export const newOpaqueToken = (): string => Base64Url.encode(SecureRandom.randomBytesUnsafe(32))

/** OAuth access and refresh tokens: a prefix (secret scanners find them) and an opaque token (`newOpaqueToken`). */
export const oauthTokenPrefix = { access: "mcp_at_", refresh: "mcp_rt_" } as const

/** The text of an OAuth access token: its prefix and an opaque token. */
export const accessTokenPattern = new RegExp(`^${oauthTokenPrefix.access}[A-Za-z0-9_-]{43}$`, "u")
