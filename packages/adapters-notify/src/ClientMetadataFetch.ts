/**
 * The live `ClientMetadataDocuments`: OAuth clients' metadata documents fetched from the https URL a client gives as
 * its `client_id`. It lives with the webhooks because it is the same kind of call, to an address someone else chose,
 * and goes through the same guard (`AddressGuard.ts`).
 */
import {
  type AccountId,
  ClientMetadataDocuments,
  OAuthError,
  optionalSetting,
  takeUse,
  unusableMetadataDocument,
  type UseLimit,
  WebhookAllowHosts
} from "@tenders/core"
import { Cache, Data, Duration, Effect, Exit, Layer } from "effect"
import { RateLimiter } from "effect/persistence"
import { readFileSync } from "node:fs"
import { fetch } from "undici"
import { guardedAgent, type HostLookup, resolveTarget, systemLookup } from "./AddressGuard.ts"

/**
 * The largest metadata document read, how long a fetch may take, how long a fetched document is kept; how many
 * documents one account may have fetched (not from the cache): in 10 minutes (counted in the RateLimiter's store,
 * so every replica counts the same) and at once (in this process).
 */
export const clientMetadataLimits = {
  maxBytes: 16 * 1024,
  timeout: Duration.seconds(5),
  cacheFor: Duration.minutes(10),
  perAccount: { name: "oauth-client-documents", limit: 10, window: Duration.minutes(10) } satisfies UseLimit,
  atOnce: 2
}

/** Why a document was not used: for the operator's log, never for the person (it may describe an internal host). */
class DocumentRefused extends Data.TaggedError("DocumentRefused")<{ readonly reason: string }> {}

/** Options of the fetcher: hosts exempt from the address policy (tests), a resolver, an extra CA, a time limit. */
export interface ClientMetadataFetchOptions {
  readonly allowHosts: ReadonlyArray<string>
  readonly lookup?: HostLookup
  readonly ca?: string
  /** The whole fetch's time limit (`clientMetadataLimits.timeout` unless given). */
  readonly timeout?: Duration.Duration
}

/**
 * Client ID Metadata Documents fetched the way webhooks are posted: the URL and every address its host resolves to
 * checked by the same guard (no private, loopback or link-local targets), the address pinned, no redirects; at most
 * 16 KiB in 5 seconds, JSON; kept 10 minutes (a failure is not kept). A document that could not be used is logged
 * with why (a warning) and answered with one sentence. Needs the RateLimiter, for the limit per account.
 */
export const makeClientMetadataFetch = Effect.fnUntraced(function* (options: ClientMetadataFetchOptions) {
  const limiter = yield* RateLimiter.RateLimiter
  const lookupHost = options.lookup ?? systemLookup
  const timeout = options.timeout ?? clientMetadataLimits.timeout
  const timeoutMs = Duration.toMillis(timeout)

  const read = Effect.fnUntraced(function* (url: string) {
    // Why an address was refused is not told (it would say what the server's resolver knows of internal names).
    const target = yield* resolveTarget(url, options.allowHosts, lookupHost).pipe(
      Effect.mapError(() => new DocumentRefused({ reason: "its host does not resolve or is not allowed" }))
    )
    return yield* Effect.acquireUseRelease(
      Effect.sync(() => guardedAgent(target, timeoutMs, options.ca)),
      (dispatcher) =>
        Effect.tryPromise({
          try: async (signal) => {
            const response = await fetch(target.url, {
              headers: { accept: "application/json", "user-agent": "Tenders-OAuth/1" },
              redirect: "manual",
              dispatcher,
              signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])
            })
            if (response.status !== 200) {
              await response.body?.cancel()
              throw new Error(`it answered ${response.status}`)
            }
            const chunks: Array<Uint8Array> = []
            let size = 0
            for await (const chunk of response.body ?? []) {
              size += chunk.byteLength
              if (size > clientMetadataLimits.maxBytes) throw new Error("it is larger than 16 KiB")
              chunks.push(chunk)
            }
            return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown
          },
          catch: (error) => new DocumentRefused({ reason: error instanceof Error ? error.message : String(error) })
        }),
      (dispatcher) => Effect.promise(() => dispatcher.destroy()).pipe(Effect.ignore)
    )
  })

  // The whole fetch, the host's lookup included, within the time limit; kept 10 minutes, a failure not at all.
  const documents = yield* Cache.makeWith(
    (url: string) =>
      read(url).pipe(
        Effect.timeoutOrElse({
          duration: timeout,
          orElse: () => Effect.fail(new DocumentRefused({ reason: `it took over ${Duration.format(timeout)}` }))
        }),
        Effect.catchTag("DocumentRefused", ({ reason }) =>
          Effect.logWarning(`client metadata document ${url} not used: ${reason}`).pipe(
            Effect.andThen(Effect.fail(unusableMetadataDocument()))
          )
        )
      ),
    {
      capacity: 1000,
      timeToLive: (exit) => (Exit.isSuccess(exit) ? clientMetadataLimits.cacheFor : Duration.zero)
    }
  )

  const fetching = new Map<AccountId, number>()
  const enter = (account: AccountId) =>
    Effect.sync(() => {
      const now = fetching.get(account) ?? 0
      if (now >= clientMetadataLimits.atOnce) return false
      fetching.set(account, now + 1)
      return true
    })
  const leave = (account: AccountId) =>
    Effect.sync(() => {
      const left = (fetching.get(account) ?? 1) - 1
      if (left > 0) fetching.set(account, left)
      else fetching.delete(account)
    })

  /** A fetch the cache cannot answer, within the account's limits: at most 2 at once, 10 in 10 minutes. */
  const fetchFor = (url: string, account: AccountId) =>
    Effect.acquireUseRelease(
      enter(account),
      (entered) =>
        Effect.gen(function* () {
          if (!entered) {
            return yield* new OAuthError({
              error: "temporarily_unavailable",
              description: "too many client metadata documents are being fetched for this account at once",
              retryAfter: 1
            })
          }
          const wait = yield* takeUse(clientMetadataLimits.perAccount, account).pipe(
            Effect.provideService(RateLimiter.RateLimiter, limiter)
          )
          if (wait > 0) {
            return yield* new OAuthError({
              error: "temporarily_unavailable",
              description: `too many client metadata documents fetched for this account; try again in ${wait} s`,
              retryAfter: wait
            })
          }
          return yield* Cache.get(documents, url)
        }),
      (entered) => (entered ? leave(account) : Effect.void)
    )

  return ClientMetadataDocuments.of({
    fetch: Effect.fn("ClientMetadataDocuments.fetch")(function* (url: string, account: AccountId) {
      return yield* (yield* Cache.has(documents, url)) ? Cache.get(documents, url) : fetchFor(url, account)
    })
  })
})

/** The fetcher as a layer (needs the RateLimiter). */
export const clientMetadataLayer = (options: ClientMetadataFetchOptions) =>
  Layer.effect(ClientMetadataDocuments, makeClientMetadataFetch(options))

/**
 * The fetcher from the environment: the webhooks' allow-list (`WebhookAllowHosts` in context) and extra CA
 * (`TENDERS_WEBHOOK_CA_FILE`) apply to metadata documents too. Needs the RateLimiter (the store's, in `tenders serve`).
 */
export const clientMetadataLive = Layer.effect(
  ClientMetadataDocuments,
  Effect.gen(function* () {
    const allowHosts = yield* WebhookAllowHosts
    const caFile = yield* optionalSetting("TENDERS_WEBHOOK_CA_FILE")
    const ca = caFile === undefined ? undefined : yield* Effect.orDie(Effect.try(() => readFileSync(caFile, "utf8")))
    return yield* makeClientMetadataFetch({ allowHosts, ...(ca === undefined ? {} : { ca }) })
  })
)
