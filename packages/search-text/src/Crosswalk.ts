// The CPV ↔ OKPD2 links the Russian labels make, at run time from the packs an operator imports (the hand-made links
// are shipped, LexiconData.ts): a Russian notice filed under an OKPD2 code is found by a query for the CPV code.

import { normalizeCpvPrefix, type PackCode } from "@tenders/core"
import { okpd2Levels } from "./Okpd2.ts"
import { labelScope } from "./Labels.ts"
import type { CrosswalkLink, ManualCrosswalk } from "./LexiconData.ts"
import { stemmerOf } from "./Stemming.ts"

/** A link the labels make, and how: the same words on both sides, or the CPV label's words all in the OKPD2 one. */
export interface LabelLink extends CrosswalkLink {
  readonly method: "label-ru-exact" | "label-ru-contained"
}

/** The levels above an OKPD2 code, nearest first (`okpd2Levels`: `21.20.10.232` -> 21.20.10.230, 21.20.10.23, …). */
const ancestorsOf = (code: string): ReadonlyArray<string> => okpd2Levels(code).slice(0, -1).toReversed()

const stopWords = new Set(
  (
    "и или а в во на с со по для из от до к ко о об у без при под над за их его ее этих том числе т п др " +
    "не прочие прочий прочая прочее прочих включенные включенных другие других группировки группировках"
  ).split(" ")
)
/** Stems that say little on their own: a CPV label needs at least one other word to match. */
const weakStems = new Set(
  (
    "услуг работ оборудован издел продукц продукт материал част запасн принадлежн средств товар прибор аппарат " +
    "устройств систем машин инструмент комплект набор разн различн сопутств связа аналогичн специальн общ вид " +
    "обслуживан техническ ремонт поставк предоставлен"
  ).split(" ")
)
/** Stems of a use ("для системного применения", "использования"): a CPV label's need not be in the OKPD2 label. */
const useStems = new Set(["применен", "использован"])
/** Stems that make a label one of parts: parts are only matched to parts. */
const partStems = new Set(["част", "комплект", "комплектующ", "принадлежн", "запасн", "детал", "узл"])

/** The Russian stems of a label in their order (a label names its main product first); "except ..." is dropped. */
const stemList = (label: string): ReadonlyArray<string> => {
  const stem = stemmerOf("ru")
  const text = labelScope("ru", label).replace(/не включенн[а-я]* в другие группировки/gu, " ")
  return text
    .split(/[^a-zа-я0-9]+/u)
    .filter((word) => word.length >= 2 && !stopWords.has(word))
    .map((word) => stem(word))
}

const isService = (label: string) => /^(услуги|работы)(?![а-я])/iu.test(label.trim())
const goodsDivision = (cpvCode: string) => cpvCode < "45" || cpvCode.startsWith("48")
const normal = (label: string) =>
  label
    .toLowerCase()
    .replace(/ё/gu, "е")
    .replace(/[^a-zа-я0-9]+/gu, " ")
    .trim()

/**
 * The crosswalk links the Russian labels make, from the OKPD2 pack and the CPV codes' Russian labels (neither shipped:
 * the operator imports them, so these links are made at run time): an OKPD2 code of 5 characters and more is linked to
 * the most specific CPV codes whose Russian label has no significant word (stem) that the OKPD2 label lacks (but a
 * word of use, "применения" or "использования"), and holds its main word. Parts are only matched to parts, services
 * not to goods; what a label excludes (`labelScope`) and words in parentheses are not matched; of equally good codes
 * the widest of each branch is kept, and more than three branches mean the words are too vague. A match must lie
 * inside the CPV branch of the nearest hand-made link that is not `partial`, or else in a pair of divisions that the
 * hand-made table joins. A link a level above already gives, or a hand-made one, is not repeated.
 */
export const labelLinks = (
  okpd2: ReadonlyArray<PackCode>,
  cpvRussian: ReadonlyMap<string, string>,
  manual: ManualCrosswalk
): ReadonlyArray<LabelLink> => {
  const strictByOkpd2 = new Map<string, Array<string>>()
  const related = new Set<string>()
  for (const link of manual.links) {
    related.add(`${link.okpd2.slice(0, 2)} ${link.cpv.slice(0, 2)}`)
    if (link.precision === "partial") continue
    const list = strictByOkpd2.get(link.okpd2)
    if (list === undefined) strictByOkpd2.set(link.okpd2, [link.cpv])
    else list.push(link.cpv)
  }
  for (const [a, b] of manual.related) related.add(`${a} ${b}`)
  const allowedFor = (code: string): ((cpvCode: string) => boolean) => {
    for (const level of [code, ...ancestorsOf(code)]) {
      const strict = strictByOkpd2.get(level)
      if (strict !== undefined) return (cpvCode) => strict.some((prefix) => cpvCode.startsWith(prefix))
    }
    return (cpvCode) => related.has(`${code.slice(0, 2)} ${cpvCode.slice(0, 2)}`)
  }

  // The CPV labels of a non-weak word, by each of their stems.
  interface Candidate {
    readonly code: string
    readonly stems: ReadonlySet<string>
    readonly label: string
  }
  const byStem = new Map<string, Array<Candidate>>()
  for (const [code, label] of [...cpvRussian].toSorted(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const stems = new Set(stemList(label))
    if (![...stems].some((stem) => !weakStems.has(stem))) continue
    const candidate = { code, stems, label }
    for (const stem of stems) {
      const list = byStem.get(stem)
      if (list === undefined) byStem.set(stem, [candidate])
      else list.push(candidate)
    }
  }

  const links: Array<LabelLink> = []
  const linked = new Map<string, ReadonlySet<string>>()
  for (const row of okpd2.toSorted((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))) {
    if (row.code.length < 5) continue
    // Words in parentheses only qualify the code ("Масла моторные (универсальные, ..., дизельные)"): not matched.
    const ownList = stemList(row.label.replace(/\([^)]*\)/gu, " "))
    const own = new Set(ownList)
    const head = ownList.find((stem) => !weakStems.has(stem))
    if (head === undefined) continue
    const hasParts = ownList.some((stem) => partStems.has(stem))
    const service = isService(row.label)
    const allowed = allowedFor(row.code)
    let best: Array<Candidate> = []
    for (const candidate of byStem.get(head) ?? []) {
      const size = candidate.stems.size
      if (size < (best[0]?.stems.size ?? 0) || !allowed(candidate.code)) continue
      if (hasParts && ![...candidate.stems].some((stem) => partStems.has(stem))) continue
      if (service && goodsDivision(candidate.code) && !candidate.stems.has("услуг") && !candidate.stems.has("работ"))
        continue
      if (![...candidate.stems].every((stem) => own.has(stem) || useStems.has(stem))) continue
      if (size > (best[0]?.stems.size ?? 0)) best = [candidate]
      else best.push(candidate)
    }
    if (best.length === 0) continue
    best = best.filter((c) => !best.some((o) => o !== c && c.code.startsWith(normalizeCpvPrefix(o.code))))
    if (best.length > 3) continue
    const inherited = new Set(ancestorsOf(row.code).flatMap((level) => [...(linked.get(level) ?? [])]))
    const mine = new Set<string>()
    for (const candidate of best) {
      const prefix = normalizeCpvPrefix(candidate.code)
      mine.add(prefix)
      if (inherited.has(prefix)) continue
      const exact = normal(candidate.label) === normal(row.label)
      links.push({ okpd2: row.code, cpv: prefix, method: exact ? "label-ru-exact" : "label-ru-contained" })
    }
    linked.set(row.code, new Set([...mine, ...inherited]))
  }
  const seen = new Set(manual.links.map((link) => `${link.okpd2} ${link.cpv}`))
  return links.filter((link) => {
    const key = `${link.okpd2} ${link.cpv}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
