// The synthetic tenders and search requests of the benchmarks (bench:search, bench:http): the same seed gives the
// same tenders and the same queries on every run.
import { type SearchRequest, type TenderRecord, TenderId } from "@tenders/core"
import { seededRandom } from "./random.ts"

/** The benchmarks' generator: tenders by index and the query classes, drawn from one seeded sequence. */
export const benchData = (seed: number) => {
  const { pick, random } = seededRandom(seed)

  // "services" is in about half of the English titles (the most common word), "maintenance" in ~10%,
  // "bathyscaphe" in ~1 of 10,000 (the rare word).
  const en = {
    actions: [
      "Supply of",
      "Provision of",
      "Framework agreement for",
      "Purchase of",
      "Delivery of",
      "Maintenance services for",
      "Consulting services for",
      "Cleaning services for",
      "Construction of",
      "Repair of"
    ],
    objects: [
      "medical equipment",
      "office furniture",
      "IT hardware",
      "road resurfacing",
      "school buildings",
      "street lighting",
      "laboratory reagents",
      "fuel cards",
      "waste collection",
      "software licences",
      "hospital beds",
      "public transport buses",
      "bridge inspection",
      "water pipelines",
      "security services",
      "catering services",
      "printing services",
      "translation services",
      "maintenance of lifts",
      "winter road maintenance"
    ],
    places: [
      "Köln",
      "Lyon",
      "Madrid",
      "Milano",
      "Kraków",
      "Rotterdam",
      "Göteborg",
      "Brno",
      "Cluj-Napoca",
      "Porto",
      "Graz",
      "Gent",
      "Cork",
      "Aarhus",
      "Tampere"
    ]
  }
  const ru = {
    actions: [
      "Поставка",
      "Выполнение работ по ремонту",
      "Оказание услуг по уборке",
      "Капитальный ремонт",
      "Закупка",
      "Техническое обслуживание"
    ],
    objects: [
      "автомобильной дороги",
      "лекарственных препаратов",
      "компьютерного оборудования",
      "здания школы",
      "медицинских изделий",
      "топлива",
      "продуктов питания",
      "мебели",
      "систем видеонаблюдения"
    ],
    places: [
      "г. Казань",
      "г. Екатеринбург",
      "Московской области",
      "г. Новосибирск",
      "Республики Татарстан",
      "г. Самара"
    ]
  }
  const hy = {
    actions: ["Ձեռքբերում՝", "Վերանորոգման աշխատանքներ՝", "Մատակարարում՝", "Ծառայությունների ձեռքբերում՝"],
    objects: [
      "ճանապարհների",
      "դեղորայքի",
      "համակարգչային տեխնիկայի",
      "դպրոցի շենքի",
      "վառելիքի",
      "կահույքի",
      "բժշկական սարքավորումների"
    ],
    places: ["Երևան", "Գյումրի", "Վանաձոր", "Շիրակ", "Լոռի", "Կոտայք"]
  }
  const countries = ["DE", "FR", "ES", "IT", "PL", "NL", "SE", "CZ", "RO", "PT", "AT", "BE", "IE", "DK", "FI"]
  const currencies = ["EUR", "EUR", "EUR", "EUR", "PLN", "CZK", "SEK", "DKK", "RON"]
  const cpvs = [
    "45233140",
    "33100000",
    "30213000",
    "39130000",
    "90910000",
    "34144000",
    "72260000",
    "45214200",
    "09132000",
    "79810000"
  ]
  const now = Date.now()
  const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z")

  const makeTender = (i: number): TenderRecord => {
    const roll = random()
    const source = roll < 0.7 ? "ted" : roll < 0.9 ? "eaeu" : "gnumner"
    const words = source === "ted" ? en : source === "eaeu" ? ru : hy
    let title = `${pick(words.actions)} ${pick(words.objects)} ${pick(words.places)}`
    if (source === "ted" && random() < 0.5 && !title.includes("services")) title += " and related services"
    if (source === "ted" && random() < 0.0001) title += " incl. bathyscaphe survey"
    const deadlineDays = random() < 0.15 ? -random() * 60 : random() * 90
    const status = random() < 0.1 ? "amended" : random() < 0.06 ? "cancelled" : random() < 0.08 ? "closed" : "open"
    const id =
      source === "ted"
        ? `ted-${1000000 + i}-2026`
        : source === "eaeu"
          ? `eaeu-03731000349260${String(i).padStart(6, "0")}`
          : `gnumner-bench-26-${i}`
    return {
      id: TenderId.make(id),
      source,
      nativeId: id.slice(id.indexOf("-") + 1),
      title,
      buyer:
        source === "ted"
          ? `Municipality of ${pick(en.places)}`
          : source === "eaeu"
            ? `Администрация ${pick(ru.places)}`
            : `${pick(hy.places)} համայնքապետարան`,
      country: source === "ted" ? pick(countries) : source === "eaeu" ? "RU" : "AM",
      region: null,
      budget:
        random() < 0.15
          ? null
          : String(
              (Math.round(random() * 5_000_000) + 1000) * (source === "eaeu" ? 90 : source === "gnumner" ? 400 : 1)
            ),
      currency: source === "ted" ? pick(currencies) : source === "eaeu" ? "RUB" : "AMD",
      deadline: iso(now + deadlineDays * 86_400_000),
      publishedAt: iso(now - random() * 40 * 86_400_000),
      status,
      url: `https://example.org/notice/${id}`,
      cpvCodes: [pick(cpvs)],
      okpd2Codes: source === "eaeu" ? ["42.11.10.120"] : [],
      lots: [],
      docsUrl: []
    }
  }

  const classes: ReadonlyArray<readonly [string, (i: number) => SearchRequest]> = [
    ["rare word", () => ({ q: "bathyscaphe" })],
    ["common word", () => ({ q: pick(["maintenance", "cleaning", "repair"]) })],
    ["most common word", () => ({ q: "services" })],
    ["Russian", () => ({ q: pick(["ремонт дороги", "поставка лекарственных", "топливо"]) })],
    ["Armenian", () => ({ q: pick(["ճանապարհ", "դեղորայք", "վառելիք"]) })],
    // Words of one language that find tenders written in the others (concepts of the glossary and CPV labels).
    ["cross-language", () => ({ q: pick(["road repair", "medicines", "school building", "ремонт школы", "fuel"]) })],
    // Misspelt words, read as the most similar indexed word.
    ["typo", () => ({ q: pick(["maintenence", "laboratroy reagents", "лекарственых", "ճանապարհնեի"]) })],
    ["code", () => ({ q: pick(["45233", "33100000-1", "42.11", "0913"]) })],
    ["place", () => ({ q: pick(["Kazan", "Cologne", "Krakow", "Gyumri", "Екатеринбург"]) })]
  ]
  const withFilters = (request: SearchRequest): SearchRequest => ({
    ...request,
    countries: [pick(countries), pick(countries), "RU", "AM"],
    minBudget: 100_000,
    maxBudget: 3_000_000,
    budgetCurrency: "EUR"
  })
  return { pick, random, makeTender, classes, withFilters }
}
