// Client ID Metadata Documents fetched as webhooks are posted: the address guard, no redirects, 16 KiB, a time
// limit over the whole fetch (the host's lookup included), JSON, and a cache of documents (not of failures).
import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeClientMetadataFetch } from "../src/ClientMetadataFetch.ts"
import { loopbackCertificate } from "./loopbackCertificate.ts"

/** A loopback HTTPS server answering each path as `routes` says, counting the requests per path. */
const serve = (routes: Record<string, (respond: (status: number, body: string, headers?: object) => void) => void>) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const dir = mkdtempSync(join(tmpdir(), "tcm-"))
      const certificate = loopbackCertificate(dir)
      const hits = new Map<string, number>()
      const server = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
        const path = request.url ?? ""
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

describe("client metadata documents", () => {
  it.live(
    "fetches a document once and keeps it; refuses redirects, oversize bodies, other statuses and JSON errors",
    () =>
      Effect.gen(function* () {
        const site = yield* serve({
          "/client.json": (respond) => respond(200, documentOf(`${site.url}/client.json`)),
          "/moved.json": (respond) => respond(302, "", { location: "/client.json" }),
          "/big.json": (respond) => respond(200, JSON.stringify({ padding: "x".repeat(17 * 1024) })),
          "/gone.json": (respond) => respond(410, "gone"),
          "/broken.json": (respond) => respond(200, "{ not json")
        })
        const documents = makeClientMetadataFetch({ allowHosts: [site.url.slice("https://".length)], ca: site.ca })
        const fetched = (yield* documents.fetch(`${site.url}/client.json`)) as { client_name: string }
        assert.strictEqual(fetched.client_name, "Agent")
        yield* documents.fetch(`${site.url}/client.json`)
        assert.strictEqual(site.hits.get("/client.json"), 1) // kept
        const refused = (path: string) =>
          Effect.map(Effect.flip(documents.fetch(`${site.url}${path}`)), (error) => error.description)
        assert.include(yield* refused("/moved.json"), "answered 302")
        assert.strictEqual(site.hits.get("/client.json"), 1) // the redirect was not followed
        assert.include(yield* refused("/big.json"), "larger than 16 KiB")
        assert.include(yield* refused("/gone.json"), "answered 410")
        assert.include(yield* refused("/broken.json"), "cannot read the client metadata document")
        yield* refused("/gone.json")
        assert.strictEqual(site.hits.get("/gone.json"), 2) // a failure is not kept
      })
  )

  it.live("refuses loopback and private hosts without saying what they resolve to, and bounds a slow fetch", () =>
    Effect.gen(function* () {
      const site = yield* serve({
        "/client.json": (respond) => respond(200, documentOf(`${site.url}/client.json`)),
        "/slow.json": () => undefined // never answers
      })
      const guarded = makeClientMetadataFetch({ allowHosts: [], ca: site.ca })
      const loopback = yield* Effect.flip(guarded.fetch(`${site.url}/client.json`))
      assert.strictEqual(
        loopback.description,
        "cannot fetch the client metadata document: its host does not resolve or is not allowed"
      )
      assert.isUndefined(site.hits.get("/client.json"))
      // A host whose lookup never ends, and a server that never answers: both end at the time limit.
      const hanging = makeClientMetadataFetch({
        allowHosts: ["agent.example:443"],
        ca: site.ca,
        timeout: Duration.millis(300),
        lookup: () => new Promise(() => undefined)
      })
      const lookupHangs = yield* Effect.flip(hanging.fetch("https://agent.example/client.json"))
      assert.include(lookupHangs.description, "took over")
      const slow = makeClientMetadataFetch({
        allowHosts: [site.url.slice("https://".length)],
        ca: site.ca,
        timeout: Duration.millis(300)
      })
      // The request's own timeouts (headers, abort signal) or the whole fetch's, whichever ends it first.
      const answer = yield* Effect.flip(slow.fetch(`${site.url}/slow.json`))
      assert.match(answer.description, /took over|timeout|aborted/iu)
    })
  )
})
