import { createHash } from "node:crypto"

/** The stored form of a key or token (core `newSecret` makes them): its SHA-256, hex. */
export const hashSecret = (secret: string): string => createHash("sha256").update(secret).digest("hex")
