import { gnumnerId } from "../../packages/adapters-sources/src/gnumner/code.ts"
import { Schema } from "effect"
import type { RecordFields } from "./checks.ts"
import { fixedZone, localToUtc, makeDeadline, makePublished, type PlannedRecord, utc } from "./dates.ts"
import {
  type GnumnerBuyer,
  gnumnerBuyers,
  gnumnerBuyerTypes,
  gnumnerDeadlineTimes,
  gnumnerMainRoads,
  gnumnerPinned,
  gnumnerTopics,
  ProcurementKind
} from "./gnumnerTables.ts"
import { budgetStyle, decimals, logUniform, makeBudget } from "./money.ts"
import type { Random } from "./random.ts"
import { lookup, topicWeights } from "./tables.ts"
import {
  canFill,
  type Context,
  fill,
  lowerFirst,
  namesOnly,
  parseTemplate,
  type Template,
  unique
} from "./templates.ts"

const yerevan = fixedZone(240)
const decodeKind = Schema.decodeUnknownSync(ProcurementKind)
/** The subject part of a procurement code per kind. */
const subjectCode = { goods: "ԱՊՁԲ", services: "ԾՁԲ", works: "ԱՇՁԲ" } as const

/** Genitive + "for the needs of": `ՀՀ ֆինանսների նախարարություն` -> `ՀՀ ֆինանսների նախարարության կարիքների համար`. */
const forTheNeedsOf = (name: string) => {
  let genitive: string
  if (name.endsWith("ություն")) genitive = `${name.slice(0, -"ություն".length)}ության`
  else if (name.endsWith("ՓԲԸ") || name.endsWith("»")) genitive = `${name}-ի`
  else genitive = `${name}ի`
  return `${genitive} կարիքների համար`
}

const titleContext = (random: Random, buyer: GnumnerBuyer): Context => {
  const context = {
    cityGen: buyer.cityGen,
    streetGen: buyer.streetGen && random.pick(buyer.streetGen),
    schoolGen: buyer.schoolGen && random.pick(buyer.schoolGen),
    kgGen: buyer.kgGen && random.pick(buyer.kgGen),
    mroad: buyer.type === "roads" ? random.pick(gnumnerMainRoads) : undefined,
    hroad: buyer.type === "roads" ? random.int(2, 50) : undefined,
    c: buyer.type === "city" || buyer.type === "fund" ? "" : undefined
  }
  const km1 = random.int(2, 140)
  return { ...context, km1, km2: km1 + random.int(3, 18) }
}

/** The notice page and documents: an eAuction tender (most electronic auctions), an ARMEPS notice or a gnumner file. */
const noticeLinks = (random: Random, procedure: string) => {
  const file = () => {
    const name = random.hex(8)
    return `https://gnumner.minfin.am/website/images/original/${name}.${random.pick(["docx", "docx", "pdf", "zip"])}`
  }
  if (procedure === "ԷԱՃ" && random.chance(0.85)) {
    const url = `https://eauction.armeps.am/hy/public/tender_details/tmid/${random.uuid()}`
    const invitation = random.int(47700, 49400)
    return {
      url,
      docsUrl: [`https://eauction.armeps.am/application/documents/public_invitation/tender_${invitation}.zip`]
    }
  }
  if (random.chance(0.75)) {
    const url = `https://armeps.am/epps/cft/listContractDocuments.do?resourceId=${random.int(12490000, 12620000)}`
    return { url, docsUrl: random.chance(0.6) ? [url] : [url, file()] }
  }
  const url = file()
  return { url, docsUrl: [url] }
}

interface TitleChoice {
  readonly buyer: GnumnerBuyer
  readonly topic: string
  readonly template: Template
  /** The title without the buyer. */
  readonly bare: string
  readonly title: string
}

/** gnumner records for a status plan; the first ones are the pinned notices. */
export const buildGnumner = (random: Random, plan: ReadonlyArray<PlannedRecord>): Array<RecordFields> => {
  const titles = new Set<string>()
  const codes = new Set<string>()
  const ids = new Set<string>()
  const seqs = new Map<string, number>()
  return plan.map((p, idx) => {
    const pinned = gnumnerPinned.at(idx)
    let choice: TitleChoice | undefined
    for (let attempt = 0; attempt < 80; attempt++) {
      const buyer = pinned
        ? gnumnerBuyers.find((b) => b.code === pinned.code)
        : random.weighted(gnumnerBuyers.map((b) => [b, b.weight] as const))
      if (buyer === undefined) throw new Error(`gnumner: no buyer ${pinned?.code}`)
      const topic = pinned
        ? pinned.topic
        : random.weighted(topicWeights(lookup(gnumnerBuyerTypes, buyer.type, "buyer type")))
      const context = titleContext(random, buyer)
      const templates = lookup(gnumnerTopics, topic, "topic")
        .titles.map(parseTemplate)
        .filter((t) => canFill(t.text, context))
      if (templates.length === 0) continue
      const template = pinned ? templates.find((t) => t.text.includes(pinned.titleContains)) : random.pick(templates)
      if (template === undefined) throw new Error(`gnumner: no title with "${pinned?.titleContains}"`)
      const bare = fill(template.text, context)
      const generic = namesOnly(template.text, ["c"])
      const title =
        generic && !bare.includes("համար") && random.chance(0.3)
          ? `${forTheNeedsOf(buyer.name)} ${lowerFirst(bare)}`
          : bare
      choice = { buyer, topic, template, bare, title }
      if (!titles.has(title)) break
    }
    if (choice === undefined) throw new Error("gnumner: no title")
    const { buyer, topic, template, bare, title } = choice
    titles.add(title)
    const def = lookup(gnumnerTopics, topic, "topic")
    const kind = decodeKind(template.kind ?? def.kind)
    const mainCpv = template.codes ? (template.codes[0] ?? "") : def.cpv

    const currency = buyer.usdShare !== undefined && buyer.usdShare > 0 && random.chance(buyer.usdShare) ? "USD" : "AMD"
    const majorAmd = logUniform(random, ...def.amd)
    const lotRoll = random.next()
    const lotMode = def.lots && template.lots && lotRoll < 0.5 ? "multi" : lotRoll < 0.62 ? "single" : "none"
    const lotTemplates = def.lots ?? []
    const chosen =
      lotMode === "multi"
        ? random
            .sample(
              lotTemplates.map(([name, cpv], index) => ({ name, cpv, index })),
              random.int(2, Math.min(6, lotTemplates.length))
            )
            .sort((a, b) => a.index - b.index)
        : lotMode === "single"
          ? [{ name: bare, cpv: mainCpv }]
          : []
    const { budget, lotValues } = makeBudget(random, {
      hasBudget: !random.chance(0.18),
      major: currency === "USD" ? majorAmd / 390 : majorAmd,
      dp: decimals(currency),
      vat: 0.2,
      style:
        currency === "USD"
          ? budgetStyle(random)
          : random.weighted([
              ["round", 60],
              ["round4", 40]
            ] as const),
      lotCount: Math.max(chosen.length, 1),
      lotBudgets: random.chance(0.85)
    })
    const lots = chosen.map(({ name, cpv }, i) => ({
      title: name,
      budget: lotValues[i] ?? null,
      currency: lotValues[i] === null ? null : currency,
      cpvCodes: [cpv]
    }))

    // Procedure code: <buyer><separator><procedure><subject>-26/<sequence number>.
    const small = majorAmd < 70e6
    const procedure =
      kind === "works"
        ? small
          ? "ԳՀ"
          : "ԲՄ"
        : small
          ? random.pick(["ԳՀ", "ԷԱՃ"])
          : random.weighted([
              ["ԷԱՃ", 60],
              ["ԲՄ", 40]
            ] as const)
    let nativeId: string
    do {
      const next = (seqs.get(buyer.code) ?? random.int(3, buyer.weight * 12)) + random.int(1, 9)
      seqs.set(buyer.code, next)
      nativeId = `${buyer.code}${buyer.codeSeparator}${procedure}${subjectCode[kind]}-26/${next}`
    } while (codes.has(nativeId))
    codes.add(nativeId)
    const id = gnumnerId(nativeId)
    if (ids.has(id)) throw new Error(`slug collision ${id}`)
    ids.add(id)

    const { url, docsUrl } = noticeLinks(random, procedure)

    const deadline = makeDeadline(random, p.deadline, yerevan, gnumnerDeadlineTimes, true)
    const published = makePublished(
      random,
      deadline,
      (k) => localToUtc(-k, [random.int(9, 18), random.int(0, 59), random.int(0, 59)], yerevan),
      [7, 30],
      0.95
    )
    return {
      id,
      source: "gnumner",
      nativeId,
      title,
      buyer: buyer.name,
      country: "AM",
      region: buyer.region,
      budget,
      currency,
      deadline: deadline === null ? null : utc(deadline),
      publishedAt: utc(published.ms),
      status: p.status,
      url,
      cpvCodes: unique([mainCpv, ...lots.flatMap((l) => l.cpvCodes)]),
      okpd2Codes: [],
      lots,
      docsUrl
    }
  })
}
