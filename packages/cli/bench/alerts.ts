// npm run bench:alerts -- [--watchlists 10000,100000] [--tenders 20000]
// Measures the alert matcher: changed tenders per second against N watchlists (core's inverted index, the
// same code evaluateAlerts runs on each batch of tender events), and prints the figures.
import { indexWatchlists, prepareWatchlist, type MatchToken, RatesTable, type TenderFacts, TenderId } from "@tenders/core"
import { DateTime, Schema } from "effect"
import { parseArgs } from "node:util"
import rates from "../../core/src/data/reference-rates.json" with { type: "json" }
import { seededRandom } from "./random.ts"

const { values } = parseArgs({ options: { watchlists: { type: "string", default: "10000,100000" }, tenders: { type: "string", default: "20000" } } })
const table = Schema.decodeUnknownSync(RatesTable)(rates)
const { pick, random } = seededRandom(7)

// A vocabulary with a long tail: a few very common words, many rare ones (as tender titles have).
const vocabulary = Array.from({ length: 20_000 }, (_, i) => `w${i}`)
const zipf = () => vocabulary[Math.min(vocabulary.length - 1, Math.floor(Math.exp(random() * Math.log(vocabulary.length))) - 1)] ?? "w0"
const countries = ["DE", "FR", "ES", "IT", "PL", "NL", "SE", "RU", "AM", "RO"]
const now = DateTime.makeUnsafe(Date.now())
const iso = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/u, "Z")

// Watchlists name topics: words past the 100 most common ones, one or two per watchlist.
const topic = () => vocabulary[100 + Math.floor(random() * (vocabulary.length - 100))] ?? "w100"

const makeWatchlist = (i: number) => {
  const words = Array.from({ length: 1 + Math.floor(random() * 2) }, topic)
  const tokens: Array<MatchToken> = words.map((w) => ({ exact: [w], prefix: [] }))
  const filters = {
    q: words.join(" "),
    ...(random() < 0.5 ? { countries: [pick(countries), pick(countries)] } : {}),
    ...(random() < 0.3 ? { minBudget: 100_000, budgetCurrency: "EUR" as const } : {})
  }
  return prepareWatchlist(`w-${i}`, filters, tokens, table)
}

const makeTender = (i: number): TenderFacts => ({
  lexemes: new Set(Array.from({ length: 12 }, zipf)),
  record: {
    id: TenderId.make(`ted-${i}-2026`), source: "ted", nativeId: `${i}-2026`, title: "t", buyer: null, country: pick(countries), region: null,
    budget: String(Math.round(random() * 5_000_000)), currency: "EUR", deadline: iso(1 + random() * 60), publishedAt: null, status: "open",
    url: "https://example.org", cpvCodes: ["45233140"], okpd2Codes: [], lots: [], docsUrl: []
  }
})

const tenders = Array.from({ length: Number(values.tenders) }, (_, i) => makeTender(i))
process.stdout.write(`changed tenders: ${tenders.length} (12 words each, Zipf-distributed over ${vocabulary.length} words); watchlists: 1-2 topic words, half with countries, 30% with a converted budget floor\n\n`)
process.stdout.write(`${"watchlists".padStart(10)} ${"index ms".padStart(9)} ${"tenders/s".padStart(10)} ${"matches/tender".padStart(15)}\n`)
for (const n of (values.watchlists ?? "").split(",").map(Number)) {
  const prepared = Array.from({ length: n }, (_, i) => makeWatchlist(i))
  const t0 = performance.now()
  const index = indexWatchlists(prepared)
  const built = performance.now() - t0
  let matches = 0
  const t1 = performance.now()
  for (const tender of tenders) matches += index.matching(tender, now).length
  const seconds = (performance.now() - t1) / 1000
  process.stdout.write(`${String(n).padStart(10)} ${built.toFixed(0).padStart(9)} ${Math.round(tenders.length / seconds).toString().padStart(10)} ${(matches / tenders.length).toFixed(2).padStart(15)}\n`)
}
