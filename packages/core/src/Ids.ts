import { Schema } from "effect"

const uuid = Schema.String.check(Schema.isUUID())

/** An account's id (UUID). */
export const AccountId = uuid.pipe(Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type

/** A watchlist's id (UUID). */
export const WatchlistId = uuid.pipe(Schema.brand("WatchlistId"))
export type WatchlistId = typeof WatchlistId.Type

/** An API key's or MCP token's id (UUID); never the secret. */
export const KeyId = uuid.pipe(Schema.brand("KeyId"))
export type KeyId = typeof KeyId.Type

/** An alert's id (a positive integer, as text). */
export const AlertId = Schema.String.check(Schema.isPattern(/^[1-9]\d{0,18}$/u)).pipe(Schema.brand("AlertId"))
export type AlertId = typeof AlertId.Type

/** An OAuth grant's id (UUID): one client's access to one account, with its codes and tokens. */
export const GrantId = uuid.pipe(Schema.brand("GrantId"))
export type GrantId = typeof GrantId.Type
