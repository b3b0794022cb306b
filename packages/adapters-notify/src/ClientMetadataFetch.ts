import { ClientMetadataDocuments, OAuthError, optionalSetting, WebhookAllowHosts } from "@tenders/core"
import { Duration, Effect, Layer } from "effect"
import { readFileSync } from "node:fs"
import { fetch } from "undici"
import { guardedAgent, type HostLookup, resolveTarget, systemLookup } from "./AddressGuard.ts"

/** The largest metadata document read, how long a fetch may take, and how long a fetched document is kept. */
export const clientMetadataLimits = {
  maxBytes: 16 * 1024,
  timeout: Duration.seconds(5),
  cacheFor: Duration.minutes(10)
}

const failure = (description: string) => new OAuthError({ error: "invalid_client", description })

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
 * 16 KiB in 5 seconds, JSON; kept 10 minutes (a failure is not kept).
 */
export const makeClientMetadataFetch = (options: ClientMetadataFetchOptions) => {
  const lookupHost = options.lookup ?? systemLookup
  const timeout = options.timeout ?? clientMetadataLimits.timeout
  const timeoutMs = Duration.toMillis(timeout)
  const cache = new Map<string, { readonly document: unknown; readonly until: number }>()
  const read = Effect.fn("ClientMetadataDocuments.fetch")(function* (url: string) {
    // Why an address was refused is not told (it would say what the server's resolver knows of internal names).
    const target = yield* resolveTarget(url, options.allowHosts, lookupHost).pipe(
      Effect.mapError(() =>
        failure("cannot fetch the client metadata document: its host does not resolve or is not allowed")
      )
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
          catch: (error) =>
            failure(
              `cannot read the client metadata document: ${error instanceof Error ? error.message : String(error)}`
            )
        }),
      (dispatcher) => Effect.promise(() => dispatcher.destroy()).pipe(Effect.ignore)
    )
  })
  return ClientMetadataDocuments.of({
    fetch: (url) =>
      Effect.suspend(() => {
        const cached = cache.get(url)
        if (cached !== undefined && cached.until > Date.now()) return Effect.succeed(cached.document)
        // The whole fetch, the host's lookup included, within the time limit.
        const bounded = read(url).pipe(
          Effect.timeoutOrElse({
            duration: timeout,
            orElse: () =>
              Effect.fail(
                failure(`cannot fetch the client metadata document: it took over ${Duration.format(timeout)}`)
              )
          })
        )
        return Effect.tap(bounded, (document) =>
          Effect.sync(() => {
            if (cache.size >= 1000) cache.clear()
            cache.set(url, { document, until: Date.now() + Duration.toMillis(clientMetadataLimits.cacheFor) })
          })
        )
      })
  })
}

/** The fetcher as a layer. */
export const clientMetadataLayer = (options: ClientMetadataFetchOptions) =>
  Layer.succeed(ClientMetadataDocuments, makeClientMetadataFetch(options))

/**
 * The fetcher from the environment: the webhooks' allow-list (`WebhookAllowHosts` in context) and extra CA
 * (`TENDERS_WEBHOOK_CA_FILE`) apply to metadata documents too.
 */
export const clientMetadataLive = Layer.effect(
  ClientMetadataDocuments,
  Effect.gen(function* () {
    const allowHosts = yield* WebhookAllowHosts
    const caFile = yield* optionalSetting("TENDERS_WEBHOOK_CA_FILE")
    const ca = caFile === undefined ? undefined : yield* Effect.orDie(Effect.try(() => readFileSync(caFile, "utf8")))
    return makeClientMetadataFetch({ allowHosts, ...(ca === undefined ? {} : { ca }) })
  })
)
