import type { RecordFields } from "./checks.ts"
import {
  anchor,
  DAY,
  euZones,
  localToUtc,
  makeDeadline,
  makePublished,
  type PlannedRecord,
  utc,
  weekday
} from "./dates.ts"
import { budgetStyle, decimals, logUniform, makeBudget } from "./money.ts"
import type { Random } from "./random.ts"
import { cpvLabels, lookup, topicWeights } from "./tables.ts"
import {
  tedBuyers,
  tedBuyerTypes,
  tedCountries,
  tedDeadlineTimes,
  type TedBuyer,
  type TedLanguage,
  tedLanguage,
  platformUrl,
  tedSizeRates,
  tedTopics
} from "./tedTables.ts"
import { canFill, type Context, fill, parseTemplate, type Template, unique } from "./templates.ts"

// TED numbers notices per working day of the year; a publication number is `<n>-2026`.
const weekdaysSinceNewYear = (dayMs: number) => {
  let n = 0
  for (let d = Date.UTC(2026, 0, 1); d <= dayMs; d += DAY) if (weekday(d) !== 0 && weekday(d) !== 6) n++
  return n
}

const titleContext = (random: Random, buyer: TedBuyer, language: TedLanguage): Context => {
  const streets = random.shuffle(language.streets)
  const schools = random.shuffle(language.schools)
  const places = random.shuffle(buyer.places ?? [])
  const road = buyer.roads ? random.pick(buyer.roads) : undefined
  const townish = buyer.type !== "roads" || buyer.urban === true
  return {
    city: buyer.city,
    town: townish ? buyer.city : undefined,
    street: townish ? streets[0] : undefined,
    street2: streets[1],
    street3: streets[2],
    school: schools[0],
    school2: schools[1] ?? schools[0],
    district: buyer.districts ? random.pick(buyer.districts) : undefined,
    road,
    landroad: road !== undefined && /^[BLK] /u.test(road) ? road : undefined,
    from: places[0],
    to: places[1],
    landfrom: buyer.meisterei ? places[0] : undefined,
    ameister: buyer.autobahn ? places[0] : undefined,
    rn: buyer.roadNums ? random.pick(buyer.roadNums) : undefined,
    n: random.int(2, 98),
    year: 2027,
    year2: random.pick([2028, 2029]),
    year3: 2030,
    season: "2026/2027",
    site: buyer.site,
    buyerShort: buyer.short
  }
}

interface TitleChoice {
  readonly buyer: TedBuyer
  readonly language: TedLanguage
  readonly topic: string
  readonly template: Template
  /** The procedure title in the buyer's language. */
  readonly procedure: string
  readonly title: string
  readonly mainCpv: string
}

/** TED records for a status plan: buyers spread over countries as `ted/countries.json` says. */
export const buildTed = (random: Random, plan: ReadonlyArray<PlannedRecord>): Array<RecordFields> => {
  const countries = random.shuffle(
    Object.entries(tedCountries).flatMap(([code, country]) => Array<string>(country.notices).fill(code))
  )
  if (countries.length !== plan.length) throw new Error(`TED: ${countries.length} countries for ${plan.length} plans`)
  const queues = new Map<string, Array<TedBuyer>>()
  const nextBuyer = (country: string) => {
    let queue = queues.get(country)
    if (queue === undefined || queue.length === 0) {
      queue = random.shuffle(tedBuyers.filter((b) => b.country === country))
      queues.set(country, queue)
    }
    const buyer = queue.pop()
    if (buyer === undefined) throw new Error(`TED: no buyer in ${country}`)
    return buyer
  }
  const titles = new Set<string>()
  const ids = new Set<string>()
  let bgnLeft = 2
  return plan.map((p, idx) => {
    const c = countries[idx] ?? ""
    const meta = lookup(tedCountries, c, "country")
    let buyer: TedBuyer | undefined
    let choice: TitleChoice | undefined
    for (let attempt = 0; attempt < 60; attempt++) {
      buyer = attempt % 6 === 0 || buyer === undefined ? nextBuyer(c) : buyer
      const language = tedLanguage(buyer.language)
      const weights = lookup(tedBuyerTypes, buyer.type, "buyer type")
      const topic = random.weighted(topicWeights(weights).filter(([t]) => language.topics[t] !== undefined))
      const context = titleContext(random, buyer, language)
      const templates = lookup(language.topics, topic, "topic")
        .map(parseTemplate)
        .filter((t) => canFill(t.text, context))
      if (templates.length === 0) continue
      const template = random.pick(templates)
      const procedure = fill(template.text, context)
      const mainCpv = template.codes ? (template.codes[0] ?? "") : lookup(tedTopics, topic, "topic").cpv
      const title = `${meta.name} – ${lookup(cpvLabels, mainCpv, "CPV code")} – ${procedure}`
      choice = { buyer, language, topic, template, procedure, title, mainCpv }
      if (!titles.has(title)) break
    }
    if (choice === undefined) throw new Error(`TED: no title for a buyer in ${c}`)
    const { language, topic, template, procedure, title, mainCpv } = choice
    buyer = choice.buyer
    titles.add(title)

    // Works split by trade always keep the main trade (first entry) as lot 1.
    const lotTemplates = language.lots[topic]
    const multi = template.lots && lotTemplates !== undefined && lotTemplates.length >= 2 && random.chance(0.45)
    const keepFirst = topic === "road" || topic === "school"
    const pool = (lotTemplates ?? []).map(([name, cpv], index) => ({ name, cpv, index }))
    const chosen = multi
      ? (keepFirst
          ? [pool[0], ...random.sample(pool.slice(1), random.int(1, Math.min(5, pool.length - 1)))]
          : random.sample(pool, random.int(2, Math.min(6, pool.length)))
        ).sort((a, b) => a.index - b.index)
      : [{ name: procedure, cpv: mainCpv }]
    const prefixed = multi && random.chance(0.6)
    let currency = meta.currency
    if (c === "BG" && bgnLeft > 0) {
      currency = "BGN"
      bgnLeft--
    }
    const [lo, hi] = lookup(tedTopics, topic, "topic").eur
    const { budget, lotValues } = makeBudget(random, {
      hasBudget: !random.chance(0.15),
      major: logUniform(random, lo, hi) * lookup(tedSizeRates, currency, "currency"),
      dp: decimals(currency),
      vat: meta.vat,
      style: budgetStyle(random),
      lotCount: chosen.length,
      lotBudgets: !(multi && random.chance(0.2))
    })
    const lots = chosen.map(({ name, cpv }, i) => ({
      title: prefixed ? fill(language.lot, { i: i + 1 }) + name : name,
      budget: lotValues[i] ?? null,
      currency: lotValues[i] === null ? null : currency,
      cpvCodes: [cpv]
    }))

    const deadline = makeDeadline(random, p.deadline, euZones[meta.zone], tedDeadlineTimes, true)
    const published = makePublished(random, deadline, (k) => localToUtc(-k, [0, 0, 0], euZones.CET), [12, 52], 1)
    let nativeId: string
    do {
      nativeId = `${weekdaysSinceNewYear(anchor - published.k * DAY) * 3360 + random.int(0, 3359)}-2026`
    } while (ids.has(nativeId))
    ids.add(nativeId)
    const pdf = `https://ted.europa.eu/en/notice/${nativeId}/pdf`
    const docsRoll = random.next()
    const docsUrl =
      docsRoll < 0.7 ? [platformUrl(random, buyer)] : docsRoll < 0.85 ? [platformUrl(random, buyer), pdf] : [pdf]

    return {
      id: `ted-${nativeId}`,
      source: "ted",
      nativeId,
      title,
      buyer: buyer.name,
      country: c,
      region: random.chance(0.03) ? null : buyer.nuts,
      budget,
      currency: budget === null ? null : currency,
      deadline: deadline === null ? null : utc(deadline),
      publishedAt: utc(published.ms),
      status: p.status,
      url: `https://ted.europa.eu/en/notice/-/detail/${nativeId}`,
      cpvCodes: unique([mainCpv, ...lots.flatMap((l) => l.cpvCodes)]),
      okpd2Codes: [],
      lots,
      docsUrl
    }
  })
}
