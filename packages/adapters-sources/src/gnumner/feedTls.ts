import { Effect, Layer } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { Agent, fetch as undiciFetch } from "undici"

/** Host names as the switch lists them: trimmed, lower-case, `[v6]` brackets kept as URL.hostname has them. */
const normalizeHosts = (hosts: ReadonlyArray<string>): ReadonlySet<string> =>
  new Set(hosts.map((h) => h.trim().toLowerCase()).filter((h) => h.length > 0))

const urlOf = (input: string | URL | Request): URL | null => {
  const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url
  return URL.canParse(href) ? new URL(href) : null
}

/**
 * A fetch that sends requests for the listed hosts through undici with certificate checks off (Node's bundled
 * fetch refuses dispatchers of the undici package), and everything else through `globalThis.fetch`, looked up
 * per call so test interceptors still apply.
 */
const hostAwareFetch =
  (insecure: ReadonlySet<string>, agent: Agent): typeof globalThis.fetch =>
  async (input, init) => {
    const url = urlOf(input)
    if (url === null || !insecure.has(url.hostname.toLowerCase()) || input instanceof Request) {
      return globalThis.fetch(input, init)
    }
    const response = await undiciFetch(url, {
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers)),
      body: typeof init?.body === "string" ? init.body : null,
      redirect: init?.redirect ?? "follow",
      signal: init?.signal ?? null,
      dispatcher: agent
    })
    return new Response(response.body, {
      status: response.status,
      statusText: response.statusText,
      headers: Array.from(response.headers)
    })
  }

/**
 * An HttpClient layer whose TLS verification is off for exactly the given hosts (an undici Agent per host, passed as
 * fetch's dispatcher).
 */
export const gnumnerHttpClientLayer = (insecureTlsHosts: ReadonlyArray<string>): Layer.Layer<HttpClient.HttpClient> =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      const insecure = normalizeHosts(insecureTlsHosts)
      if (insecure.size === 0) return client
      const agent = yield* Effect.acquireRelease(
        Effect.sync(() => new Agent({ connect: { rejectUnauthorized: false } })),
        (a) => Effect.promise(() => a.destroy())
      )
      const fetch = hostAwareFetch(insecure, agent)
      return HttpClient.transform(client, (effect) => Effect.provideService(effect, FetchHttpClient.Fetch, fetch))
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
