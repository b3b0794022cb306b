import { assert, describe, layer } from "@effect/vitest"
import {
  AccountStore,
  createWatchlist,
  evaluateAlerts,
  type Filters,
  hasEveryClause,
  isOpen,
  listAlerts,
  Rates,
  SearchText,
  type TenderRecord,
  TenderStore,
  toSearchQuery
} from "@tenders/core"
import { isoFromNow, makeRecord, memoryStoreWith } from "@tenders/core/testing"
import { SearchTextLive } from "@tenders/search-text"
import { DateTime, Effect, Layer } from "effect"
import { backends } from "./backends.ts"

// The store ranks by core's `relevance` (TextQuery.ts) through its own SQL: levels of relevance, the GIN index or
// the deadline order chosen from statistics, a candidate window (RankedSearch.ts). Over a corpus where the window
// holds every candidate, its order must be exactly the in-memory store's, which scores every tender in TypeScript.

/** A small deterministic generator (a linear congruential one): the same corpus on every run. */
const generator = (seed: number) => {
  let state = seed
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    return state / 2_147_483_648
  }
  return { next, pick: <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)] as A }
}

const languages = {
  en: {
    country: "IE",
    titles: ["Road repair", "Supply of medicines", "School roof repair", "Cleaning services", "Office furniture"],
    buyers: ["Dublin City Council", "Cork County Council"]
  },
  de: {
    country: "DE",
    titles: ["Straßensanierung", "Lieferung von Arzneimitteln", "Reinigungsleistungen", "Büromöbel", "Dachsanierung"],
    buyers: ["Stadt Köln", "Landeshauptstadt München"]
  },
  pl: {
    country: "PL",
    titles: ["Remont dróg", "Dostawa leków", "Usługi sprzątania", "Meble biurowe", "Remont dachu szkoły"],
    buyers: ["Gmina Kraków", "Miasto Gdańsk"]
  },
  fr: {
    country: "FR",
    titles: ["Réparation des routes", "Fourniture de médicaments", "Services de nettoyage", "Mobilier de bureau"],
    buyers: ["Ville de Lyon", "Métropole de Lille"]
  },
  ru: {
    country: "RU",
    titles: [
      "Ремонт автомобильной дороги",
      "Поставка лекарственных препаратов",
      "Капитальный ремонт кровли школы",
      "Оказание услуг по уборке",
      "Поставка офисной мебели"
    ],
    buyers: ["Администрация г. Казань", "Администрация г. Екатеринбург"]
  },
  hy: {
    country: "AM",
    titles: [
      "Ճանապարհների վերանորոգում",
      "Դեղորայքի ձեռքբերում",
      "Դպրոցի տանիքի վերանորոգում",
      "Մաքրման ծառայություններ",
      "Գրասենյակային կահույք"
    ],
    buyers: ["Գյումրու համայնքապետարան", "Երևանի քաղաքապետարան"]
  }
} as const

const cpvs = ["45233140", "33600000", "45261210", "90910000", "39130000"]
const okpd2 = ["42.11.10.120", "21.20.10.110", "43.91.19.110", "81.21.10.000", "31.01.12.110"]

const corpus = (size: number): ReadonlyArray<TenderRecord> => {
  const { next, pick } = generator(7)
  const fixed = makeRecord({
    id: "gnumner-rank-roof",
    source: "gnumner",
    title: "Դպրոցի տանիքի վերանորոգում",
    buyer: "Գյումրու համայնքապետարան",
    country: "AM",
    cpvCodes: ["45261210"],
    deadline: isoFromNow(30)
  })
  const generated = Array.from({ length: size - 1 }, (_, i) => {
    const language = pick(Object.keys(languages) as ReadonlyArray<keyof typeof languages>)
    const words = languages[language]
    const subject = Math.floor(next() * cpvs.length)
    const source = language === "ru" ? "eaeu" : language === "hy" ? "gnumner" : "ted"
    const roll = next()
    return makeRecord({
      id: `${source}-rank-${String(i).padStart(3, "0")}`,
      source,
      title: words.titles[subject % words.titles.length] ?? words.titles[0],
      buyer: pick(words.buyers),
      country: words.country,
      cpvCodes: source === "eaeu" ? [] : [cpvs[subject] ?? "45233140"],
      okpd2Codes: source === "eaeu" ? [okpd2[subject] ?? "42.11.10.120"] : [],
      lots: roll < 0.2 ? [{ title: pick(languages.en.titles), budget: null, currency: null, cpvCodes: [] }] : [],
      // Distinct deadlines: the order never rests on the id, whose collation the database decides.
      deadline: isoFromNow(roll < 0.1 ? -1 - i / 100 : 1 + i / 24),
      status: roll > 0.95 ? "cancelled" : "open"
    })
  })
  return [...generated, fixed]
}

const queries: ReadonlyArray<Filters> = [
  // Cross-language, in English, Russian, Armenian, German, Polish and French.
  { q: "road repair" },
  { q: "ремонт дорог" },
  { q: "ճանապարհների վերանորոգում" },
  { q: "Straßensanierung" },
  { q: "Reparatur der Straßen" },
  { q: "remont dróg" },
  { q: "réparation des routes" },
  { q: "medicines" },
  { q: "school roof repair" },
  { q: "кровля школы" },
  // Armenian inflection: the plural and the genitive of the title's words.
  { q: "դպրոցներ" },
  { q: "ճանապարհ" },
  // Typos, codes (a CPV prefix, a CPV code with its check digit, OKPD2 with dots, through the crosswalk).
  { q: "furnture" },
  { q: "лекарственых" },
  { q: "45233" },
  { q: "33600000-6" },
  { q: "42.11" },
  // Places across scripts.
  { q: "Gyumri" },
  { q: "Гюмри" },
  { q: "Kazan" },
  { q: "Cologne" },
  { q: "Krakow" },
  // Words with filters.
  { q: "repair", countries: ["DE", "PL", "AM"] },
  { q: "cleaning", cpv: ["909"] },
  { q: "ремонт", countries: ["RU"] }
]

/** The in-memory store holding the same tenders: it scores every tender with core's `relevance`. */
const memoryTwin = (records: ReadonlyArray<TenderRecord>) =>
  Effect.gen(function* () {
    const twin = yield* TenderStore
    yield* twin.upsert(records)
    return twin
  }).pipe(Effect.provide(memoryStoreWith(SearchTextLive)))

describe("search ranks as core's relevance does", () => {
  for (const [name, makeLayer] of backends()) {
    layer(Layer.mergeAll(makeLayer(), Rates.bundled), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect(`on ${name}: the same order and the same approximate flag as the in-memory store`, () =>
        Effect.gen(function* () {
          const records = corpus(90)
          const store = yield* TenderStore
          // Watchlists saved before the tenders come: each alerts on the tenders with every clause, as typed.
          // One account each: an account lists at most 50 alerts.
          const watched = ["road repair", "ремонт дорог", "Gyumri", "42.11", "school roof repair"]
          const accountStore = yield* AccountStore
          const accounts = yield* Effect.forEach(watched, (_, i) =>
            accountStore.saveAccount({ email: `ranking-${i}@example.com`, plan: "business", monthlyLimit: null })
          )
          yield* Effect.forEach(watched, (q, i) => createWatchlist({ name: q, filters: { q } }, accounts[i]!))
          const now = yield* DateTime.now
          yield* store.upsert(records)
          const memory = yield* memoryTwin(records)
          const compare = Effect.fn(function* (when: string) {
            let found = 0
            for (const filters of queries) {
              for (const limit of [10, 3]) {
                const query = yield* toSearchQuery(filters, limit)
                const actual = yield* store.search(query)
                const expected = yield* memory.search(query)
                const ids = (tenders: ReadonlyArray<TenderRecord>) => tenders.map((tender): string => tender.id)
                const label = `${when}: ${JSON.stringify(filters)} limit ${limit}`
                assert.deepStrictEqual(ids(actual.tenders), ids(expected.tenders), label)
                assert.strictEqual(actual.approximate, expected.approximate, label)
                found += actual.tenders.length
              }
            }
            assert.isAbove(found, 200) // the queries find something: the comparison is not of empty pages
          })
          yield* compare("without statistics")
          yield* store.refreshStatistics
          yield* compare("with statistics")

          // What the comparison stands on: each capability finds what it should.
          const kinds = (q: string) =>
            Effect.map(toSearchQuery({ q }, 50), (query) => query).pipe(
              Effect.flatMap((query) => store.search(query)),
              Effect.map((found) => new Set(found.tenders.map((tender) => tender.source)))
            )
          for (const q of [
            "road repair",
            "ремонт дорог",
            "ճանապարհների վերանորոգում",
            "remont dróg",
            "Reparatur der Straßen",
            "réparation des routes"
          ]) {
            assert.deepStrictEqual([...(yield* kinds(q))].toSorted(), ["eaeu", "gnumner", "ted"], q)
          }
          const ids = (q: string) =>
            toSearchQuery({ q }, 50).pipe(
              Effect.flatMap((query) => store.search(query)),
              Effect.map((found) => found.tenders.map((tender): string => tender.id))
            )
          // Generic procurement words only, in three languages: every tender matches such a query whole (the
          // condition is a constant in SQL).
          assert.isAbove((yield* ids("поставка ձեռքբերում supply")).length, 0)
          const gyumri = records.filter((r) => r.buyer === "Գյումրու համայնքապետարան" && isOpen(r, now))
          for (const q of ["Gyumri", "Гюмри", "Գյումրի"]) {
            assert.includeMembers(
              yield* ids(q),
              gyumri.map((r): string => r.id),
              q
            )
          }
          const roofs = records.filter((r) => r.title === "Դպրոցի տանիքի վերանորոգում").map((r): string => r.id)
          assert.includeMembers(roofs, (yield* ids("դպրոցներ")).slice(0, 1)) // the plural finds the singular first
          assert.deepStrictEqual((yield* toSearchQuery({ q: "furnture" }, 10)).text.corrections, [
            ["furnture", "furniture"]
          ])
          // A code finds the tenders classified under it (through the crosswalk), then those whose words name it.
          const roads = records
            .filter((r) => isOpen(r, now) && (r.okpd2Codes.includes("42.11.10.120") || r.cpvCodes.includes("45233140")))
            .map((r): string => r.id)
          const byCode = yield* ids("42.11")
          assert.sameMembers(byCode.slice(0, roads.length), roads)
          const roadTitles = new Set<string>(Object.values(languages).map((language) => language.titles[0]))
          const named = records.filter((r) => byCode.slice(roads.length).includes(r.id))
          assert.isAbove(named.length, 0)
          for (const r of named) assert.isTrue([r.title, ...r.lots.map((l) => l.title)].some((t) => roadTitles.has(t)))

          // Alerts: a watchlist's `new` alerts are the open tenders having every clause of its words, as search
          // matches them (in Russian and Armenian for an English watchlist).
          yield* evaluateAlerts()
          const text = yield* SearchText
          for (const [i, q] of watched.entries()) {
            const plan = text.queryPlan(q)
            const expected = records
              .filter((r) => isOpen(r, now) && hasEveryClause(plan.clauses, text.documentTerms(r)))
              .map((r): string => r.id)
            const raised = (yield* listAlerts(accounts[i]!.id)).alerts.filter((a) => a.reason === "new")
            assert.sameMembers(
              raised.map((a) => a.tender.id),
              expected,
              q
            )
            assert.isAbove(expected.length, 0, q)
            if (q === "road repair") {
              assert.deepStrictEqual([...new Set(raised.map((a) => a.tender.source))].toSorted(), [
                "eaeu",
                "gnumner",
                "ted"
              ])
            }
          }
        })
      )
    })
  }
})

describe("search ranks the tenders lacking one word of a long query", () => {
  for (const [name, makeLayer] of backends()) {
    layer(Layer.mergeAll(makeLayer(), Rates.bundled), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect(`on ${name}: above more than a candidate window of tenders having one word, nearer deadlines`, () =>
        Effect.gen(function* () {
          // 120 tenders with one word of the query, all due before the one that lacks only "annual"; one more has
          // "annual", so that the word is known and not read as another.
          const oneWord = Array.from({ length: 120 }, (_, i) =>
            makeRecord({
              id: `ted-one-${String(i).padStart(3, "0")}`,
              title: "Boiler",
              deadline: isoFromNow(1 + i / 24)
            })
          )
          const annual = makeRecord({ id: "ted-annual", title: "Annual report printing", deadline: isoFromNow(20) })
          const target = makeRecord({
            id: "ted-target",
            title: "Boiler maintenance and heating",
            deadline: isoFromNow(60)
          })
          const records = [...oneWord, annual, target]
          const store = yield* TenderStore
          yield* store.upsert(records)
          const memory = yield* memoryTwin(records)
          const query = yield* toSearchQuery({ q: "annual boiler maintenance heating" }, 10)
          // Without statistics the clauses weigh alike; with them, as the memory store weighs them from its counts
          // ("annual" is rare: its tender comes next).
          for (const when of ["without statistics", "with statistics"]) {
            if (when === "with statistics") yield* store.refreshStatistics
            const found = (yield* store.search(query)).tenders.map((tender): string => tender.id)
            assert.strictEqual(found[0], "ted-target", when)
            if (when === "with statistics") assert.strictEqual(found[1], "ted-annual")
            if (when === "with statistics")
              assert.deepStrictEqual(
                found,
                (yield* memory.search(query)).tenders.map((tender): string => tender.id),
                when
              )
          }
        })
      )
    })
  }
})
