// The server of `tenders serve`, loaded only by that command (it brings the HTTP, MCP and notifier stacks).
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { clientMetadataLive, notifierLayer } from "@tenders/adapters-notify"
import {
  backgroundSettingsConfig,
  commaList,
  ingestRecords,
  optionalSetting,
  OAuthSettings,
  oauthSettingsConfig,
  publicUrlConfig,
  searchCacheConfig,
  SearchText,
  SignInMailer,
  signUpConfig,
  trustedProxiesConfig,
  sourceCodes,
  sourceIntervalsConfig,
  startBackgroundWork,
  TenderStore,
  useSourceLabelsOfStore
} from "@tenders/core"
import { DashboardApp, DashboardSettings, OAuthConsentApp } from "@tenders/dashboard"
import { clientAddressMiddleware, gzipAnswers, HttpApp, routerConfig } from "@tenders/http"
import { layerSearchCache, reanalyseStale, usePacksOfStore } from "@tenders/store-postgres"
import { McpAllowedOrigins, McpApp, OAuthApp } from "@tenders/mcp"
import { Cause, DateTime, Effect, Exit, Layer, Runtime, Schedule } from "effect"
import { HttpRouter } from "effect/http"
import { randomUUID } from "node:crypto"
import { createServer } from "node:http"
import { hostname } from "node:os"
import { feedFor } from "./Feeds.ts"
import { describePack } from "./commands/classifications.ts"
import { importPackFiles, packFilesIn } from "./Packs.ts"
import { ratesFeed, ratesRefreshOn } from "./RatesFeed.ts"
import { appLayer, type GlobalOptions } from "./Runtime.ts"
import { loggingLayer } from "./LogFormat.ts"
import { metricsListener, metricsOnServer, tracingLayer } from "./Observability.ts"
import { loadSample } from "./SampleData.ts"

/** What `tenders serve` was asked for. */
export interface ServerOptions {
  readonly port: number
  readonly host: string
  readonly seed: boolean
  readonly schedule: boolean
}

/** This replica's name in leases: unique across the fleet, readable in `tenders sources`. */
const owner = () => `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`

/** Core's background work (scheduled ingestion, deadline sweep, alerts, deliveries) with this server's feeds. */
const backgroundWork = Effect.gen(function* () {
  const settings = yield* backgroundSettingsConfig
  const intervals = yield* sourceIntervalsConfig
  const feeds = yield* Effect.forEach(sourceCodes, feedFor)
  const rates = (yield* ratesRefreshOn) ? yield* ratesFeed : undefined
  yield* startBackgroundWork({ feeds, owner: owner(), intervals, settings, rates })
})

/**
 * Every replica follows the store's classification packs: when another process imported one, the analysis of this
 * one takes it within a tick, and the tenders written meanwhile with the older analysis are analysed again. It also
 * follows the code names sources published (`useSourceLabelsOfStore`: queries only, nothing analysed again).
 */
const followPacks = Effect.gen(function* () {
  const every = Schedule.spaced((yield* backgroundSettingsConfig).tick)
  const follow = Effect.gen(function* () {
    if (yield* useSourceLabelsOfStore())
      yield* Effect.logInfo(`Source labels: ${(yield* SearchText).sourceLabelCount} code names the sources published`)
    if (!(yield* usePacksOfStore)) return
    const done = yield* reanalyseStale(() => Effect.void)
    // The search's statistics of terms are this process's: read again, they know the new terms.
    yield* (yield* TenderStore).refreshStatistics
    yield* Effect.logInfo(`Classification packs changed: the analysis follows them (${done} tenders analysed again)`)
  }).pipe(Effect.catchCause((cause) => Effect.logError("following the classification packs failed", cause)))
  yield* Effect.forkScoped(follow.pipe(Effect.repeat(every)))
})

/**
 * `TENDERS_CLASSIFICATIONS_DIR`: a folder of classification pack files the server imports at start (OKPD2's `.tsv`
 * table and `.csv` editions, the Russian CPV labels' `.json`), as `tenders classifications import` does; files
 * already imported change nothing.
 */
const importPacksAtStart = Effect.gen(function* () {
  const directory = yield* optionalSetting("TENDERS_CLASSIFICATIONS_DIR")
  if (directory === undefined) return
  for (const [pack, files] of packFilesIn(directory)) {
    const { changed, info, analysed } = yield* importPackFiles(pack, files, () => Effect.void)
    yield* Effect.logInfo(
      changed ? `${describePack(info)}: ${analysed} tenders analysed again` : `${describePack(info)}: unchanged`
    )
  }
})

/** Ingests the bundled sample into an empty store. */
const seedIfEmpty = Effect.gen(function* () {
  const store = yield* TenderStore
  if ((yield* store.size) > 0) return
  const records = yield* loadSample(yield* DateTime.now)
  const counts = yield* ingestRecords(records)
  yield* Effect.logInfo(`Seeded ${counts.new} sample tenders (docs/sample-data.md); start with --no-seed to skip.`)
})

/** Browser origins allowed on /mcp besides loopback ones: TENDERS_MCP_ALLOWED_ORIGINS, comma-separated. */
const allowedOrigins = Layer.effect(
  McpAllowedOrigins,
  Effect.gen(function* () {
    return yield* commaList("TENDERS_MCP_ALLOWED_ORIGINS")
  })
)

/** The MCP endpoint `tenders serve` mounts at /mcp next to the REST routes. */
export const McpHttp = McpApp.pipe(Layer.provide(allowedOrigins))

/**
 * The address the server is reached at when `TENDERS_PUBLIC_URL` is unset: where it listens (a wildcard as
 * localhost).
 */
const listeningUrl = (options: ServerOptions) => {
  const host = options.host === "0.0.0.0" || options.host === "::" ? "localhost" : options.host
  return `http://${host.includes(":") ? `[${host}]` : host}:${options.port}`
}

/**
 * The settings of the dashboard and of OAuth for /mcp, from TENDERS_PUBLIC_URL (else the listening address) and
 * TENDERS_SIGNUP; the client metadata documents are fetched as webhooks are posted.
 */
const publicSettings = (options: ServerOptions) =>
  Layer.unwrap(
    Effect.gen(function* () {
      const publicUrl = yield* publicUrlConfig(listeningUrl(options))
      const signUp = yield* signUpConfig
      return Layer.mergeAll(
        Layer.succeed(DashboardSettings, { publicUrl, signUp }),
        Layer.succeed(OAuthSettings, yield* oauthSettingsConfig(publicUrl)),
        clientMetadataLive
      )
    })
  )

/** SIGINT / SIGTERM end the server after its finalizers ran (store closed): that is a clean stop, exit 0. */
const stopCleanly: Runtime.Teardown = (exit, onExit) =>
  Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(0) : Runtime.defaultTeardown(exit, onExit)

/**
 * How often the sign-in mails are looked at besides when one is queued: for those to try again and those that
 * another replica, stopped while sending, left leased.
 */
const signInMailSweep = "5 seconds"

/**
 * The search result cache of `serve` (`TENDERS_SEARCH_CACHE` answers, kept gzip-compressed) over the configured
 * store's change feed.
 */
const searchCacheLayer = (globals: GlobalOptions) =>
  Layer.unwrap(
    Effect.map(searchCacheConfig, (entries) =>
      layerSearchCache({ databaseUrl: globals.databaseUrl, dataDir: globals.dataDir }, entries, gzipAnswers)
    )
  )

/** Runs the REST API, /docs, /mcp and /dashboard on the configured store until SIGINT / SIGTERM. */
export const runServer = (options: ServerOptions, globals: GlobalOptions) => {
  // The notifier reads the webhook allow-list the app layer parses; every replica sends the sign-in mails it queued.
  const ports = SignInMailer.layer(signInMailSweep).pipe(
    Layer.provideMerge(notifierLayer({ dataDir: globals.dataDir })),
    Layer.provideMerge(searchCacheLayer(globals)),
    Layer.provideMerge(appLayer(globals, { serving: true }))
  )
  const startup = Effect.gen(function* () {
    yield* importPacksAtStart
    if (options.seed) yield* seedIfEmpty
    // The lexicon is built before the server listens, not by its first search (about a second, more under load).
    const text = yield* SearchText
    yield* Effect.sync(() => text.prepare())
    yield* followPacks
    if (options.schedule) yield* backgroundWork
  })
  const apps = Layer.mergeAll(HttpApp, McpHttp, DashboardApp, OAuthConsentApp, OAuthApp, metricsOnServer).pipe(
    Layer.provide(publicSettings(options))
  )
  const server = Layer.unwrap(
    Effect.map(trustedProxiesConfig, (trusted) =>
      HttpRouter.serve(apps, { routerConfig, middleware: clientAddressMiddleware(trusted) })
    )
  ).pipe(
    // Idle keep-alive sockets outlive any client's own idle timeout (undici: 4 s), so a client never reuses a
    // socket the server is closing at that moment.
    Layer.provide(
      NodeHttpServer.layer(() => createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 }), {
        port: options.port,
        host: options.host
      })
    ),
    Layer.provide(Layer.effectDiscard(startup.pipe(Effect.orDie))),
    Layer.merge(metricsListener),
    Layer.provideMerge(ports),
    // Outermost: every layer and fiber of the server logs in the configured format and traces to the exporter.
    Layer.provide(Layer.mergeAll(loggingLayer, tracingLayer))
  )
  NodeRuntime.runMain(Layer.launch(server), { teardown: stopCleanly })
}
