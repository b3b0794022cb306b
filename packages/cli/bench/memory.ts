// sh scripts/with-node.sh node scripts/run-ts.mjs packages/cli/bench/memory.ts --database-url URL [--n N]
//   [--amounts 2000,12000,20000] [--connections 1,16,64] [--gc] [--live-every S] [--snapshots DIR]
//   [--node-flags="--flag ..."] [--env NAME=VALUE,...]
// What the server's memory is made of under bench:http's mix, on a store a bench:http run left (same N). Starts
// `tenders serve` with the inspector on a loopback port, and after start, after its first search and after each
// level: its RSS split by kind of mapping (smaps.ts), V8's spaces (used and committed), and with `--gc` the same
// again after full collections the inspector asks for (what is garbage against what is alive); `--snapshots DIR`
// writes a heap snapshot at each point (after the figures: a snapshot grows the RSS). `--node-flags` replaces the
// launcher's V8 flags for `serve` when it names them; `--env` adds to the server's environment.
import { Effect } from "effect"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { appLayer } from "../src/Runtime.ts"
import { benchData } from "./data.ts"
import { benchKey, freePort, loadServe, rateOf, requestMix, startServe, stopServe } from "./server.ts"
import { Inspector } from "./inspector.ts"
import { describeSmaps, smapsOf } from "./smaps.ts"

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100000" },
    "database-url": { type: "string" },
    amounts: { type: "string", default: "2000,12000,20000" },
    connections: { type: "string", default: "1,16,64" },
    "get-share": { type: "string", default: "0.2" },
    "warm-up": { type: "string", default: "2000" },
    gc: { type: "boolean", default: false },
    "live-every": { type: "string", default: "0" },
    snapshots: { type: "string" },
    "node-flags": { type: "string", default: "" },
    env: { type: "string", default: "" }
  }
})
const databaseUrl = values["database-url"] ?? process.env["DATABASE_URL"]
if (databaseUrl === undefined) throw new Error("bench:memory needs --database-url (a store bench:http left)")
const total = Number(values.n)
const connections = values.connections.split(",").map(Number)
const amounts = values.amounts.split(",").map(Number)
const getShare = Number(values["get-share"])
const dataDir = mkdtempSync(join(tmpdir(), "tdm-"))
const data = benchData(42)
const { makeTender } = data

const prepare = Effect.gen(function* () {
  const ids: Array<string> = []
  for (let i = 0; i < total; i++) {
    const id = makeTender(i).id // the same random sequence as the run that stored them (bench:http)
    if (i % 97 === 0) ids.push(id)
  }
  return { ids, key: yield* benchKey }
})

const startServer = (port: number, inspectPort: number) => {
  const env: NodeJS.ProcessEnv = { ...process.env, TENDERS_DATA_DIR: dataDir, DATABASE_URL: databaseUrl }
  for (const pair of values.env.split(",").filter((p) => p !== "")) {
    const at = pair.indexOf("=")
    env[pair.slice(0, at)] = pair.slice(at + 1)
  }
  const flags = values["node-flags"].split(" ").filter((f) => f !== "")
  return startServe({ port, dataDir, env, nodeArgs: [`--inspect=127.0.0.1:${inspectPort}`, ...flags] })
}

const main = async () => {
  const { ids, key } = await Effect.runPromise(
    prepare.pipe(Effect.provide(appLayer({ dataDir, databaseUrl })), Effect.scoped)
  )
  const [port, inspectPort] = [await freePort(), await freePort()]
  const server = await startServer(port, inspectPort)
  const pid = server.pid ?? 0
  const base = `http://127.0.0.1:${port}`
  const nextRequest = requestMix(ids, data)
  const load = (connections: number, amount: number) =>
    loadServe({ base, key, connections, amount, request: () => nextRequest(getShare) })
  const inspector = await Inspector.connect(inspectPort)
  if (values.snapshots !== undefined) mkdirSync(values.snapshots, { recursive: true })
  const report = async (point: string) => {
    process.stdout.write(`\n== ${point}\n${describeSmaps(smapsOf(pid))}\n${await inspector.heapSpaces()}\n`)
    if (values.gc) {
      await inspector.collectGarbage()
      process.stdout.write(
        `-- after full collections\n${describeSmaps(smapsOf(pid))}\n${await inspector.heapSpaces()}\n`
      )
    }
    if (values.snapshots !== undefined) {
      const file = join(values.snapshots, `${point.replaceAll(/\W+/gu, "-")}.heapsnapshot`)
      await inspector.writeSnapshot(file)
      process.stdout.write(`snapshot ${file}\n`)
    }
  }
  try {
    process.stdout.write(`server pid ${pid}, flags ${values["node-flags"] || "(launcher's)"}, env ${values.env}\n`)
    await new Promise((resolve) => setTimeout(resolve, 5000))
    await report("start")
    const warmUp = Number(values["warm-up"])
    await fetch(`${base}/v1/tenders/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ q: "medical equipment" })
    })
    await report("first search")
    if (warmUp > 0) await load(8, warmUp)
    let sent = warmUp
    for (const [i, level] of connections.entries()) {
      // `--live-every S`: full collections every S seconds during the level, the live set's peak under load.
      let live = 0
      const every = Number(values["live-every"]) * 1000
      const sampler =
        every > 0
          ? setInterval(() => {
              void inspector.collectGarbage().then(async () => {
                live = Math.max(
                  live,
                  Number(
                    await inspector.evaluate("process.getBuiltinModule('node:v8').getHeapStatistics().used_heap_size")
                  )
                )
              })
            }, every)
          : undefined
      const result = await load(level, amounts[i] ?? 0)
      clearInterval(sampler)
      if (every > 0) process.stdout.write(`\nlive set's peak during the level: ${(live / 1048576).toFixed(1)} MB\n`)
      sent += result.requests.total
      const failed = result.non2xx + result.errors
      await report(`${level} connections, ${sent} requests, ${rateOf(result).toFixed(0)} req/s, ${failed} failed`)
    }
  } finally {
    inspector.close()
    await stopServe(server)
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
