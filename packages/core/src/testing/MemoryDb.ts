import { Context, type DateTime, Layer } from "effect"
import type { Account, KeyInfo } from "../Account.ts"
import type { AlertReason } from "../Alert.ts"
import type { EmailDigest } from "../Delivery.ts"
import type { AccountId, AlertId, GrantId, WatchlistId } from "../Ids.ts"
import type { GrantRequest, OAuthClient } from "../ports/OAuthStore.ts"
import type { SignInMail } from "../ports/SignInStore.ts"
import type { TenderEvent } from "../ports/AlertStore.ts"
import type { StoredWatchlist } from "../ports/WatchlistStore.ts"
import type { SourceCode } from "../Source.ts"
import type { ParsedNotice, SourceLabel } from "../SourceNotice.ts"
import type { StoredTender, TenderId } from "../Tender.ts"

/** A delivery row of the in-memory outbox. */
export interface MemoryDelivery {
  readonly id: number
  readonly accountId: AccountId
  readonly watchlistId: WatchlistId
  readonly target: string
  readonly payload:
    | { readonly channel: "email"; readonly digest: EmailDigest }
    | { readonly channel: "webhook"; readonly webhookId: string; readonly body: string }
  status: "pending" | "delivered" | "failed"
  attempts: number
  nextAttemptAt: DateTime.Utc
  leaseUntil: DateTime.Utc | null
  lastError: string | null
  readonly createdAt: DateTime.Utc
}

/** A fetch run of the in-memory run history. */
export interface MemoryRun {
  readonly id: number
  readonly source: SourceCode
  readonly owner: string
  readonly startedAt: DateTime.Utc
  finishedAt: DateTime.Utc | null
  error: string | null
  summary: Record<string, number>
}

/**
 * The state of every in-memory port, shared so that they see each other's writes as the SQL store's ports do
 * (ingestion writes events the alert store reads; alerts fill the outbox the delivery store works). Operations are
 * synchronous, hence atomic. Tests only.
 */
export interface MemoryState {
  readonly accounts: Map<AccountId, { account: Account; webhookSecret: string | null }>
  readonly keys: Array<KeyInfo & { readonly secret: string }>
  readonly usage: Map<string, { calls: number; packs: number }>
  /** Calls per account and UTC day, by `accountId/YYYY-MM-DD`. */
  readonly usageDays: Map<string, number>
  readonly tenders: Map<string, StoredTender>
  readonly aliases: Map<string, TenderId>
  /** The distinct notices of each procedure, by `source|procedureKey`, keyed by their canonical JSON. */
  readonly procedures: Map<string, Map<string, ParsedNotice>>
  /** The tender each procedure resolved to, by `source|procedureKey`. */
  readonly procedureTenders: Map<string, TenderId>
  /** The names sources gave their codes, each once, in the order first seen. */
  readonly sourceLabels: Array<SourceLabel>
  readonly events: Array<TenderEvent>
  readonly watchlists: Array<{
    readonly stored: StoredWatchlist
    webhookDisabled: boolean
  }>
  readonly alerts: Array<{
    readonly id: AlertId
    readonly watchlistId: WatchlistId
    readonly accountId: AccountId
    tenderId: TenderId
    readonly reason: AlertReason
    readonly version: string
    readonly createdAt: DateTime.Utc
  }>
  readonly deliveries: Array<MemoryDelivery>
  readonly runs: Array<MemoryRun>
  readonly cursors: Map<SourceCode, string>
  readonly schedule: Map<SourceCode, { nextRunAt: DateTime.Utc; owner: string | null; leaseUntil: DateTime.Utc | null }>
  readonly signInLinks: Array<{
    readonly token: string
    readonly email: string
    readonly createdAt: DateTime.Utc
    readonly expiresAt: DateTime.Utc
    used: boolean
    /** The link's mail while it is to be sent; its state otherwise. */
    mail: SignInMail | undefined
    mailState: "none" | "pending" | "sent" | "failed"
    mailAttempts: number
    mailDueAt: DateTime.Utc
    mailLeaseUntil: DateTime.Utc | undefined
    mailError: string | undefined
  }>
  readonly sessions: Map<string, { readonly accountId: AccountId; readonly expiresAt: DateTime.Utc }>
  readonly oauthClients: Map<string, OAuthClient>
  readonly oauthGrants: Array<
    GrantRequest & { readonly grantId: GrantId; lastUsedAt: DateTime.Utc | null; revokedAt: DateTime.Utc | null }
  >
  /** Authorization codes by the code (in clear: tests only). */
  readonly oauthCodes: Map<
    string,
    {
      readonly grantId: GrantId
      readonly challenge: string
      readonly expiresAt: DateTime.Utc
      readonly redirectUriGiven: boolean
      used: boolean
    }
  >
  /** Access and refresh tokens by the token (in clear: tests only). */
  readonly oauthTokens: Map<
    string,
    {
      readonly grantId: GrantId
      readonly kind: "access" | "refresh"
      readonly expiresAt: DateTime.Utc
      spent: boolean
    }
  >
  watchlistsVersion: number
  alertCursor: number
  seq: number
}

const empty = (): MemoryState => ({
  accounts: new Map(),
  keys: [],
  usage: new Map(),
  usageDays: new Map(),
  tenders: new Map(),
  aliases: new Map(),
  procedures: new Map(),
  procedureTenders: new Map(),
  sourceLabels: [],
  events: [],
  watchlists: [],
  alerts: [],
  deliveries: [],
  runs: [],
  cursors: new Map(),
  schedule: new Map(),
  signInLinks: [],
  sessions: new Map(),
  oauthClients: new Map(),
  oauthGrants: [],
  oauthCodes: new Map(),
  oauthTokens: new Map(),
  watchlistsVersion: 0,
  alertCursor: 0,
  seq: 0
})

/** The next number of the in-memory sequence (ids of accounts, keys, events, alerts, deliveries, runs). */
export const nextSeq = (db: MemoryState): number => ++db.seq

/** The shared state of the in-memory ports. */
export class MemoryDb extends Context.Service<MemoryDb, MemoryState>()("@tenders/core/testing/MemoryDb") {
  /** A fresh, empty state. */
  static readonly layer = Layer.sync(MemoryDb, empty)
}
