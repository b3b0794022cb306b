// Generates data/classifications/cpv-okpd2.jsonl, the CPV 2008 <-> OKPD2 crosswalk, from
//   1. the hand-made branch links of crosswalk-manual.mjs (method "manual"), and
//   2. Russian label matching (methods "label-ru-exact" and "label-ru-contained"): an OKPD2 code is linked to the
//      most specific CPV codes whose Russian label (cpv-labels-extra.jsonl) has no significant word (Snowball stem)
//      that the OKPD2 label lacks. A match must stay inside the CPV branch that a manual link gives for the code
//      (when that link is not "partial"), or else inside a pair of divisions the manual table joins.
//
//   node packages/search-text/scripts/classifications/crosswalk.mjs \
//     [--okpd2 okpd2.jsonl] [--labels cpv-labels-extra.jsonl]
import snowball from "snowball-stemmers"
import { byCode, dataFile, fail, parseArgs, readJsonl, writeJsonl } from "./lib.mjs"
import { manualLinks, relatedDivisions } from "./crosswalk-manual.mjs"

const usage = `usage: crosswalk.mjs [--cpv cpv.jsonl] [--okpd2 okpd2.jsonl] [--labels cpv-labels-extra.jsonl] [--out f]`
const args = parseArgs(process.argv.slice(2), usage)
const cpv = readJsonl(args.cpv ?? dataFile("cpv.jsonl"))
const okpd2 = readJsonl(args.okpd2 ?? dataFile("okpd2.jsonl"))
const ruLabels = new Map(readJsonl(args.labels ?? dataFile("cpv-labels-extra.jsonl")).map((r) => [r.code, r.labels.ru]))
const okpd2Label = new Map(okpd2.map((row) => [row.code, row.label]))
const cpvCodes = cpv.map((row) => row.code)

/** A CPV prefix as the crosswalk writes it: the code without its trailing zeros, at least 2 digits. */
export const cpvPrefix = (code) => code.replace(/0+$/, "").padEnd(2, "0")

const ancestorsOf = (code) => {
  const out = []
  for (let c = code; c.length > 2;) {
    c = c.length === 12 ? c.slice(0, 8) : c.slice(0, c.length - 1).replace(/\.$/, "")
    out.push(c)
  }
  return out
}

// 1. Manual links
const links = []
const manualByOkpd2 = new Map()
for (const [code, prefix, precision] of manualLinks) {
  if (!okpd2Label.has(code)) fail(`manual link: no OKPD2 code ${code}`)
  if (!cpvCodes.some((c) => c.startsWith(prefix))) fail(`manual link: no CPV code starts with ${prefix}`)
  links.push({ okpd2: code, cpv: prefix, method: "manual", precision })
  if (!manualByOkpd2.has(code)) manualByOkpd2.set(code, [])
  manualByOkpd2.get(code).push({ prefix, precision })
}

// Which CPV branch may hold a label match for an OKPD2 code
const related = new Set()
for (const [code, prefix] of manualLinks) related.add(`${code.slice(0, 2)} ${prefix.slice(0, 2)}`)
for (const [a, b] of relatedDivisions) related.add(`${a} ${b}`)
function allowedFor(code) {
  for (const c of [code, ...ancestorsOf(code)]) {
    const strict = (manualByOkpd2.get(c) ?? []).filter((m) => m.precision !== "partial")
    if (strict.length > 0) return (cpvCode) => strict.some((m) => cpvCode.startsWith(m.prefix))
  }
  return (cpvCode) => related.has(`${code.slice(0, 2)} ${cpvCode.slice(0, 2)}`)
}

// 2. Label matching
const stemmer = snowball.newStemmer("russian")
const stopWords = new Set(
  (
    "и или а в во на с со по для из от до к ко о об у без при под над за их его ее этих том числе т п др " +
    "не прочие прочий прочая прочее прочих включенные включенных другие других группировки группировках"
  )
    .split(" ")
    .filter(Boolean)
)
/** Stems that say little on their own: a CPV label needs at least one other word to match. */
const weakStems = new Set(
  (
    "услуг работ оборудован издел продукц продукт материал част запасн принадлежн средств товар прибор аппарат " +
    "устройств систем машин инструмент комплект набор разн различн сопутств связа аналогичн специальн общ вид " +
    "обслуживан техническ ремонт поставк предоставлен"
  )
    .split(" ")
    .filter(Boolean)
)
/** The stems of a label in their order (a label names its main product first). */
function stemList(label) {
  const text = label
    .toLowerCase()
    .replace(/ё/g, "е")
    .replace(/(^|[^а-я])(кроме|за исключением)[^;)]*/g, " ") // "except ..." names what the code does not hold
    .replace(/не включенн[а-я]* в другие группировки/g, " ")
  const out = []
  for (const word of text.split(/[^a-zа-я0-9]+/)) {
    if (word.length < 2 || stopWords.has(word)) continue
    out.push(stemmer.stem(word))
  }
  return out
}
const stems = (label) => new Set(stemList(label))
const partStems = new Set(["част", "комплект", "комплектующ", "принадлежн", "запасн", "детал", "узл"])
const isService = (label) => /^(услуги|работы)\b/i.test(label.trim()) || /^(услуги|работы)[^а-я]/i.test(label.trim())
const goodsDivision = (cpvCode) => cpvCode < "45" || cpvCode.startsWith("48")

const cpvStems = []
for (const code of cpvCodes) {
  const label = ruLabels.get(code)
  if (!label) continue
  const set = stems(label)
  if ([...set].some((s) => !weakStems.has(s))) cpvStems.push({ code, set, label })
}
const normal = (s) =>
  s
    .toLowerCase()
    .replace(/ё/g, "е")
    .replace(/[^a-zа-я0-9]+/g, " ")
    .trim()

const labelLinks = new Map() // okpd2 -> Set of cpv prefixes linked by label
for (const row of okpd2) {
  if (row.code.length < 5) continue
  // Words in parentheses only qualify the code ("Масла моторные (универсальные, ..., дизельные)"): not matched.
  const ownList = stemList(row.label.replace(/\([^)]*\)/g, " "))
  const own = new Set(ownList)
  const head = ownList.find((s) => !weakStems.has(s))
  const hasParts = ownList.some((s) => partStems.has(s))
  const service = isService(row.label)
  const allowed = allowedFor(row.code)
  let best = []
  let bestScore = 0
  for (const candidate of cpvStems) {
    if (candidate.set.size < bestScore || !allowed(candidate.code)) continue
    // The OKPD2 label's main word must be matched; parts are not the product; a service is not goods.
    if (!candidate.set.has(head)) continue
    if (hasParts && ![...candidate.set].some((s) => partStems.has(s))) continue
    if (service && goodsDivision(candidate.code) && !candidate.set.has("услуг") && !candidate.set.has("работ")) continue
    let inside = true
    for (const s of candidate.set) if (!own.has(s)) inside = false
    if (!inside) continue
    const score = candidate.set.size
    if (score > bestScore) {
      best = [candidate]
      bestScore = score
    } else if (score === bestScore) best.push(candidate)
  }
  if (best.length === 0) continue
  // Of equally good labels keep the widest code of each branch (its narrower codes add what the words lost, such
  // as "(0,2)" in "Diesel fuel (0,2)"); more than three branches means the words are too vague.
  best = best.filter((c) => !best.some((o) => o !== c && c.code.startsWith(cpvPrefix(o.code))))
  if (best.length > 3) continue
  const inherited = new Set(ancestorsOf(row.code).flatMap((a) => [...(labelLinks.get(a) ?? [])]))
  const mine = new Set()
  for (const candidate of best) {
    const prefix = cpvPrefix(candidate.code)
    mine.add(prefix)
    if (inherited.has(prefix)) continue
    const exact = normal(candidate.label) === normal(row.label)
    links.push({
      okpd2: row.code,
      cpv: prefix,
      method: exact ? "label-ru-exact" : "label-ru-contained",
      precision: exact ? "exact" : "okpd2-narrower"
    })
  }
  labelLinks.set(row.code, new Set([...mine, ...inherited]))
}

const seen = new Set()
const rows = links.filter((link) => {
  const key = `${link.okpd2} ${link.cpv}`
  if (seen.has(key)) return false
  seen.add(key)
  return true
})
rows.sort((a, b) => byCode({ code: a.okpd2 }, { code: b.okpd2 }) || byCode({ code: a.cpv }, { code: b.cpv }))
const count = (method) => rows.filter((row) => row.method === method).length
process.stdout.write(
  `manual ${count("manual")}, label-ru-exact ${count("label-ru-exact")}, ` +
    `label-ru-contained ${count("label-ru-contained")}\n`
)
writeJsonl(args.out ?? dataFile("cpv-okpd2.jsonl"), rows)
