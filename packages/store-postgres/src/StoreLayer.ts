import { type AnswerPacking, SearchCache, useSourceLabelsOfStore } from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"
import { hostname } from "node:os"
import type { SqlClient, SqlError } from "effect/sql"
import { layerEmbedded } from "./embedded/EmbeddedPostgres.ts"
import type { EmbeddedStoreError } from "./embedded/EmbeddedStoreError.ts"
import { migrate } from "./Migrations.ts"
import { PgAccountStore } from "./PgAccountStore.ts"
import { PgAlertStore } from "./PgAlertStore.ts"
import { PgClassificationStore } from "./PgClassificationStore.ts"
import { PgDeliveryStore } from "./PgDeliveryStore.ts"
import { PgNoticeStore } from "./PgNoticeStore.ts"
import { PgOAuthStore } from "./PgOAuthStore.ts"
import { PgRateLimiter } from "./PgRateLimiterStore.ts"
import { PgRatesStore } from "./PgRatesStore.ts"
import { PgSearchChanges } from "./PgSearchChanges.ts"
import { PgSignInStore } from "./PgSignInStore.ts"
import { PgSourceRunStore } from "./PgSourceRunStore.ts"
import { PgSourceStatusStore } from "./PgSourceStatusStore.ts"
import { PgStorePool } from "./PgStorePool.ts"
import { PgTenderStore } from "./PgTenderStore.ts"
import { PgWatchlistStore } from "./PgWatchlistStore.ts"
import { CounterClient, countsCommitted } from "./CounterClient.ts"
import { BitmapClient, bitmapOnly } from "./ScanSettings.ts"
import { sessionPool } from "./SessionPool.ts"
import { refreshSearchTerms } from "./SearchIndex.ts"

/** Where the data lives: real PostgreSQL when `databaseUrl` is set, else embedded PGlite in `dataDir`. */
export interface StoreOptions {
  readonly databaseUrl: string | undefined
  readonly dataDir: string
  /**
   * A server's store (`serve`): on PostgreSQL its pools open their first connections at start and keep them when
   * idle (`servingConnections`), so that neither the first requests after a start nor those after a quiet minute wait
   * for a connection to be made. A command's store opens them when it needs them.
   */
  readonly serving?: boolean | undefined
}

/**
 * The connections a server's pools keep open: the main pool two (the search result cache's `LISTEN` holds one, the
 * statements have the other), the bitmap pool one, the counters' pool one. More are opened under load, up to each
 * pool's maximum, and closed after a minute unused.
 */
export const servingConnections = { main: 2, bitmap: 1, counter: 1 } as const

const onPostgres = (options: StoreOptions): options is StoreOptions & { readonly databaseUrl: string } =>
  options.databaseUrl !== undefined && options.databaseUrl.length > 0

/**
 * The name this process's connections to PostgreSQL carry (`pg_stat_activity.application_name`, 63 bytes), with the
 * pool's `suffix` kept whole at its end where there is one.
 */
const applicationName = (suffix = "") =>
  `${`tenders ${process.pid} ${hostname()}`.slice(0, 63 - suffix.length)}${suffix}`

/**
 * The SQL client for the configured store; on PostgreSQL also the search's pool of bitmap-only sessions. Both pipeline
 * the statements of concurrent requests on each connection (`multiplex`), each statement still its own implicit
 * transaction: fewer writes and wake-ups per statement (decisions.md, "Issue 23: the throughput").
 */
export const layerSql = (
  options: StoreOptions
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, EmbeddedStoreError | SqlError.SqlError> => {
  if (!onPostgres(options)) return layerEmbedded(options.dataDir)
  const kept = options.serving === true ? servingConnections : { main: 0, bitmap: 0, counter: 0 }
  return Layer.mergeAll(
    PgClient.layer({
      url: Redacted.make(options.databaseUrl),
      maxConnections: 10,
      minConnections: kept.main,
      applicationName: applicationName(),
      multiplex: true
    }),
    sessionPool(BitmapClient, {
      url: options.databaseUrl,
      applicationName: applicationName(),
      minConnections: kept.bitmap,
      settings: bitmapOnly
    }),
    sessionPool(CounterClient, {
      url: options.databaseUrl,
      applicationName: applicationName(" counters"),
      minConnections: kept.counter,
      settings: countsCommitted
    })
  )
}

/**
 * Every store port, and Effect's RateLimiter over the store's buckets, over a migrated database whose search terms are
 * those of the given text analysis with the store's classification packs (rebuilt at start when it changed), plus
 * the SQL client itself; the analysis also has the labels sources published beside their codes.
 */
export const layerStore = (options: StoreOptions) =>
  Layer.effectDiscard(useSourceLabelsOfStore()).pipe(Layer.provideMerge(stores(options)))

const stores = (options: StoreOptions) =>
  Layer.mergeAll(
    PgTenderStore,
    PgNoticeStore,
    PgAccountStore,
    PgSourceStatusStore,
    PgSourceRunStore,
    PgWatchlistStore,
    PgAlertStore,
    PgDeliveryStore,
    PgSignInStore,
    PgOAuthStore,
    PgRatesStore,
    PgRateLimiter,
    PgStorePool
  ).pipe(
    Layer.provideMerge(Layer.effectDiscard(Effect.orDie(refreshSearchTerms))),
    Layer.provideMerge(PgClassificationStore),
    Layer.provideMerge(Layer.effectDiscard(Effect.orDie(migrate))),
    Layer.provideMerge(layerSql(options))
  )

/**
 * The search result cache of a server (core `SearchCache`, `entries` answers, packed as `packing` says): on
 * PostgreSQL over its change feed (PgSearchChanges.ts). The embedded store has none (its one shared session cannot
 * LISTEN: embedded/EmbeddedPostgres.ts), so there every search runs.
 */
export const layerSearchCache = (options: StoreOptions, entries: number, packing?: AnswerPacking) =>
  onPostgres(options) ? SearchCache.layer(entries, packing).pipe(Layer.provide(PgSearchChanges)) : Layer.empty
