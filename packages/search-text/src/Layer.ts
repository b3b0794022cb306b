// The text analysis as the SearchText service: over the shipped data and the packs it is given, its version hashed
// from them, the lexicon built on first use.

import { noPacks, type PackData, type QueryPlan, SearchText, type SourceLabel } from "@tenders/core"
import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { type Analyzer, makeAnalyzer } from "./Analyzer.ts"
import { genericStemKey, type LabelMatch, packLabels, russianCpvLabels, sourceLabelIndex } from "./Labels.ts"
import { buildLexicon } from "./Lexicon.ts"
import { dataDirectory, hashLexicon, lexiconOnDisk, parseLexiconData, readStopWords } from "./LexiconFiles.ts"
import { boundedMemo } from "./Memo.ts"
import { forgetStems } from "./Stemming.ts"
import { labelLinks } from "./Crosswalk.ts"

/** Version of the analysis code: bump when what it makes of the same data changes. */
const analysisVersion = 18

/**
 * How many queries' plans are kept (`boundedMemo`): searches repeat their texts with other filters, pages and
 * watchlists, and a plan is the same until the packs or the sources' labels change (then none is kept).
 */
const plansKept = 1_000

/**
 * The hash of the analysis version, the lexicon's files as read (their bytes: the UTF-8 of their text) and the stop
 * words: the version before the packs.
 */
const dataHash = (directory: string, stopWords: ReadonlySet<string>): string =>
  hashLexicon(createHash("sha256").update(String(analysisVersion)), directory)
    .update(JSON.stringify([...stopWords]))
    .digest("hex")

/**
 * SearchText over the data shipped in `data/` and the classification packs it is given (`usePacks`). Its version
 * hashes the files as read, the analysis version and the packs' digest (every process needs it: the store compares
 * it at start); the lexicon is parsed and indexed on first use only (about 0.7 s, and the packs' labels about 0.5 s
 * more), so commands that analyse no text (keys, usage, store backup) do not pay for it; `serve` builds it before it
 * listens (`prepare`). Neither the files' text nor their parsed lines are kept: the files are read again when the
 * lexicon is built (their hash must still be the version's), and only the lexicon's indexes stay (docs/decisions.md,
 * "Issue 23: the server's memory").
 */
export const searchTextFromFiles = (directory: string = dataDirectory) => {
  const stopWords = readStopWords(directory)
  const base = dataHash(directory, stopWords)
  const versionOf = (digest: string) =>
    digest === "" ? base.slice(0, 16) : createHash("sha256").update(base).update(digest).digest("hex").slice(0, 16)
  let packsDigest = noPacks.digest
  // The packs the next build of the analysis reads, let go once it is built: the lexicon keeps what it reads of their
  // rows (its label index, the crosswalk, the OKPD2 labels), and the rows themselves held about 2.8 MB of a server's
  // heap (the OKPD2 and Russian CPV packs) for nothing.
  let packsToRead: PackData = noPacks
  let version = versionOf(packsDigest)
  let analyzer: Analyzer | undefined
  // The shipped labels' generic stems, what the sources' labels are read with (kept from the first build on).
  let shippedGeneric: ReadonlySet<string> = new Set()
  let sourceLabels: ReadonlyArray<SourceLabel> = []
  let sourceIndex: ReadonlyMap<string, ReadonlyArray<LabelMatch>> | undefined
  let plans = boundedMemo<QueryPlan>(plansKept)
  const sourceLabelsByStem = () => {
    sourceIndex ??= sourceLabelIndex(sourceLabels, shippedGeneric, stopWords)
    return sourceIndex
  }
  const readData = () => {
    if (dataHash(directory, stopWords) !== base)
      throw new Error(`the text analysis' files in ${directory} changed since the process started: restart it`)
    return parseLexiconData(lexiconOnDisk(directory))
  }
  const analysis = () => {
    if (analyzer === undefined) {
      const data = readData()
      const packs = packsToRead
      const okpd2 = packs.packs.get("okpd2") ?? []
      const crosswalk =
        okpd2.length === 0
          ? data.crosswalk
          : [...data.crosswalk, ...labelLinks(okpd2, russianCpvLabels(packs, data.cpvRussian), data.manualCrosswalk)]
      // The shipped labels are read once, as the lexicon indexes them; their generic stems are taken on the way.
      const generic = new Set<string>()
      const shipped = data.labels
      const packed = packLabels(packs, data.cpvRussian, stopWords)
      const labels = {
        *[Symbol.iterator]() {
          for (const label of shipped) {
            for (const stem of label.others ?? []) generic.add(genericStemKey(label.language, stem))
            yield label
          }
          yield* packed
        }
      }
      const okpd2Labels = new Map(okpd2.map((row) => [row.code, row.label]))
      analyzer = makeAnalyzer(
        buildLexicon({ ...data, labels, crosswalk, okpd2Labels }, stopWords),
        stopWords,
        sourceLabelsByStem
      )
      shippedGeneric = generic
      packsToRead = noPacks
      forgetStems()
    }
    return analyzer
  }
  return SearchText.of({
    get version() {
      return version
    },
    get packsDigest() {
      return packsDigest
    },
    usePacks: (next) => {
      if (next.digest === packsDigest) return
      packsDigest = next.digest
      packsToRead = next
      version = versionOf(next.digest)
      analyzer = undefined
      plans = boundedMemo(plansKept)
    },
    useSourceLabels: (labels) => {
      sourceLabels = labels
      sourceIndex = undefined
      plans = boundedMemo(plansKept)
    },
    get sourceLabelCount() {
      return sourceLabels.length
    },
    queryPlan: (q) => plans(q, () => analysis().queryPlan(q)),
    prepare: () => {
      analysis()
    },
    documentTerms: (record) => analysis().documentTerms(record),
    documentWords: (record) => analysis().documentWords(record),
    correctable: (plan) => analysis().correctable(plan),
    corrected: (plan, corrections) => analysis().corrected(plan, corrections)
  })
}

/** SearchText over the data shipped in `data/` (files read when the layer is built, indexed on first use). */
export const SearchTextLive = Layer.effect(
  SearchText,
  Effect.sync(() => searchTextFromFiles())
)
