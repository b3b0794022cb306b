// npm run bench:vocabulary -- [--n 100000] [--types 2000000] [--zipf 1.07]
// What the text analysis keeps as a replica ingests notices with a real vocabulary's long tail, and how fast it reads
// them. bench:search's generator has a few hundred words; real notices keep bringing words not seen before (names,
// places, references). Here every tender's title (10 words), buyer (4) and three lots (6 each) are drawn from `--types`
// made-up words by rank with Zipf's law (exponent `--zipf`: text's vocabulary grows as Heaps' law says), in Latin
// (70 %, a TED country's), Cyrillic (20 %, RU) or Armenian (10 %, AM) letters. Prints, every 25,000 tenders, the time
// and the heap alive after full collections over what it was before the first tender (needs node's --expose-gc,
// given by the npm script).
import { TenderId, type TenderRecord } from "@tenders/core"
import { buildLexicon, makeAnalyzer, readLexiconData, readStopWords } from "@tenders/search-text"
import { parseArgs } from "node:util"
import { seededRandom } from "./random.ts"

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100000" },
    types: { type: "string", default: "2000000" },
    zipf: { type: "string", default: "1.07" }
  }
})
const total = Number(values.n)
const types = Number(values.types)
const exponent = Number(values.zipf)
const collect = (globalThis as { gc?: () => void }).gc
if (collect === undefined) throw new Error("bench:vocabulary needs node --expose-gc (npm run bench:vocabulary)")

const { random, pick } = seededRandom(42)
/** The cumulative weight of each rank, to draw a rank by binary search. */
const cumulative = new Float64Array(types)
let weight = 0
for (let rank = 0; rank < types; rank++) {
  weight += 1 / Math.pow(rank + 1, exponent)
  cumulative[rank] = weight
}
const drawRank = () => {
  const target = random() * weight
  let low = 0
  let high = types - 1
  while (low < high) {
    const middle = (low + high) >> 1
    if ((cumulative[middle] ?? 0) < target) low = middle + 1
    else high = middle
  }
  return low
}

/** Made-up words: a rank spelt in 15 syllables of a script, so that every rank is its own word. */
const syllables = {
  latin: ["ka", "ro", "mi", "ten", "dor", "sa", "lu", "ver", "pa", "ni", "gro", "bel", "st", "an", "que"],
  cyrillic: ["ка", "ро", "ми", "тен", "дор", "са", "лу", "вер", "па", "ни", "гро", "бел", "ст", "ан", "ще"],
  armenian: ["կա", "րո", "մի", "տեն", "դոր", "սա", "լու", "վեր", "պա", "նի", "գրո", "բել", "ստ", "ան", "քե"]
} as const
type Script = keyof typeof syllables
/** Each (script, rank) drawn so far, to count the distinct words (outside the heap measured). */
const drawn = new Uint8Array(types * 3)
let distinct = 0
const scriptNumber: Record<Script, number> = { latin: 0, cyrillic: 1, armenian: 2 }
const wordOf = (rank: number, script: Script) => {
  const at = rank * 3 + scriptNumber[script]
  if (drawn[at] === 0) {
    drawn[at] = 1
    distinct++
  }
  let word = ""
  let rest = rank + 1
  do {
    word += syllables[script][rest % 15]
    rest = Math.floor(rest / 15)
  } while (rest > 0)
  return word
}
const text = (words: number, script: Script) =>
  Array.from({ length: words }, () => wordOf(drawRank(), script)).join(" ")

const tender = (i: number): TenderRecord => {
  const roll = random()
  const script: Script = roll < 0.7 ? "latin" : roll < 0.9 ? "cyrillic" : "armenian"
  const country = script === "latin" ? pick(["DE", "FR", "PL", "IT", "ES"]) : script === "cyrillic" ? "RU" : "AM"
  return {
    id: TenderId.make(`ted-${i}-2026`),
    source: "ted",
    nativeId: `${i}-2026`,
    title: text(10, script),
    buyer: text(4, script),
    country,
    region: null,
    budget: null,
    currency: null,
    deadline: null,
    publishedAt: "2026-11-01T00:00:00Z",
    status: "open",
    url: "https://example.org/notice",
    cpvCodes: [],
    okpd2Codes: [],
    lots: [0, 1, 2].map(() => ({ title: text(6, script), budget: null, currency: null, cpvCodes: [] })),
    docsUrl: []
  }
}

const stopWords = readStopWords()
const analyzer = makeAnalyzer(buildLexicon(readLexiconData(), stopWords), stopWords)
const heapAlive = () => {
  collect()
  collect()
  return process.memoryUsage().heapUsed
}
const before = heapAlive()
process.stdout.write(`tenders    seconds  distinct words  heap alive over the start (MB)\n`)
const started = performance.now()
for (let i = 0; i < total; i++) {
  analyzer.documentTerms(tender(i))
  if ((i + 1) % 25_000 === 0 || i + 1 === total) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const heap = ((heapAlive() - before) / 1024 / 1024).toFixed(1)
    process.stdout.write(
      `${String(i + 1).padStart(7)} ${seconds.padStart(10)} ${String(distinct).padStart(15)} ${heap.padStart(8)}\n`
    )
  }
}
