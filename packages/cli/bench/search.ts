// npm run bench:search -- [--n 100000] [--queries 200] [--database-url URL] [--reuse] [--only CLASS] [--naive 20]
//   [--classifications DIR]
// Generates N synthetic tenders into PostgreSQL (DATABASE_URL / --database-url) or a fresh embedded store,
// then prints the ingest rate and p50/p95/p99 search latency per query class. `--reuse` searches the tenders
// a previous run left in the database (same N) instead of ingesting; `--only` runs the classes whose name
// contains CLASS; `--naive` is how many queries of each class the naive baseline runs (0: none);
// `--classifications` (default: TENDERS_CLASSIFICATIONS_DIR) imports the classification packs of that folder first;
// `--by-query` also prints each class's p95 per query text.
// The naive baseline is measured as a search (the same use case on a store whose search is the naive statement) and
// as its statement alone; the ratio is the baseline's p95 over the class's (above 1x: faster than the baseline).
import {
  type QueryPlan,
  type SearchQuery,
  type SearchRequest,
  SearchText,
  searchTenders,
  TenderStore
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { anyOf, TenderRow, tenderColumns, usePacksOfStore } from "@tenders/store-postgres"
import { Effect, Schema } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseArgs } from "node:util"
import { importPackFiles, packFilesIn } from "../src/Packs.ts"
import { appLayer } from "../src/Runtime.ts"
import { benchData } from "./data.ts"

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100000" },
    queries: { type: "string", default: "200" },
    "database-url": { type: "string" },
    reuse: { type: "boolean", default: false },
    only: { type: "string", default: "" },
    naive: { type: "string", default: "20" },
    classifications: { type: "string" },
    "by-query": { type: "boolean", default: false }
  }
})
const packsFolder = values.classifications ?? process.env["TENDERS_CLASSIFICATIONS_DIR"]
const total = Number(values.n)
const perClass = Number(values.queries)
const naiveSample = Number(values.naive)
/** How many searches of each class, filtered and not, run unmeasured before any is measured. */
const warmUp = 100
const databaseUrl = values["database-url"] ?? process.env["DATABASE_URL"]

const { makeTender, classes, withFilters } = benchData(42)

// The naive baseline: every open tender having any word of the query's plan, ranked by ts_rank over all of them, its
// page read with the columns every search reads. Measured two ways: the statement alone, and as the search: the same
// use case (`searchTenders`: plan, corrections, cards, hint, the sources' health) on a store whose search is that
// statement, so the ratio compares the ranking, not a bare statement with a whole response.
const naiveTenders = (text: QueryPlan, limit: number) =>
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const any = text.clauses.map((c) => anyOf(c.alternatives.map((a) => a.term))).join(" | ")
    if (any === "") return []
    const rows = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t
      WHERE t.status IN ('open', 'amended') AND t.deadline_sort > now() AND t.search_vec @@ ${any}::tsquery
      ORDER BY ts_rank(t.search_vec, ${any}::tsquery) DESC, t.deadline_sort, t.id LIMIT ${limit}`.unprepared
    return yield* Schema.decodeUnknownEffect(Schema.Array(TenderRow))(rows)
  }).pipe(Effect.orDie)
const naiveStatement = (request: SearchRequest) =>
  Effect.gen(function* () {
    return yield* naiveTenders((yield* SearchText).queryPlan(request.q ?? ""), 10)
  })
const naiveSearch = (request: SearchRequest) =>
  Effect.gen(function* () {
    const store = yield* TenderStore
    const search = (query: SearchQuery) =>
      Effect.map(naiveTenders(query.text, query.limit), (tenders) => ({ tenders, approximate: false }))
    return yield* searchTenders(request, "business").pipe(Effect.provideService(TenderStore, { ...store, search }))
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

const dataDir = databaseUrl === undefined ? mkdtempSync(join(tmpdir(), "tdb-")) : ""
const program = Effect.gen(function* () {
  process.stdout.write(
    `store: ${databaseUrl === undefined ? `embedded PGlite (${dataDir})` : "PostgreSQL"}, tenders: ${total}\n`
  )
  const store = yield* TenderStore
  // The text analysis builds its lexicon on first use (about a second at start): a process's cost, not a tender's.
  const lexiconStarted = performance.now()
  ;(yield* SearchText).queryPlan("warm up")
  process.stdout.write(`text analysis lexicon built in ${((performance.now() - lexiconStarted) / 1000).toFixed(1)} s\n`)
  if (packsFolder !== undefined) {
    for (const [pack, files] of packFilesIn(packsFolder)) {
      const { info } = yield* importPackFiles(pack, files, () => Effect.void)
      process.stdout.write(`${pack}: ${info.inForce} in force, ${info.withdrawn} withdrawn (version ${info.version})\n`)
    }
    yield* usePacksOfStore
    const packsStarted = performance.now()
    ;(yield* SearchText).queryPlan("warm up")
    process.stdout.write(`with the packs, built in ${((performance.now() - packsStarted) / 1000).toFixed(1)} s\n`)
  }
  if (values.reuse) {
    const size = yield* store.size
    if (size !== total) return yield* Effect.die(new Error(`--reuse: the store holds ${size} tenders, not ${total}`))
    for (let i = 0; i < total; i++) makeTender(i) // the same random sequence as the run that ingested them
  } else {
    const started = performance.now()
    const chunk = 1_000
    for (let offset = 0; offset < total; offset += chunk) {
      const batch = Array.from({ length: Math.min(chunk, total - offset) }, (_, k) => makeTender(offset + k))
      yield* store.upsert(batch)
      if ((offset / chunk) % 10 === 0) process.stderr.write(`\ringested ${offset + batch.length}/${total}`)
    }
    const seconds = (performance.now() - started) / 1000
    process.stdout.write(
      `\ningest: ${total} tenders in ${seconds.toFixed(1)} s = ${Math.round(total / seconds)} tenders/s\n`
    )
    const analyzeStarted = performance.now()
    yield* store.refreshStatistics
    const analyzeSeconds = (performance.now() - analyzeStarted) / 1000
    process.stdout.write(`statistics refresh (VACUUM ANALYZE): ${analyzeSeconds.toFixed(1)} s\n`)
  }
  // Warm-up, not measured: each class's first searches, filtered and not, compile the code every search runs and
  // make the statements' plans; measured cold, the classes measured first paid for those after them, and the naive
  // baseline, measured last, for none (at 1M the rare word measured 0.9x cold and 1.2-1.5x warm, 2026-11-27).
  const chosen = classes.filter(([name]) => name.includes(values.only))
  for (const [, make] of chosen)
    for (let i = 0; i < warmUp; i++) {
      yield* searchTenders(make(i), "business")
      yield* searchTenders(withFilters(make(i)), "business")
    }
  process.stdout.write(
    `\n${"query class".padEnd(34)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)}  hits` +
      `  ${"naive search".padStart(12)}  ratio  ${"statement".padStart(9)}  ratio\n`
  )
  // Every class's own queries first, then the naive baseline of each: the baseline reads every matching tender, which
  // pushes the pages of the others out of the caches (a cost of the baseline, not of the class measured after it).
  const measured: Array<{ readonly label: string; readonly sorted: ReadonlyArray<number>; readonly hits: number }> = []
  const byQuery = new Map<string, Array<number>>()
  for (const [name, make] of chosen) {
    for (const filtered of [false, true]) {
      const timings: Array<number> = []
      let hits = 0
      for (let i = 0; i < perClass; i++) {
        const request = filtered ? withFilters(make(i)) : make(i)
        const t0 = performance.now()
        const response = yield* searchTenders(request, "business")
        timings.push(performance.now() - t0)
        hits += response.results.length
        const key = `${name}${filtered ? " + filters" : ""}: ${request.q ?? ""}`
        byQuery.set(key, [...(byQuery.get(key) ?? []), performance.now() - t0])
      }
      measured.push({
        label: `${name}${filtered ? " + filters" : ""}`,
        sorted: timings.toSorted((a, b) => a - b),
        hits
      })
    }
  }
  // The baseline without filters only, on a sample (it ranks every match: seconds on broad words at 1M); each query
  // as a search, then its statement alone.
  const naive95 = new Map<string, { readonly search: number; readonly statement: number }>()
  for (const [name, make] of naiveSample > 0 ? chosen : []) {
    const searches: Array<number> = []
    const statements: Array<number> = []
    for (let i = 0; i < Math.min(naiveSample, perClass); i++) {
      const t1 = performance.now()
      yield* naiveSearch(make(i))
      const t2 = performance.now()
      yield* naiveStatement(make(i))
      statements.push(performance.now() - t2)
      searches.push(t2 - t1)
    }
    naive95.set(name, {
      search: percentile(
        searches.toSorted((a, b) => a - b),
        95
      ),
      statement: percentile(
        statements.toSorted((a, b) => a - b),
        95
      )
    })
  }
  for (const { label, sorted, hits } of measured) {
    const ms = (p: number) => percentile(sorted, p).toFixed(1).padStart(8)
    const naive = naive95.get(label)
    const p95 = percentile(sorted, 95)
    const baseline =
      naive === undefined
        ? ""
        : `  ${naive.search.toFixed(1).padStart(12)}  ${(naive.search / p95).toFixed(1).padStart(5)}x` +
          `  ${naive.statement.toFixed(1).padStart(9)}  ${(naive.statement / p95).toFixed(1).padStart(5)}x`
    process.stdout.write(
      `${label.padEnd(34)} ${ms(50)} ${ms(95)} ${ms(99)}  ${(hits / perClass).toFixed(1)}${baseline}\n`
    )
  }
  if (values["by-query"])
    for (const [key, timings] of byQuery) {
      const sorted = timings.toSorted((a, b) => a - b)
      const ms = (p: number) => percentile(sorted, p).toFixed(1)
      process.stdout.write(`  ${key.padEnd(60)} p50 ${ms(50)}  p95 ${ms(95)}  n ${sorted.length}\n`)
    }
})

await Effect.runPromise(program.pipe(Effect.provide(appLayer({ dataDir, databaseUrl })), Effect.scoped))
if (dataDir !== "") rmSync(dataDir, { recursive: true, force: true })
