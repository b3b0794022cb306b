import type { RecordFields } from "./checks.ts"
import { fixedZone, localToUtc, makeDeadline, makePublished, type PlannedRecord, utc } from "./dates.ts"
import {
  type EaeuBuyer,
  eaeuBuyerTypes,
  eaeuDeadlineTimes,
  eaeuDrugs,
  eaeuPinned,
  eaeuSchools,
  eaeuSizeRates,
  eaeuStreets,
  eaeuTitleRanges,
  eaeuTopics
} from "./eaeuTables.ts"
import { logUniform, makeBudget } from "./money.ts"
import type { Random } from "./random.ts"
import { lookup, topicWeights } from "./tables.ts"
import { canFill, type Context, fill, parseTemplate, unique } from "./templates.ts"

const moscow = fixedZone(180)

/** Titles of 223-FZ purchases split into several lots, from the lot titles. */
const multiLotTitle: Readonly<Record<string, (names: ReadonlyArray<string>) => string>> = {
  medicines: (names) => `Поставка лекарственных препаратов (${names.map((n) => n.split(",")[0]).join(", ")})`,
  it: (names) => `Поставка вычислительной техники (${names.map((n) => n.toLocaleLowerCase("ru")).join(", ")})`,
  cleaning: () => "Оказание услуг по уборке станций и электродепо метрополитена",
  fuel: () => "Поставка нефтепродуктов (бензин автомобильный, дизельное топливо)",
  security: (names) => `Оказание услуг по охране объектов (${names.length} лота)`
}

const titleContext = (random: Random, buyer: EaeuBuyer, mnn: string): Context => {
  const okrugs = buyer.okrugs
  return {
    roadName: buyer.roadNames && random.pick(buyer.roadNames),
    placeIn: buyer.placeIn,
    street: buyer.placeIn || buyer.type === "city" ? random.pick(eaeuStreets) : undefined,
    okrug: okrugs && (() => random.pick(okrugs)),
    school: random.pickOrUndefined(buyer.schools ?? (buyer.type === "city" ? eaeuSchools : [])),
    site: buyer.site,
    mnn
  }
}

/** The purchase number, notice page and documents of a 223-FZ purchase. */
const notice223 = (random: Random, ids: ReadonlySet<string>) => {
  let nativeId: string
  do nativeId = `326${random.digits(8)}`
  while (ids.has(nativeId))
  const base = "https://zakupki.gov.ru/223/purchase/public/purchase/info"
  const docsUrl = [`${base}/documents.html?regNumber=${nativeId}`]
  if (random.chance(0.5))
    docsUrl.push(
      `https://zakupki.gov.ru/223/purchase/public/download/download.html?id=${random.int(140000000, 149999999)}`
    )
  return { nativeId, url: `${base}/common-info.html?regNumber=${nativeId}`, docsUrl }
}

/** eaeu records for a status plan; the first ones are the pinned notices, the last ones the missions abroad. */
export const buildEaeu = (
  random: Random,
  plan: ReadonlyArray<PlannedRecord>,
  buyers: ReadonlyArray<EaeuBuyer>
): Array<RecordFields> => {
  const titles = new Set<string>()
  const ids = new Set<string>()
  const seqs = new Map<string, number>()
  const embassies = buyers.filter((b) => b.type === "embassy")
  return plan.map((p, idx) => {
    const pinned = eaeuPinned.at(idx)
    let choice: { buyer: EaeuBuyer; topic: string; title: string; codes: ReadonlyArray<string> } | undefined
    for (let attempt = 0; attempt < 80; attempt++) {
      const buyer = pinned
        ? buyers.find((b) => b.name.includes(pinned.buyerContains))
        : idx >= plan.length - embassies.length
          ? embassies[plan.length - 1 - idx]
          : random.weighted(buyers.map((b) => [b, b.weight] as const))
      if (buyer === undefined) throw new Error(`eaeu: no buyer for record ${idx}`)
      const topic = pinned
        ? pinned.topic
        : random.weighted(topicWeights(lookup(eaeuBuyerTypes, buyer.type, "buyer type")))
      const drug = random.pick(eaeuDrugs)
      const context = titleContext(random, buyer, drug.mnn)
      const templates = lookup(eaeuTopics, topic, "topic")
        .titles.map(parseTemplate)
        .filter((t) => canFill(t.text, context))
      if (templates.length === 0) continue
      const template = pinned ? templates.find((t) => t.text.includes(pinned.titleContains)) : random.pick(templates)
      if (template === undefined) throw new Error(`eaeu: no title with "${pinned?.titleContains}"`)
      const title = fill(template.text, context)
      choice = { buyer, topic, title, codes: template.codes ?? [drug.okpd2] }
      if (!titles.has(title)) break
    }
    if (choice === undefined) throw new Error("eaeu: no title")
    const { buyer, topic, codes } = choice
    let title = choice.title
    titles.add(title)
    const def = lookup(eaeuTopics, topic, "topic")

    const is223 = buyer.law === 223
    const currency = buyer.currency
    const metroOnly = topic === "cleaning" && !buyer.name.includes("МЕТРОПОЛИТЕН")
    const lotTemplates = def.lots && is223 && !metroOnly && random.chance(0.6) ? def.lots : null
    const chosen = lotTemplates
      ? random
          .sample(
            lotTemplates.map(([name, code], index) => ({ name, code, index })),
            random.int(2, Math.min(5, lotTemplates.length))
          )
          .sort((a, b) => a.index - b.index)
      : [{ name: title, code: null }]
    if (lotTemplates) {
      title = lookup(multiLotTitle, topic, "multi-lot topic")(chosen.map(({ name }) => name))
      titles.add(title)
    }
    const range = eaeuTitleRanges.find(({ titleContains }) => title.includes(titleContains))?.rub ?? def.rub
    const sizeRate = lookup(eaeuSizeRates, currency, "currency")
    const major = logUniform(random, ...range) * sizeRate
    const { budget, lotValues } = makeBudget(random, {
      hasBudget: !(is223 && random.chance(0.1)),
      major,
      dp: 2,
      vat: 0.22,
      style: random.weighted([
        ["round", 50],
        ["odd", 50]
      ] as const),
      lotCount: chosen.length,
      lotBudgets: true
    })
    const okpd2Codes = lotTemplates ? unique(chosen.flatMap(({ code }) => (code === null ? [] : [code]))) : codes
    const lots = chosen.map(({ name }, i) => ({
      title: name,
      budget: lotValues[i] ?? null,
      currency: lotValues[i] === null ? null : currency,
      cpvCodes: []
    }))

    let nativeId: string
    let url: string
    let docsUrl: Array<string>
    if (is223) ({ nativeId, url, docsUrl } = notice223(random, ids))
    else {
      do {
        const next = (seqs.get(buyer.registryNumber) ?? random.int(40, 400)) + random.int(1, 12)
        seqs.set(buyer.registryNumber, next)
        nativeId = `${buyer.registryNumber}26${String(next).padStart(6, "0")}`
      } while (ids.has(nativeId))
      // Small purchases are requests for quotations (zk20), a few large ones open tenders (ok20).
      const rubValue = major / sizeRate
      const works = codes.some((c) => /^4[1-3]\./u.test(c))
      const segment =
        rubValue < 3e6 && !works && random.chance(0.4)
          ? "zk20"
          : rubValue > 5e6 && random.chance(0.15)
            ? "ok20"
            : "ea20"
      const base = `https://zakupki.gov.ru/epz/order/notice/${segment}/view`
      url = `${base}/common-info.html?regNumber=${nativeId}`
      docsUrl = [`${base}/documents.html?regNumber=${nativeId}`]
      for (let i = random.int(0, 3); i > 0; i--)
        docsUrl.push(
          `https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=${random.hex(32, true)}`
        )
    }
    ids.add(nativeId)

    const deadline = makeDeadline(random, p.deadline, fixedZone(buyer.utcOffset * 60), eaeuDeadlineTimes, true)
    const published = makePublished(
      random,
      deadline,
      (k) => localToUtc(-k, [random.int(8, 20), random.int(0, 59), random.int(0, 59)], moscow),
      is223 ? [8, 30] : [8, 20],
      0.9
    )
    return {
      id: `eaeu-${nativeId}`,
      source: "eaeu",
      nativeId,
      title,
      buyer: buyer.name,
      country: buyer.country,
      region: buyer.region,
      budget,
      currency: budget === null ? null : currency,
      deadline: deadline === null ? null : utc(deadline),
      publishedAt: utc(published.ms),
      status: p.status,
      url,
      cpvCodes: [],
      okpd2Codes,
      lots,
      docsUrl
    }
  })
}
