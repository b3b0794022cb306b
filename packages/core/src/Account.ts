import { Schema } from "effect"
import { AccountId, KeyId } from "./Ids.ts"
import { Plan } from "./Plan.ts"
import { UtcTimestamp } from "./Time.ts"

/** REST keys and MCP tokens are separate credentials (spec, Authentication). */
export const KeyKind = Schema.Literals(["rest", "mcp"])
export type KeyKind = typeof KeyKind.Type

/** The visible prefix of each kind of secret. */
export const keyPrefix: Record<KeyKind, string> = { rest: "sk_live_", mcp: "mcp_live_" }

/** `sk_live_` / `mcp_live_` followed by 32 base62 characters. */
export const keyPattern: Record<KeyKind, RegExp> = {
  rest: /^sk_live_[0-9A-Za-z]{32}$/u,
  mcp: /^mcp_live_[0-9A-Za-z]{32}$/u
}

/** An account, as authentication resolves it. */
export const Account = Schema.Struct({
  id: AccountId,
  email: Schema.String,
  plan: Plan,
  monthlyLimit: Schema.NullOr(Schema.Int)
})
export type Account = typeof Account.Type

/** One key as listed by `tenders keys list` (never the secret). */
export const KeyInfo = Schema.Struct({
  keyId: KeyId,
  accountId: AccountId,
  email: Schema.String,
  plan: Plan,
  kind: KeyKind,
  prefix: Schema.String,
  createdAt: UtcTimestamp,
  revokedAt: Schema.NullOr(UtcTimestamp),
  /** When the key last authenticated a call (kept to the minute), null when never. */
  lastUsedAt: Schema.NullOr(UtcTimestamp)
})
export type KeyInfo = typeof KeyInfo.Type

/** The answer of the quota counter for one call. */
export interface QuotaDecision {
  readonly allowed: boolean
  readonly used: number
  readonly limit: number
}
