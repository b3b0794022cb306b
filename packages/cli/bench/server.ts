// What the benchmarks that load a real `tenders serve` share: a free port, a Business key to call it with, the
// server started and stopped, the mix of requests and autocannon's load of them.
import { AccountStore, maxMonthlyLimit, saveAccount } from "@tenders/core"
import autocannon from "autocannon"
import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { openSync, readFileSync } from "node:fs"
import { createServer } from "node:net"
import { join } from "node:path"
import { Effect } from "effect"
import { benchData } from "./data.ts"

/** A Business account of its own with the highest monthly limit, and a REST key of it. */
export const benchKey = Effect.gen(function* () {
  const account = yield* saveAccount({
    email: `bench-${Date.now()}@example.org`,
    plan: "business",
    monthlyLimit: maxMonthlyLimit
  })
  return (yield* (yield* AccountStore).createKey(account.id, "rest")).key
})

/** A TCP port free on loopback now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })

const tendersBin = join(import.meta.dirname, "..", "bin", "tenders.js")
const bundleScript = join(import.meta.dirname, "..", "scripts", "bundle.mjs")

/**
 * How long a start may take: one that imports classification packs (`TENDERS_CLASSIFICATIONS_DIR`) into a store
 * analyses its tenders again before it listens, over two minutes for 100,000 on a slow instance.
 */
const startLimitMs = 600_000

/**
 * `tenders serve --port PORT --no-seed --no-schedule` with `nodeArgs` before the launcher, in `env`: nothing
 * scheduled, so the load is all the bench's and the store stays as the bench left it (the sweep would close its
 * lapsed tenders). Its log goes to `dataDir/serve.log`, as an operator's would, not through a pipe this process
 * would have to read. Resolves once it answers /health (within `startLimitMs`). It serves from its bundle, made again
 * from the sources first as `npm start` does (unless `TENDERS_FROM_SOURCES=1`): what an operator runs is what is
 * measured.
 */
export const startServe = async (options: {
  readonly port: number
  readonly dataDir: string
  readonly env: NodeJS.ProcessEnv
  readonly nodeArgs?: ReadonlyArray<string>
}) => {
  if (options.env["TENDERS_FROM_SOURCES"] !== "1") {
    const made = spawnSync(process.execPath, [bundleScript], { encoding: "utf8" })
    if (made.status !== 0) throw new Error(`the serve bundle could not be made:\n${made.stderr}`)
  }
  const log = join(options.dataDir, "serve.log")
  const child: ChildProcess = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), tendersBin, "serve", "--port", String(options.port), "--no-seed", "--no-schedule"],
    { env: options.env, stdio: ["ignore", openSync(log, "w"), openSync(log, "a")] }
  )
  const errors = () => readFileSync(log, "utf8").slice(-4000)
  const deadline = Date.now() + startLimitMs
  for (;;) {
    if (child.exitCode !== null) throw new Error(`tenders serve exited with ${child.exitCode}:\n${errors()}`)
    const ok = await fetch(`http://127.0.0.1:${options.port}/health`).then(
      (res) => res.ok,
      () => false
    )
    if (ok) return child
    if (Date.now() > deadline) {
      child.kill("SIGKILL") // not left behind, holding the store
      throw new Error(`tenders serve did not answer /health in ${startLimitMs / 1000} s:\n${errors()}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}

/** Stops a server `startServe` started (SIGTERM), once it exited. */
export const stopServe = (server: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (server.exitCode !== null) return resolve()
    server.once("exit", () => resolve())
    server.kill("SIGTERM")
  })

/**
 * The bench's requests over stored ids: a search of a random query class (a third with filters, drawn from `data`,
 * the generator that made the tenders) or, `getShare` of them, a get-tender of a stored id; drawn in a sequence of
 * its own (seed 7), the same from run to run.
 */
export const requestMix = (ids: ReadonlyArray<string>, data: ReturnType<typeof benchData>) => {
  const mix = benchData(7)
  return (getShare: number): autocannon.Request => {
    if (mix.random() < getShare) return { method: "GET", path: `/v1/tenders/${mix.pick(ids)}` }
    const [, make] = mix.pick(data.classes)
    const request = make(0)
    return {
      method: "POST",
      path: "/v1/tenders/search",
      body: JSON.stringify(mix.random() < 1 / 3 ? data.withFilters(request) : request)
    }
  }
}

/**
 * The `Accept-Encoding` the bench's requests carry unless told otherwise: what Node's `fetch` sends, and so the SDK
 * (browsers and most HTTP libraries send gzip too). The server sends a kept search answer's gzipped bytes as they are
 * to such a client, and unpacks them for one that does not accept gzip (`--accept-encoding identity`).
 */
export const fetchAcceptEncoding = "gzip, deflate"

/**
 * autocannon at `connections` for `amount` requests, each made by `request`, all with `key` and `acceptEncoding`
 * (`fetchAcceptEncoding` unless given).
 */
export const loadServe = (options: {
  readonly base: string
  readonly key: string
  readonly connections: number
  readonly amount: number
  readonly request: () => autocannon.Request
  readonly acceptEncoding?: string
}) =>
  autocannon({
    url: options.base,
    connections: options.connections,
    amount: options.amount,
    sampleInt: 100,
    // Called before every request: the defaults (host) with this request's method, path, body and its own headers
    // (autocannon keeps the headers it built last, a POST's Content-Length included, unless given new ones).
    requests: [
      {
        setupRequest: (defaults) => {
          const next = options.request()
          const json: Record<string, string> = next.body === undefined ? {} : { "content-type": "application/json" }
          const headers = {
            authorization: `Bearer ${options.key}`,
            "accept-encoding": options.acceptEncoding ?? fetchAcceptEncoding,
            ...json
          }
          return { ...defaults, ...next, headers }
        }
      }
    ]
  })

/** A load's rate in requests a second, from its start and finish (autocannon ends it at its next sample). */
export const rateOf = (result: autocannon.Result) =>
  (1000 * result.requests.total) / (result.finish.getTime() - result.start.getTime())
