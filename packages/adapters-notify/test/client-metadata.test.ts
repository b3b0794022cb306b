// Client ID Metadata Documents fetched as webhooks are posted: the address guard, no redirects, 16 KiB, a time
// limit over the whole fetch (the host's lookup included), JSON, and a cache of documents (not of failures); what
// went wrong is logged, never told; fetches not answered from the cache are limited per account.
import { assert, describe, it } from "@effect/vitest"
import { AccountId, type OAuthError } from "@tenders/core"
import { Duration, Effect, Fiber, Layer, Logger } from "effect"
import { RateLimiter } from "effect/persistence"
import { TestClock } from "effect/testing"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type ClientMetadataFetchOptions,
  clientMetadataLimits,
  makeClientMetadataFetch
} from "../src/ClientMetadataFetch.ts"
import { loopbackCertificate } from "./loopbackCertificate.ts"

/** A loopback HTTPS server answering each path (without its query) as `routes` says, counting requests per path. */
const serve = (routes: Record<string, (respond: (status: number, body: string, headers?: object) => void) => void>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const dir = mkdtempSync(join(tmpdir(), "tcm-"))
      const certificate = loopbackCertificate(dir)
      const hits = new Map<string, number>()
      const server = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
        const path = (request.url ?? "").split("?")[0] ?? ""
        hits.set(path, (hits.get(path) ?? 0) + 1)
        const route = routes[path]
        if (route === undefined) return void response.writeHead(404).end()
        route((status, body, headers = {}) => void response.writeHead(status, { ...headers }).end(body))
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const port = (server.address() as AddressInfo).port
      return { server, dir, hits, ca: readFileSync(certificate.caFile, "utf8"), url: `https://127.0.0.1:${port}` }
    }),
    ({ server, dir }) =>
      Effect.promise(async () => {
        server.closeAllConnections()
        await new Promise((resolve) => server.close(resolve))
        rmSync(dir, { recursive: true, force: true })
      })
  )

const documentOf = (url: string) =>
  JSON.stringify({ client_id: url, client_name: "Agent", redirect_uris: ["https://agent.example/cb"] })

/** The fetcher with a RateLimiter of its own in memory. */
const fetcher = (options: ClientMetadataFetchOptions) =>
  makeClientMetadataFetch(options).pipe(
    Effect.provide(RateLimiter.layer.pipe(Layer.provide(RateLimiter.layerStoreMemory)))
  )

/** The log lines written while `effect` runs, instead of the console. */
const logged: Array<string> = []
const recordLogs = Logger.layer([
  Logger.make(({ message }) => void logged.push((Array.isArray(message) ? message : [message]).join(" ")))
])

const alice = AccountId.make("00000000-0000-4000-8000-0000000000a1")
const bob = AccountId.make("00000000-0000-4000-8000-0000000000b2")
const unusable = "the client metadata document could not be used"

describe("client metadata documents", () => {
  it.live(
    "fetches a document once and keeps it; refuses redirects, oversize bodies, other statuses and JSON errors",
    () =>
      Effect.gen(function* () {
        logged.length = 0
        const site = yield* serve({
          "/client.json": (respond) => respond(200, documentOf(`${site.url}/client.json`)),
          "/moved.json": (respond) => respond(302, "", { location: "/client.json" }),
          "/big.json": (respond) => respond(200, JSON.stringify({ padding: "x".repeat(17 * 1024) })),
          "/gone.json": (respond) => respond(410, "gone: internal-db.corp is down"),
          "/broken.json": (respond) => respond(200, "{ not json, secret-token-123")
        })
        const documents = yield* fetcher({ allowHosts: [site.url.slice("https://".length)], ca: site.ca })
        const fetched = (yield* documents.fetch(`${site.url}/client.json`, alice)) as { client_name: string }
        assert.strictEqual(fetched.client_name, "Agent")
        yield* documents.fetch(`${site.url}/client.json`, alice)
        assert.strictEqual(site.hits.get("/client.json"), 1) // kept
        const refused = (path: string) => Effect.flip(documents.fetch(`${site.url}${path}`, alice))
        // The person is told the document could not be used, and nothing of what the server answered.
        for (const path of ["/moved.json", "/big.json", "/gone.json", "/broken.json"]) {
          const error: OAuthError = yield* refused(path)
          assert.deepStrictEqual([error.error, error.description], ["invalid_client", unusable], path)
        }
        assert.strictEqual(site.hits.get("/client.json"), 1) // the redirect was not followed
        // The operator's log says why.
        const why = logged.join("\n")
        assert.include(why, "moved.json not used: it answered 302")
        assert.include(why, "big.json not used: it is larger than 16 KiB")
        assert.include(why, "gone.json not used: it answered 410")
        assert.include(why, "broken.json not used:")
        yield* refused("/gone.json")
        assert.strictEqual(site.hits.get("/gone.json"), 2) // a failure is not kept
      }).pipe(Effect.provide(recordLogs))
  )

  it.live("refuses loopback and private hosts without saying what they resolve to, and bounds a slow fetch", () =>
    Effect.gen(function* () {
      logged.length = 0
      const site = yield* serve({
        "/client.json": (respond) => respond(200, documentOf(`${site.url}/client.json`)),
        "/slow.json": () => undefined // never answers
      })
      const guarded = yield* fetcher({ allowHosts: [], ca: site.ca })
      const loopback = yield* Effect.flip(guarded.fetch(`${site.url}/client.json`, alice))
      assert.strictEqual(loopback.description, unusable)
      assert.isUndefined(site.hits.get("/client.json"))
      assert.include(logged.join("\n"), "not used: its host does not resolve or is not allowed")
      // A host whose lookup never ends, and a server that never answers: both end at the time limit.
      const hanging = yield* fetcher({
        allowHosts: ["agent.example:443"],
        ca: site.ca,
        timeout: Duration.millis(300),
        lookup: () => new Promise(() => undefined)
      })
      const lookupHangs = yield* Effect.flip(hanging.fetch("https://agent.example/client.json", alice))
      assert.strictEqual(lookupHangs.description, unusable)
      assert.include(logged.join("\n"), "agent.example/client.json not used: it took over")
      const slow = yield* fetcher({
        allowHosts: [site.url.slice("https://".length)],
        ca: site.ca,
        timeout: Duration.millis(300)
      })
      // The request's own timeouts (headers, abort signal) or the whole fetch's, whichever ends it first.
      const answer = yield* Effect.flip(slow.fetch(`${site.url}/slow.json`, alice))
      assert.strictEqual(answer.description, unusable)
      assert.match(logged.join("\n"), /slow\.json not used: .*(took over|timeout|aborted)/iu)
    }).pipe(Effect.provide(recordLogs))
  )

  it.effect("keeps a document 10 minutes by the clock, then fetches it again", () =>
    Effect.gen(function* () {
      const site = yield* serve({
        "/client.json": (respond) => respond(200, documentOf(`${site.url}/client.json`))
      })
      const documents = yield* fetcher({ allowHosts: [site.url.slice("https://".length)], ca: site.ca })
      yield* documents.fetch(`${site.url}/client.json`, alice)
      yield* TestClock.adjust(Duration.minutes(9))
      yield* documents.fetch(`${site.url}/client.json`, bob)
      assert.strictEqual(site.hits.get("/client.json"), 1)
      yield* TestClock.adjust(Duration.minutes(2))
      yield* documents.fetch(`${site.url}/client.json`, alice)
      assert.strictEqual(site.hits.get("/client.json"), 2)
    }).pipe(Effect.provide(recordLogs))
  )

  it.effect("one account has 10 fetches in 10 minutes, one more each minute; the cache's answers are not counted", () =>
    Effect.gen(function* () {
      const site = yield* serve({
        "/client.json": (respond) => respond(200, documentOf(`${site.url}/client.json`)),
        "/gone.json": (respond) => respond(410, "gone")
      })
      const documents = yield* fetcher({ allowHosts: [site.url.slice("https://".length)], ca: site.ca })
      const gone = (n: number, account = alice) => Effect.flip(documents.fetch(`${site.url}/gone.json?n=${n}`, account))
      yield* documents.fetch(`${site.url}/client.json`, alice)
      for (let i = 0; i < 5; i++) yield* documents.fetch(`${site.url}/client.json`, alice) // from the cache
      for (let i = 1; i < clientMetadataLimits.perAccount.limit; i++) {
        assert.strictEqual((yield* gone(i)).description, unusable)
      }
      assert.strictEqual(site.hits.get("/gone.json"), 9)
      const limited = yield* gone(10)
      assert.strictEqual(limited.error, "temporarily_unavailable")
      assert.isAtLeast(limited.retryAfter ?? 0, 1)
      assert.include(limited.description, "too many client metadata documents fetched for this account")
      assert.strictEqual(site.hits.get("/gone.json"), 9) // not fetched
      // Another account has its own limit; the cache still answers the first.
      assert.strictEqual((yield* gone(11, bob)).description, unusable)
      assert.strictEqual(site.hits.get("/gone.json"), 10)
      yield* documents.fetch(`${site.url}/client.json`, alice)
      yield* TestClock.adjust(Duration.minutes(1))
      assert.strictEqual((yield* gone(12)).description, unusable)
      assert.strictEqual(site.hits.get("/gone.json"), 11)
      assert.strictEqual((yield* gone(13)).error, "temporarily_unavailable")
    }).pipe(Effect.provide(recordLogs))
  )

  it.effect("one account has at most 2 fetches at once: a third is refused at once, another account's goes", () =>
    Effect.gen(function* () {
      let arrived = 0
      let bothArrived: () => void = () => undefined
      const twoHanging = new Promise<void>((resolve) => (bothArrived = resolve))
      const site = yield* serve({
        "/client.json": (respond) => respond(200, documentOf(`${site.url}/client.json`)),
        "/hang.json": () => void (++arrived === 2 && bothArrived()) // never answers
      })
      const documents = yield* fetcher({ allowHosts: [site.url.slice("https://".length)], ca: site.ca })
      const hanging = yield* Effect.all(
        [1, 2].map((n) => Effect.forkChild(documents.fetch(`${site.url}/hang.json?n=${n}`, alice)))
      )
      yield* Effect.promise(() => twoHanging)
      const third = yield* Effect.flip(documents.fetch(`${site.url}/client.json`, alice))
      assert.strictEqual(third.error, "temporarily_unavailable")
      assert.include(third.description, "at once")
      assert.isUndefined(site.hits.get("/client.json"))
      yield* documents.fetch(`${site.url}/client.json?by=bob`, bob)
      assert.strictEqual(site.hits.get("/client.json"), 1)
      // The two end (here: given up); then the account may fetch again.
      yield* Effect.forEach(hanging, Fiber.interrupt)
      yield* documents.fetch(`${site.url}/client.json`, alice)
      assert.strictEqual(site.hits.get("/client.json"), 2)
    }).pipe(Effect.provide(recordLogs))
  )
})
