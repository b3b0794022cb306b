// npm run bench:http -- [--n N] [--database-url URL] [--reuse] [--amounts 10000,45000,45000] [--connections 1,16,64]
//   [--get-share 0.2] [--warm-up 2000] [--stages 2000] [--profile DIR] [--data-dir DIR] [--accept-encoding VALUE]
// Builds a store of N synthetic tenders (bench:search's generator; PostgreSQL with DATABASE_URL / --database-url, N
// 1,000,000 by default; else a fresh embedded store, N 100,000 by default), starts a real `tenders serve` on it, and
// loads it with autocannon: at each number of connections its amount of requests, each a search (a query class of
// bench:search drawn at random, a third with filters) or, `--get-share` of them, a get-tender of a stored id, all
// with one Business key and the `Accept-Encoding` Node's fetch sends (`gzip, deflate`: the SDK's; `--accept-encoding
// identity` for a client that takes no compression). Prints req/s, p50/p99 latency, the server's RSS (VmRSS) after
// each level, and from its /metrics its heap in use and what the search result cache did so far
// (`TENDERS_SEARCH_CACHE=0` to run without), and the CPU each request cost the server, PostgreSQL (when on this
// machine) and autocannon, with the rate the machine's cores could serve at that cost and the share of the CPU its
// host took for others (bench/cpu.ts), and the time its requests spent in the server by its latency histograms
// (bench/server-time.ts).
// `--stages` first times each part of a call on its own at 16 connections: /health (no key), get-tender (key, quota,
// one row) and search. `--profile DIR` runs the server under `node --cpu-prof` and prints where its CPU time went
// (from its sources, not its bundle, so that the profile names each function's file).
// `--data-dir DIR`: the embedded store (and the server's log) in DIR, kept after the run (`--reuse` loads it again).
import { PgClient } from "@effect/sql-pg"
import { defaultSourceIntervals, sourceCodes, TenderStore } from "@tenders/core"
import autocannon from "autocannon"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { randomUUID } from "node:crypto"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { Duration, Effect } from "effect"
import { appLayer } from "../src/Runtime.ts"
import { benchData } from "./data.ts"
import {
  benchKey,
  fetchAcceptEncoding,
  freePort,
  loadServe,
  rateOf,
  requestMix,
  startServe,
  stopServe
} from "./server.ts"
import { summariseProfile } from "./profile.ts"
import { describeCpu, readCpu } from "./cpu.ts"
import { describeServerTime } from "./server-time.ts"

const { values } = parseArgs({
  options: {
    n: { type: "string" },
    "database-url": { type: "string" },
    reuse: { type: "boolean", default: false },
    amounts: { type: "string", default: "10000,45000,45000" },
    connections: { type: "string", default: "1,16,64" },
    "get-share": { type: "string", default: "0.2" },
    "warm-up": { type: "string", default: "2000" },
    stages: { type: "string", default: "2000" },
    profile: { type: "string" },
    "data-dir": { type: "string" },
    "accept-encoding": { type: "string", default: fetchAcceptEncoding }
  }
})
const databaseUrl = values["database-url"] ?? process.env["DATABASE_URL"]
const total = Number(values.n ?? (databaseUrl === undefined ? 100_000 : 1_000_000))
const connections = values.connections.split(",").map(Number)
const amounts = values.amounts.split(",").map(Number)
if (amounts.length !== connections.length) throw new Error("--amounts needs one amount per --connections level")
const getShare = Number(values["get-share"])
/** Every load of the run, with the `Accept-Encoding` asked for. */
const load = (options: Omit<Parameters<typeof loadServe>[0], "acceptEncoding">) =>
  loadServe({ ...options, acceptEncoding: values["accept-encoding"] })
/** PostgreSQL on this machine (its processes' CPU is counted): a loopback host, or a socket's path. */
const localPostgres =
  databaseUrl !== undefined && ["127.0.0.1", "localhost", "[::1]", ""].includes(new URL(databaseUrl).hostname)
const dataDir = values["data-dir"] ?? mkdtempSync(join(tmpdir(), "tdh-"))
mkdirSync(dataDir, { recursive: true })

const data = benchData(42)
const { makeTender } = data

/** Stores the tenders (or checks a previous run's), makes a Business key; a sample of stored ids for get-tender. */
const prepare = Effect.gen(function* () {
  const store = yield* TenderStore
  const ids: Array<string> = []
  const started = performance.now()
  if (values.reuse) {
    const size = yield* store.size
    if (size !== total) return yield* Effect.die(new Error(`--reuse: the store holds ${size} tenders, not ${total}`))
    for (let i = 0; i < total; i++) {
      const id = makeTender(i).id // the same random sequence as the run that stored them
      if (i % 97 === 0) ids.push(id)
    }
  } else {
    for (let offset = 0; offset < total; offset += 1_000) {
      const batch = Array.from({ length: Math.min(1_000, total - offset) }, (_, k) => makeTender(offset + k))
      yield* store.upsert(batch)
      for (const [k, tender] of batch.entries()) if ((offset + k) % 97 === 0) ids.push(tender.id)
      if ((offset / 1_000) % 10 === 0) process.stderr.write(`\ringested ${offset + batch.length}/${total}`)
    }
    yield* store.refreshStatistics
    process.stderr.write(`\n`)
  }
  process.stdout.write(`tenders ${values.reuse ? "checked" : "stored"} in ${seconds(started)} s\n`)
  yield* runHistory
  return { ids, key: yield* benchKey }
})

/**
 * The sources' run history a year at the default intervals leaves (hourly, two-hourly, hourly; one run in 20
 * failed), written once: the sources' health is read at every search the cache does not answer, and from this
 * history, as in a store that has served for a year.
 */
const runHistory = Effect.gen(function* () {
  const sql = yield* PgClient.PgClient
  const [{ runs } = { runs: 0 }] = yield* sql<{ readonly runs: number }>`SELECT count(*)::int AS runs FROM source_runs`
  if (runs > 0) return
  for (const source of sourceCodes) {
    const hours = Duration.toHours(defaultSourceIntervals[source])
    yield* sql`INSERT INTO source_runs (source, started_at, finished_at, ok)
      SELECT ${source}, now() - make_interval(hours => i), now() - make_interval(hours => i, mins => -3), i % 20 <> 0
      FROM generate_series(${hours}::int, 8760, ${hours}::int) AS i`
  }
  const [{ written } = { written: 0 }] = yield* sql<{ readonly written: number }>`
    SELECT count(*)::int AS written FROM source_runs`
  process.stdout.write(`source runs: ${written} written (a year at the default intervals)\n`)
})

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1)

/** `tenders serve` on the bench's store, with nothing scheduled; under `--cpu-prof` when profiling. */
const startServer = (port: number) => {
  if (values.profile !== undefined) mkdirSync(values.profile, { recursive: true })
  const env: NodeJS.ProcessEnv = { ...process.env, TENDERS_DATA_DIR: dataDir, TENDERS_METRICS_TOKEN: metricsToken }
  if (databaseUrl === undefined) delete env["DATABASE_URL"]
  else env["DATABASE_URL"] = databaseUrl
  if (values.profile !== undefined) env["TENDERS_FROM_SOURCES"] = "1"
  const nodeArgs = values.profile === undefined ? [] : ["--cpu-prof", "--cpu-prof-dir", values.profile]
  return startServe({ port, dataDir, env, nodeArgs })
}

/** The bench's token for the server's /metrics (the search cache's counts and the heap, after each level). */
const metricsToken = randomUUID()

/** From the server's /metrics: the search result cache's hits, misses and searches run without it; the heap in MB. */
const scrape = async (base: string) => {
  const text = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }).then((res) =>
    res.text()
  )
  const value = (series: string) => {
    const line = text.split("\n").find((l) => l.startsWith(`${series} `))
    return line === undefined ? 0 : Number(line.slice(series.length + 1))
  }
  const cache = (result: string) => value(`tenders_search_cache_total{result="${result}"}`)
  return {
    text,
    cache: `cache hit ${cache("hit")}, miss ${cache("miss")}, off ${cache("off")}`,
    heap: (value("tenders_process_heap_used_bytes") / 1024 / 1024).toFixed(0)
  }
}

/** The server's resident set, in MB, from /proc (Linux). */
const rssOf = (pid: number) => {
  const line = /VmRSS:\s+(\d+) kB/u.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
  return line === null ? "?" : (Number(line[1]) / 1024).toFixed(0)
}

const describeRun = (result: autocannon.Result) => {
  // autocannon ends a run at its next sample (every 100 ms here), so the rate is low by at most that.
  const rate = rateOf(result).toFixed(0)
  const failed = result.non2xx + result.errors
  return (
    `${String(result.requests.total).padStart(8)} ${rate.padStart(8)} ${result.latency.p50.toFixed(1).padStart(7)}` +
    ` ${result.latency.p99.toFixed(1).padStart(7)} ${String(failed).padStart(7)}`
  )
}

const main = async () => {
  process.stdout.write(
    `store: ${databaseUrl === undefined ? `embedded PGlite (${dataDir})` : "PostgreSQL"}, tenders: ${total},` +
      ` Accept-Encoding: ${values["accept-encoding"]}\n`
  )
  const { ids, key } = await Effect.runPromise(
    prepare.pipe(Effect.provide(appLayer({ dataDir, databaseUrl })), Effect.scoped)
  )
  const nextRequest = requestMix(ids, data)
  const port = await freePort()
  const server = await startServer(port)
  const pid = server.pid ?? 0
  const base = `http://127.0.0.1:${port}`
  /** A load, with the CPU each of its requests cost (bench/cpu.ts). */
  const withCpu = async (run: () => Promise<autocannon.Result>) => {
    const before = readCpu(pid, localPostgres)
    const result = await run()
    return [result, describeCpu(before, readCpu(pid, localPostgres), result.requests.total)] as const
  }
  try {
    process.stdout.write(`server pid ${pid}, RSS at start ${rssOf(pid)} MB\n`)
    const warmUp = Number(values["warm-up"])
    if (warmUp > 0) await load({ base, key, connections: 8, amount: warmUp, request: () => nextRequest(getShare) })
    const header = `${"requests".padStart(8)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)}`
    const stageAmount = Number(values.stages)
    if (stageAmount > 0) {
      process.stdout.write(`\nstages, 16 connections  ${header} ${"failed".padStart(7)}\n`)
      const stages: ReadonlyArray<readonly [string, () => autocannon.Request]> = [
        ["GET /health (no key)", () => ({ method: "GET", path: "/health" })],
        ["get-tender (key, quota, row)", () => nextRequest(1)],
        ["search", () => nextRequest(0)]
      ]
      for (const [name, request] of stages) {
        const [result, cpu] = await withCpu(() => load({ base, key, connections: 16, amount: stageAmount, request }))
        process.stdout.write(`${name.padEnd(30)} ${describeRun(result)}\n${"".padEnd(31)}CPU per request: ${cpu}\n`)
      }
    }
    process.stdout.write(`\nmix (${getShare * 100}% get-tender) ${header} ${"failed".padStart(7)}  RSS MB  heap MB\n`)
    let sent = 0
    let scraped = (await scrape(base)).text
    for (const [i, level] of connections.entries()) {
      const amount = amounts[i] ?? 0
      const [result, cpu] = await withCpu(() =>
        load({ base, key, connections: level, amount, request: () => nextRequest(getShare) })
      )
      sent += result.requests.total
      const after = await scrape(base)
      const memory = `${rssOf(pid).padStart(6)}  ${after.heap.padStart(7)}`
      process.stdout.write(`${`${level} connections`.padEnd(22)} ${describeRun(result)}  ${memory}  (${after.cache})\n`)
      process.stdout.write(`${"".padEnd(23)}CPU per request: ${cpu}\n`)
      process.stdout.write(`${"".padEnd(23)}time in the server: ${describeServerTime(scraped, after.text)}\n`)
      scraped = after.text
    }
    process.stdout.write(`server RSS after ${sent} measured requests (and the warm-up): ${rssOf(pid)} MB\n`)
  } finally {
    await stopServe(server)
  }
  if (values.profile !== undefined) {
    const newest = readdirSync(values.profile)
      .filter((f) => f.endsWith(".cpuprofile"))
      .toSorted()
      .at(-1)
    if (newest !== undefined) process.stdout.write(`\n${summariseProfile(join(values.profile, newest))}`)
  }
  if (values["data-dir"] === undefined) rmSync(dataDir, { recursive: true, force: true })
}

await main()
