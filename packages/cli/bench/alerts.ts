// npm run bench:alerts -- [--watchlists 10000,100000] [--tenders 20000] [--e2e-watchlists 10000,100000]
//                          [--e2e-tenders 5000] [--database-url URL]
// 1. The alert matcher alone: changed tenders per second against N watchlists (core's inverted index, the same
//    code evaluateAlerts runs on each batch of tender events).
// 2. End to end through the store: N watchlists saved, M tenders ingested (tender events), then one
//    run of the server's alert evaluator timed: read events and tender facts, match, insert the alerts and their
//    outbox rows in one transaction; then a quiet run (no new events: the per-tick cost). On a fresh
//    embedded store in a temporary directory, or on a scratch database created (and dropped) on the
//    PostgreSQL server of --database-url / DATABASE_URL.
import { PgClient } from "@effect/sql-pg"
import {
  AccountStore,
  evaluateAlerts,
  indexFilters,
  ingestRecords,
  makeAlertEvaluator,
  RatesTable,
  ratesInUseOf,
  type TenderFacts,
  TenderId,
  toFilterQuery,
  type TenderRecord
} from "@tenders/core"
import { simpleQueryPlan } from "@tenders/core/testing"
import { DateTime, Effect, Redacted, Schema } from "effect"
import { Reactivity } from "effect/reactivity"
import { randomUUID } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import rates from "../../core/src/data/reference-rates.json" with { type: "json" }
import { appLayer } from "../src/Runtime.ts"
import { seededRandom } from "./random.ts"

const { values } = parseArgs({
  options: {
    watchlists: { type: "string", default: "10000,100000" },
    tenders: { type: "string", default: "20000" },
    "e2e-watchlists": { type: "string", default: "10000,100000" },
    "e2e-tenders": { type: "string", default: "5000" },
    "database-url": { type: "string" }
  }
})
const databaseUrl = values["database-url"] ?? process.env["DATABASE_URL"]
const table = ratesInUseOf(Schema.decodeUnknownSync(RatesTable)(rates), "the bundled table")
const { pick, random, zipfRank } = seededRandom(7)

// A vocabulary with a long tail: a few very common words, many rare ones (as tender titles have).
const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i}`)
const zipf = () => vocabulary[zipfRank(vocabulary.length)] ?? "w0"
const countries = ["DE", "FR", "ES", "IT", "PL", "NL", "SE", "RU", "AM", "RO"]
const now = DateTime.makeUnsafe(Date.now())
const iso = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/u, "Z")

// Watchlists name topics: words past the 100 most common ones, one or two per watchlist.
const topic = () => vocabulary[100 + Math.floor(random() * (vocabulary.length - 100))] ?? "w100"

const makeWatchlistInput = () => {
  const words = Array.from({ length: 1 + Math.floor(random() * 2) }, topic)
  const filters = {
    q: words.join(" "),
    ...(random() < 0.5 ? { countries: [pick(countries), pick(countries)] } : {}),
    ...(random() < 0.3 ? { minBudget: 100_000, budgetCurrency: "EUR" as const } : {})
  }
  return { filters }
}
// The synthetic words are their own terms (as the simple analysis makes them): the matcher is what is measured.
const makeWatchlist = (i: number) => {
  const { filters } = makeWatchlistInput()
  return { id: `w-${i}`, query: toFilterQuery(filters, table, simpleQueryPlan(filters.q)) }
}

const makeRecord = (i: number, words: ReadonlyArray<string>): TenderRecord => ({
  id: TenderId.make(`ted-${i}-2026`),
  source: "ted",
  nativeId: `${i}-2026`,
  title: words.join(" "),
  buyer: null,
  country: pick(countries),
  region: null,
  budget: String(Math.round(random() * 5_000_000)),
  currency: "EUR",
  deadline: iso(1 + random() * 60),
  publishedAt: null,
  status: "open",
  url: "https://example.org",
  cpvCodes: ["45233140"],
  okpd2Codes: [],
  lots: [],
  docsUrl: []
})
const makeTender = (i: number): TenderFacts => {
  const words = Array.from({ length: 12 }, zipf)
  return { lexemes: new Set(words), record: makeRecord(i, words) }
}

/** A table column: its title and its width (cells are right-aligned, one space apart). */
type Column = readonly [title: string, width: number]

/** One line of a table with these columns. */
const tableLine = (columns: ReadonlyArray<Column>, cells: ReadonlyArray<string | number>): string =>
  `${cells.map((cell, i) => String(cell).padStart(columns[i]?.[1] ?? 0)).join(" ")}\n`

/** The title line of a table with these columns. */
const tableHeader = (columns: ReadonlyArray<Column>): string =>
  tableLine(
    columns,
    columns.map(([title]) => title)
  )

const matcherColumns: ReadonlyArray<Column> = [
  ["watchlists", 10],
  ["index ms", 9],
  ["tenders/s", 10],
  ["matches/tender", 15]
]

const tenders = Array.from({ length: Number(values.tenders) }, (_, i) => makeTender(i))
process.stdout.write(
  `changed tenders: ${tenders.length} (12 words each, Zipf-distributed over ${vocabulary.length} words); ` +
    "watchlists: 1-2 topic words, half with countries, 30% with a converted budget floor\n\n"
)
process.stdout.write(tableHeader(matcherColumns))
for (const n of (values.watchlists ?? "").split(",").map(Number)) {
  const prepared = Array.from({ length: n }, (_, i) => makeWatchlist(i))
  const t0 = performance.now()
  const index = indexFilters(prepared)
  const built = performance.now() - t0
  let matches = 0
  const t1 = performance.now()
  for (const tender of tenders) matches += index.matching(tender, now).length
  const seconds = (performance.now() - t1) / 1000
  process.stdout.write(
    tableLine(matcherColumns, [
      n,
      built.toFixed(0),
      Math.round(tenders.length / seconds),
      (matches / tenders.length).toFixed(2)
    ])
  )
}

const endToEndColumns: ReadonlyArray<Column> = [
  ["watchlists", 10],
  ["tenders", 8],
  ["ingest s", 9],
  ["evaluate s", 11],
  ["tenders/s", 10],
  ["alerts", 7],
  ["outbox", 7],
  ["index ms", 9],
  ["quiet ms", 9],
  ["cold ms", 8]
]

/** One end-to-end run on a fresh store with `watchlistCount` watchlists and `tenderCount` changed tenders. */
const endToEnd = (watchlistCount: number, tenderCount: number) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const accounts = yield* AccountStore
    const owners: Array<string> = []
    for (let a = 0; a < Math.ceil(watchlistCount / 1000); a++) {
      owners.push(
        (yield* accounts.saveAccount({ email: `bench-${a}@example.com`, plan: "business", monthlyLimit: null })).id
      )
    }
    // Saved in bulk (the one-by-one path checks the plan's limit under a row lock; that is not what is measured).
    const createdAt = new Date(Date.now() - 60_000).toISOString()
    for (let start = 0; start < watchlistCount; start += 5_000) {
      const rows = Array.from({ length: Math.min(5_000, watchlistCount - start) }, (_, k) => {
        const { filters } = makeWatchlistInput()
        return {
          id: randomUUID(),
          account_id: owners[(start + k) % owners.length],
          name: `bench ${start + k}`,
          filters,
          email: (start + k) % 2 === 0,
          created_at: createdAt
        }
      })
      yield* sql`INSERT INTO watchlists (id, account_id, name, filters, email, webhook, created_at)
        SELECT d.id, d.account_id, d.name, d.filters, d.email, NULL, d.created_at
        FROM jsonb_to_recordset(${sql.json(rows)}) AS d(id uuid, account_id uuid, name text, filters jsonb,
          email boolean, created_at timestamptz)`
    }
    // The server's evaluator: the first run reads and indexes the watchlists, later runs reuse the index.
    const evaluator = yield* makeAlertEvaluator
    const t = performance.now()
    yield* evaluator
    const index = performance.now() - t
    const records = Array.from({ length: tenderCount }, (_, i) => makeRecord(i, Array.from({ length: 12 }, zipf)))
    const t0 = performance.now()
    yield* ingestRecords(records)
    const ingest = (performance.now() - t0) / 1000
    const t1 = performance.now()
    const created = yield* evaluator
    const evaluate = (performance.now() - t1) / 1000
    const t2 = performance.now()
    yield* evaluator
    const quiet = performance.now() - t2
    const t3 = performance.now()
    yield* evaluateAlerts()
    const cold = performance.now() - t3
    const queued = (yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM deliveries`)[0]?.n ?? 0
    process.stdout.write(
      tableLine(endToEndColumns, [
        watchlistCount,
        tenderCount,
        ingest.toFixed(1),
        evaluate.toFixed(2),
        Math.round(tenderCount / evaluate),
        created,
        queued,
        index.toFixed(0),
        quiet.toFixed(0),
        cold.toFixed(0)
      ])
    )
  })

/** A scratch database on the server of `url`, dropped afterwards. */
const scratchDatabase = (url: string) =>
  Effect.gen(function* () {
    const admin = yield* PgClient.make({ url: Redacted.make(url), maxConnections: 1 })
    const name = `tenders_bench_${Date.now().toString(36)}`
    yield* Effect.acquireRelease(admin.unsafe(`CREATE DATABASE ${name}`), () =>
      Effect.orDie(admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    )
    const target = new URL(url)
    target.pathname = `/${name}`
    return target.toString()
  }).pipe(Effect.provide(Reactivity.layer))

const storeKind = databaseUrl === undefined ? "a fresh embedded store" : "a scratch database on PostgreSQL"
process.stdout.write(
  `\nend to end on ${storeKind}: ingest, then one run of the server's evaluator ` +
    '(events -> facts -> match -> alerts + outbox in one transaction; its watchlist index built before: "index ms"), ' +
    'then a run with nothing new ("quiet ms", a scheduler tick) and the same without the kept index ("cold ms")\n\n'
)
process.stdout.write(tableHeader(endToEndColumns))
for (const n of (values["e2e-watchlists"] ?? "")
  .split(",")
  .filter((x) => x !== "")
  .map(Number)) {
  const dir = mkdtempSync(join(tmpdir(), "tenders-bench-alerts-"))
  try {
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const url = databaseUrl === undefined ? undefined : yield* scratchDatabase(databaseUrl)
          yield* endToEnd(n, Number(values["e2e-tenders"])).pipe(
            Effect.provide(appLayer({ dataDir: dir, databaseUrl: url }))
          )
        })
      )
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
