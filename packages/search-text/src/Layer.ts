// The text analysis as the SearchText service: over the shipped data and the packs it is given, its version hashed
// from them, the lexicon built on first use.

import { noPacks, type PackData, SearchText, type SourceLabel } from "@tenders/core"
import { createHash } from "node:crypto"
import { Effect, Layer } from "effect"
import { type Analyzer, makeAnalyzer } from "./Analyzer.ts"
import { type LabelMatch, packLabels, russianCpvLabels, sourceLabelIndex } from "./Labels.ts"
import { buildLexicon } from "./Lexicon.ts"
import type { LexiconData } from "./LexiconData.ts"
import { dataDirectory, parseLexiconData, readLexiconFiles, readStopWords } from "./LexiconFiles.ts"
import { labelLinks } from "./Crosswalk.ts"

/** Version of the analysis code: bump when what it makes of the same data changes. */
const analysisVersion = 18

/**
 * SearchText over the data shipped in `data/` and the classification packs it is given (`usePacks`). Its version
 * hashes the files as read, the analysis version and the packs' digest (every process needs it: the store compares
 * it at start); the lexicon is parsed and indexed on first use only (about 0.7 s, and the packs' labels about 0.5 s
 * more), so commands that analyse no text (keys, usage, store backup) do not pay for it.
 */
export const searchTextFromFiles = (directory: string = dataDirectory) => {
  const files = readLexiconFiles(directory)
  const stopWords = readStopWords(directory)
  const hash = createHash("sha256").update(String(analysisVersion))
  for (const text of Object.values(files)) hash.update(text)
  const base = hash.update(JSON.stringify([...stopWords])).digest("hex")
  const versionOf = (packs: PackData) =>
    packs.digest === ""
      ? base.slice(0, 16)
      : createHash("sha256").update(base).update(packs.digest).digest("hex").slice(0, 16)
  let packs: PackData = noPacks
  let version = versionOf(packs)
  let data: LexiconData | undefined
  let analyzer: Analyzer | undefined
  let sourceLabels: ReadonlyArray<SourceLabel> = []
  let sourceIndex: ReadonlyMap<string, ReadonlyArray<LabelMatch>> | undefined
  const sourceLabelsByStem = () => {
    sourceIndex ??= sourceLabelIndex(sourceLabels, data?.labels ?? [], stopWords)
    return sourceIndex
  }
  const analysis = () => {
    data ??= parseLexiconData(files)
    if (analyzer === undefined) {
      const okpd2 = packs.packs.get("okpd2") ?? []
      const crosswalk =
        okpd2.length === 0
          ? data.crosswalk
          : [...data.crosswalk, ...labelLinks(okpd2, russianCpvLabels(packs, data.cpvRussian), data.manualCrosswalk)]
      const labels = [...data.labels, ...packLabels(packs, data.cpvRussian, stopWords)]
      const okpd2Labels = new Map(okpd2.map((row) => [row.code, row.label]))
      analyzer = makeAnalyzer(
        buildLexicon({ ...data, labels, crosswalk, okpd2Labels }, stopWords),
        stopWords,
        sourceLabelsByStem
      )
    }
    return analyzer
  }
  return SearchText.of({
    get version() {
      return version
    },
    get packsDigest() {
      return packs.digest
    },
    usePacks: (next) => {
      if (next.digest === packs.digest) return
      packs = next
      version = versionOf(next)
      analyzer = undefined
    },
    useSourceLabels: (labels) => {
      sourceLabels = labels
      sourceIndex = undefined
    },
    get sourceLabelCount() {
      return sourceLabels.length
    },
    queryPlan: (q) => analysis().queryPlan(q),
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
