// npm run bench:vocabulary -- [--n 100000] [--types 2000000]
// What the text analysis keeps as a replica ingests notices with a real vocabulary's long tail, and how fast it reads
// them. bench:search's generator has a few hundred words; real notices keep bringing words not seen before (names,
// places, references). Here bench:search's tenders get a title (10 words), a buyer (4) and three lots (6 words each)
// drawn from `--types` made-up words with Zipf's law (`zipfRank`, random.ts), in Latin (70 %, a TED country's), Cyrillic
// (20 %, RU) or Armenian (10 %, AM) letters. Prints, every 25,000 tenders, the time and the heap alive after full
// collections over what it was before the first tender (needs node's --expose-gc, given by the npm script).
import type { TenderRecord } from "@tenders/core"
import { buildLexicon, makeAnalyzer, readLexiconData, readStopWords } from "@tenders/search-text"
import { parseArgs } from "node:util"
import { benchData } from "./data.ts"
import { seededRandom } from "./random.ts"

const { values } = parseArgs({
  options: {
    n: { type: "string", default: "100000" },
    types: { type: "string", default: "2000000" }
  }
})
const total = Number(values.n)
const types = Number(values.types)
const collect = (globalThis as { gc?: () => void }).gc
if (collect === undefined) throw new Error("bench:vocabulary needs node --expose-gc (npm run bench:vocabulary)")

const { random, pick, zipfRank } = seededRandom(42)
const { makeTender } = benchData(42)

/** Made-up words: a rank spelt in 15 syllables of a script, so that every rank is its own word. */
const syllables = {
  latin: ["ka", "ro", "mi", "ten", "dor", "sa", "lu", "ver", "pa", "ni", "gro", "bel", "st", "an", "que"],
  cyrillic: ["ка", "ро", "ми", "тен", "дор", "са", "лу", "вер", "па", "ни", "гро", "бел", "ст", "ан", "ще"],
  armenian: ["կա", "րո", "մի", "տեն", "դոր", "սա", "լու", "վեր", "պա", "նի", "գրո", "բել", "ստ", "ան", "քե"]
} as const
type Script = keyof typeof syllables
/** Each word drawn so far (by script and rank), to count the distinct words outside the heap measured. */
const drawn = new Uint8Array(types * 3)
let distinct = 0
const scriptNumber: Record<Script, number> = { latin: 0, cyrillic: 1, armenian: 2 }
const word = (script: Script) => {
  const rank = zipfRank(types)
  const at = rank * 3 + scriptNumber[script]
  if (drawn[at] === 0) {
    drawn[at] = 1
    distinct++
  }
  let spelt = ""
  let rest = rank + 1
  do {
    spelt += syllables[script][rest % 15]
    rest = Math.floor(rest / 15)
  } while (rest > 0)
  return spelt
}
const text = (words: number, script: Script) => Array.from({ length: words }, () => word(script)).join(" ")

/** bench:search's tender `i` with a text of the long tail (and no codes: their terms are not words). */
const tender = (i: number): TenderRecord => {
  const roll = random()
  const script: Script = roll < 0.7 ? "latin" : roll < 0.9 ? "cyrillic" : "armenian"
  return {
    ...makeTender(i),
    title: text(10, script),
    buyer: text(4, script),
    country: script === "latin" ? pick(["DE", "FR", "PL", "IT", "ES"]) : script === "cyrillic" ? "RU" : "AM",
    lots: [0, 1, 2].map(() => ({ title: text(6, script), budget: null, currency: null, cpvCodes: [] })),
    cpvCodes: [],
    okpd2Codes: []
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
