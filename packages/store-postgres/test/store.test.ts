import { assert, describe, layer } from "@effect/vitest"
import {
  AccountStore,
  AlertStore,
  createWatchlist,
  makeAlertEvaluator,
  deliverDue,
  DeliveryStore,
  type DeliveryOutcome,
  evaluateAlerts,
  listAlerts,
  Notifier,
  WatchlistId,
  WatchlistStore,
  type Filters,
  lifecycleResolverAt,
  NoticeStore,
  type ParsedNotice,
  Rates,
  runIfDue,
  runSource,
  type SourceFeed,
  SourceRunStore,
  sourceHealth,
  SourceUnavailable,
  TenderId,
  TenderStore,
  toSearchQuery
} from "@tenders/core"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Duration, Effect, Layer, Option, Ref, Stream } from "effect"
import { deadlineLexemes } from "../src/SearchSql.ts"
import { backends } from "./backends.ts"

const records = [
  makeRecord({
    id: "ted-200001-2026",
    title: "Resurfacing of municipal roads",
    country: "DE",
    budget: "250000",
    currency: "EUR",
    cpvCodes: ["45233222"],
    deadline: isoFromNow(10)
  }),
  makeRecord({
    id: "ted-200002-2026",
    title: "Krankenhausbetten Lieferung",
    buyer: "Universitätsklinikum Köln",
    country: "DE",
    budget: "80000",
    cpvCodes: ["33192100"],
    deadline: isoFromNow(3)
  }),
  makeRecord({
    id: "ted-200003-2026",
    title: "Dostawa sprzętu komputerowego",
    country: "PL",
    budget: "400000",
    currency: "PLN",
    cpvCodes: ["30213000"],
    deadline: isoFromNow(20)
  }),
  makeRecord({ id: "ted-200004-2026", title: "Road bridge repair", status: "closed", deadline: isoFromNow(-5) }),
  makeRecord({ id: "ted-200005-2026", title: "Road lighting maintenance", deadline: isoFromNow(-1) }),
  makeRecord({
    id: "ted-200006-2026",
    title: "Cleaning services for schools",
    country: "FR",
    budget: null,
    currency: null,
    cpvCodes: ["90911200"],
    deadline: isoFromNow(1),
    lots: [{ title: "Road sweeping", budget: null, currency: null, cpvCodes: ["90611000"] }]
  }),
  makeRecord({
    id: "eaeu-0373100034926000123",
    source: "eaeu",
    title: "Выполнение работ по ремонту автомобильной дороги",
    buyer: "Администрация городского округа",
    country: "RU",
    budget: "15000000.50",
    currency: "RUB",
    cpvCodes: [],
    okpd2Codes: ["42.11.10.120"],
    deadline: isoFromNow(7),
    url: "https://zakupki.gov.ru/x"
  }),
  makeRecord({
    id: "gnumner-hh-fn-eachapdzb-26-15",
    source: "gnumner",
    nativeId: "ՀՀ ՖՆ ԷԱՃԱՊՁԲ-26/15",
    title: "Ճանապարհների վերանորոգման աշխատանքներ",
    buyer: "Երևանի քաղաքապետարան",
    country: "AM",
    budget: "100000000",
    currency: "AMD",
    cpvCodes: ["45233142"],
    deadline: isoFromNow(12),
    url: "https://gnumner.minfin.am/x"
  }),
  makeRecord({
    id: "gnumner-ek-eachapdzb-26-7",
    source: "gnumner",
    nativeId: "ԵՔ-ԷԱՃԱՊՁԲ-26/7",
    title: "HP LaserJet տպիչների ձեռքբերում",
    country: "AM",
    budget: "3500000",
    currency: "AMD",
    cpvCodes: ["30232110"],
    deadline: isoFromNow(0.5),
    url: "https://gnumner.minfin.am/y"
  })
]

const search = (filters: Filters, limit = 20) =>
  Effect.gen(function* () {
    const store = yield* TenderStore
    const query = yield* toSearchQuery(filters, limit)
    const found = yield* store.search(query)
    return found.tenders.map((r): string => r.id)
  })

for (const [name, makeLayer] of backends()) {
  describe(`store on ${name}`, () => {
    layer(Layer.mergeAll(makeLayer(), Rates.bundled), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("upserts idempotently: the same records twice are one tender each", () =>
        Effect.gen(function* () {
          const store = yield* TenderStore
          const first = yield* store.upsert(records)
          assert.deepStrictEqual(first, { new: records.length, updated: 0, unchanged: 0 })
          const again = yield* store.upsert(records)
          assert.deepStrictEqual(again, { new: 0, updated: 0, unchanged: records.length })
          const changed = yield* store.upsert([
            { ...records[0]!, title: "Resurfacing of municipal roads and paths" },
            records[0]!
          ])
          assert.deepStrictEqual(changed, { new: 0, updated: 0, unchanged: 2 })
          assert.strictEqual(yield* store.size, records.length)
          const edited = yield* store.upsert([{ ...records[1]!, budget: "81000" }])
          assert.deepStrictEqual(edited, { new: 0, updated: 1, unchanged: 0 })
          const got = yield* store.get(records[1]!.id)
          assert.strictEqual(Option.getOrThrow(got).budget, "81000")
          assert.match(Option.getOrThrow(got).updatedAt, /Z$/u)
        })
      )

      it.effect("finds open tenders by stemmed words in any language, best match first, across languages", () =>
        Effect.gen(function* () {
          // The English title first, then the Russian and Armenian road tenders (a concept in their titles), then
          // the English lot name; closed and lapsed road tenders never.
          assert.deepStrictEqual(yield* search({ q: "roads" }), [
            "ted-200001-2026",
            "eaeu-0373100034926000123",
            "gnumner-hh-fn-eachapdzb-26-15",
            "ted-200006-2026"
          ])
          assert.deepStrictEqual(yield* search({ q: "roads" }, 1), ["ted-200001-2026"])
          assert.deepStrictEqual(yield* search({ q: "ремонт дорог" }), [
            "eaeu-0373100034926000123",
            "gnumner-hh-fn-eachapdzb-26-15",
            "ted-200001-2026",
            "ted-200006-2026"
          ])
          assert.deepStrictEqual((yield* search({ q: "Yerevan" }))[0], "gnumner-hh-fn-eachapdzb-26-15")
          // OKPD2 42.11 (roads) is CPV 4523 through the crosswalk, both ways; after the tenders classified under it,
          // one whose lot ("Road sweeping": road, maintenance) names the CPV code of road-maintenance works.
          assert.deepStrictEqual(yield* search({ q: "42.11" }), [
            "eaeu-0373100034926000123",
            "ted-200001-2026",
            "gnumner-hh-fn-eachapdzb-26-15",
            "ted-200006-2026"
          ])
          // Equal code matches: nearest deadline first (then the tender whose words name a code of the class).
          assert.deepStrictEqual(yield* search({ q: "4523" }), [
            "eaeu-0373100034926000123",
            "ted-200001-2026",
            "gnumner-hh-fn-eachapdzb-26-15",
            "ted-200006-2026"
          ])
          assert.deepStrictEqual(yield* search({ q: "sweeping" }), ["ted-200006-2026"])
          // A word in the tender's own language ranks it above the same concept in other languages.
          assert.deepStrictEqual((yield* search({ q: "дороги" }))[0], "eaeu-0373100034926000123")
          assert.deepStrictEqual((yield* search({ q: "ճանապարհ" }))[0], "gnumner-hh-fn-eachapdzb-26-15")
          assert.deepStrictEqual(yield* search({ q: "LaserJet" }), ["gnumner-ek-eachapdzb-26-7"])
          // Not every word must match: "hp" alone still finds the HP printers.
          assert.deepStrictEqual(yield* search({ q: "тпич hp" }), ["gnumner-ek-eachapdzb-26-7"])
          assert.deepStrictEqual(yield* search({ q: "Universitätsklinikum" }), ["ted-200002-2026"])
        })
      )

      it.effect("reads a word the index does not know as the most similar indexed word, and says so", () =>
        Effect.gen(function* () {
          const store = yield* TenderStore
          const plan = (q: string) => Effect.map(toSearchQuery({ q }, 10), (query) => query)
          const typo = yield* plan("Universitätsklinikm")
          assert.deepStrictEqual(typo.text.corrections, [["universitätsklinikm", "universitatsklinikum"]])
          assert.deepStrictEqual(
            (yield* store.search(typo)).tenders.map((r): string => r.id),
            ["ted-200002-2026"]
          )
          const russian = yield* plan("выполнние работ")
          assert.deepStrictEqual(russian.text.corrections, [["выполнние", "выполнение"]])
          // Two letters swapped are one edit (Damerau–Levenshtein); a long word may have two, and no more.
          const swapped = yield* plan("выполенние работ")
          assert.deepStrictEqual(swapped.text.corrections, [["выполенние", "выполнение"]])
          assert.deepStrictEqual((yield* plan("выпалнниея работ")).text.corrections, []) // three edits
          // Known words, accents aside, are not corrected; nothing similar is left alone.
          assert.deepStrictEqual((yield* plan("Universitatsklinikum")).text.corrections, [])
          const nothing = yield* store.search(yield* plan("zzzzqqqq"))
          assert.deepStrictEqual([nothing.tenders.length, nothing.approximate], [0, false])
          // A tender lacking a word may follow, marked approximate.
          const partial = yield* store.search(yield* plan("Krankenhausbetten zzzzqqqq"))
          assert.deepStrictEqual(
            [partial.tenders.map((r): string => r.id), partial.approximate],
            [["ted-200002-2026"], true]
          )
        })
      )

      it.effect("keeps the names sources give their codes, each once, in the order first seen", () =>
        Effect.gen(function* () {
          const notices = yield* NoticeStore
          const before = yield* notices.sourceLabelCount
          // Cancelled: the other tests of this store count its open tenders.
          const notice = (id: string, sourceLabels: ParsedNotice["sourceLabels"]): ParsedNotice => ({
            kind: "cancellation",
            procedureKey: `labels-${id}`,
            version: null,
            reason: "cancelled",
            record: makeRecord({
              id: `gnumner-labels-${id}`,
              source: "gnumner",
              title: "Կափարիչներ",
              status: "cancelled"
            }),
            ...(sourceLabels === undefined ? {} : { sourceLabels })
          })
          const lid = { code: "44131300", language: "hy", name: "թուջե կափարիչներ" } as const
          const paper = { code: "30197630", language: "ru", name: "Бумага для печати" } as const
          yield* notices.applyNotices(
            [notice("1", [lid]), notice("2", [paper, lid]), notice("3", undefined)],
            lifecycleResolverAt(yield* DateTime.now)
          )
          assert.strictEqual(yield* notices.sourceLabelCount, before + 2)
          assert.deepStrictEqual((yield* notices.sourceLabels).slice(before), [lid, paper])
        })
      )

      it.effect("never errors on hostile query syntax", () =>
        Effect.gen(function* () {
          for (const q of [
            "road & | !",
            ":*",
            '"road',
            "(road",
            "road:*",
            "'; DROP TABLE tenders; --",
            "<->",
            "\\",
            "   "
          ]) {
            yield* search({ q })
          }
          assert.strictEqual((yield* search({ q: "   " })).length, 7)
        })
      )

      it.effect("indexes a deadline's day and week, and the same of the tender's country (the spans' lexemes)", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const [record] = records
          if (record?.deadline == null || record.country === null) return assert.fail("a record with a deadline")
          const rows = yield* sql<{ readonly lexemes: ReadonlyArray<string> }>`
            SELECT ARRAY(SELECT l FROM unnest(tsvector_to_array(search_vec)) l WHERE l ~ '^[YW]' ORDER BY l) AS lexemes
            FROM tenders WHERE id = ${record.id}`
          assert.deepStrictEqual(
            rows[0]?.lexemes,
            deadlineLexemes(Date.parse(record.deadline), record.country).toSorted()
          )
          assert.include(rows[0]?.lexemes ?? [], `Y${record.country}${record.deadline.slice(0, 10)}`)
        })
      )

      it.effect("applies country, CPV prefix, budget, currency and deadline filters", () =>
        Effect.gen(function* () {
          assert.deepStrictEqual(yield* search({ q: "", countries: ["de"] }), ["ted-200002-2026", "ted-200001-2026"])
          // The Russian road tender has no CPV code: its OKPD2 42.11 reaches CPV 4523 through the crosswalk.
          assert.deepStrictEqual(yield* search({ q: "", cpv: ["45000000-7"] }), [
            "eaeu-0373100034926000123",
            "ted-200001-2026",
            "gnumner-hh-fn-eachapdzb-26-15"
          ])
          assert.deepStrictEqual(yield* search({ q: "", cpv: ["4523"] }), [
            "eaeu-0373100034926000123",
            "ted-200001-2026",
            "gnumner-hh-fn-eachapdzb-26-15"
          ])
          assert.deepStrictEqual(yield* search({ q: "", cpv: ["906"] }), ["ted-200006-2026"])
          assert.deepStrictEqual(yield* search({ q: "", minBudget: 300000 }), [
            "gnumner-ek-eachapdzb-26-7",
            "eaeu-0373100034926000123",
            "gnumner-hh-fn-eachapdzb-26-15",
            "ted-200003-2026"
          ])
          const eurRange = yield* search({ q: "", minBudget: 50000, maxBudget: 300000, budgetCurrency: "EUR" })
          assert.include(eurRange, "ted-200001-2026")
          assert.include(eurRange, "ted-200002-2026")
          assert.include(eurRange, "ted-200003-2026")
          assert.include(eurRange, "eaeu-0373100034926000123")
          assert.include(eurRange, "gnumner-hh-fn-eachapdzb-26-15")
          assert.notInclude(eurRange, "gnumner-ek-eachapdzb-26-7")
          assert.notInclude(eurRange, "ted-200006-2026")
          assert.deepStrictEqual(yield* search({ q: "", deadlineAfter: isoFromNow(15).slice(0, 10) }), [
            "ted-200003-2026"
          ])
          assert.notInclude(yield* search({ q: "" }), "ted-200005-2026")
        })
      )

      it.effect("counts every matching open tender without a limit", () =>
        Effect.gen(function* () {
          const store = yield* TenderStore
          assert.strictEqual(yield* store.count(yield* toSearchQuery({ q: "" }, 1)), 7)
        })
      )

      it.effect(
        "links a procedure's notices into one tender whatever their order, with aliases and change events",
        () =>
          Effect.gen(function* () {
            const notices = yield* NoticeStore
            const tenders = yield* TenderStore
            const procedure = (suffix: string) => {
              const n = (
                kind: ParsedNotice["kind"],
                id: string,
                extra: Partial<Parameters<typeof makeRecord>[0]>
              ): ParsedNotice => ({
                kind,
                procedureKey: `proc-${suffix}`,
                version: null,
                reason: null,
                record: makeRecord({ id: `${id}${suffix}-2026`, title: "Snow clearing", ...extra })
              })
              return {
                original: n("original", "ted-71", { publishedAt: "2026-11-01T00:00:00Z", budget: "5000" }),
                amendment: n("amendment", "ted-72", {
                  publishedAt: "2026-11-05T00:00:00Z",
                  budget: null,
                  title: "Snow clearing, lots 1-2",
                  status: "amended"
                }),
                cancellation: n("cancellation", "ted-73", { publishedAt: "2026-11-09T00:00:00Z", status: "cancelled" })
              }
            }
            const a = procedure("1")
            const inOrder = []
            for (const n of [a.original, a.original, a.amendment, a.cancellation])
              inOrder.push(...(yield* notices.applyNotices([n], lifecycleResolverAt(yield* DateTime.now))))
            assert.deepStrictEqual(inOrder, ["new", "unchanged", "amended", "cancelled"])
            const b = procedure("2")
            const reversed = yield* notices.applyNotices(
              [b.cancellation, b.amendment, b.original],
              lifecycleResolverAt(yield* DateTime.now)
            )
            assert.strictEqual(reversed[0], "new")
            const first = Option.getOrThrow(yield* tenders.get(TenderId.make("ted-711-2026")))
            const second = Option.getOrThrow(yield* tenders.get(TenderId.make("ted-712-2026")))
            assert.deepStrictEqual(
              [first.status, first.title, first.budget],
              ["cancelled", "Snow clearing, lots 1-2", "5000"]
            )
            assert.deepStrictEqual(
              [second.id, second.status, second.title, second.budget],
              ["ted-712-2026", "cancelled", "Snow clearing, lots 1-2", "5000"]
            )
            assert.strictEqual(Option.getOrThrow(yield* tenders.get(TenderId.make("ted-732-2026"))).id, "ted-712-2026")
            assert.strictEqual(Option.getOrThrow(yield* tenders.get(TenderId.make("ted-721-2026"))).id, "ted-711-2026")
          })
      )

      it.effect("runs a feed page by page, saving the cursor after each, and records failures for health", () =>
        Effect.gen(function* () {
          const runs = yield* SourceRunStore
          const notice = (id: string): ParsedNotice => ({
            kind: "original",
            procedureKey: id,
            version: null,
            reason: null,
            record: makeRecord({ id, source: "eaeu", title: "Поставка топлива", url: "https://zakupki.gov.ru/x" })
          })
          const failing: SourceFeed = {
            source: "eaeu",
            pages: () =>
              Stream.concat(
                Stream.make(
                  { results: [{ notices: [notice("eaeu-111")], rejected: [] }], cursor: "c1" },
                  {
                    results: [{ notices: [notice("eaeu-222")], rejected: [{ where: "x", reason: "bad" }] }],
                    cursor: "c2"
                  }
                ),
                Stream.fail(new SourceUnavailable({ source: "eaeu", message: "503 three times" }))
              )
          }
          const failed = yield* runSource(failing, { owner: "test", since: null })
          assert.strictEqual(failed.error, "503 three times")
          assert.deepStrictEqual([failed.summary.pages, failed.summary.new, failed.summary.rejected], [2, 2, 1])
          assert.strictEqual(yield* runs.loadCursor("eaeu"), "c2")
          const health = yield* sourceHealth
          assert.strictEqual(health.sources.find((x) => x.code === "eaeu")?.status, "error")
          let seen: string | null = "unset"
          const recovering: SourceFeed = {
            source: "eaeu",
            pages: (start) =>
              Stream.fromEffect(
                Effect.sync(() => {
                  seen = start.cursor
                  return { results: [], cursor: "c3" }
                })
              )
          }
          const ok = yield* runSource(recovering, { owner: "test", since: null })
          assert.strictEqual(seen, "c2")
          assert.isNull(ok.error)
          assert.strictEqual((yield* sourceHealth).sources.find((x) => x.code === "eaeu")?.status, "ok")
          const recent = yield* runs.recentRuns("eaeu", 5)
          assert.deepStrictEqual(
            recent.map((r) => r.error),
            [null, "503 three times"]
          )
        })
      )

      it.effect(
        "gives a due source's slot to exactly one of many concurrent claimers, then not again until it is due",
        () =>
          Effect.gen(function* () {
            const runs = yield* SourceRunStore
            const until = DateTime.addDuration(yield* DateTime.now, Duration.minutes(10))
            const claims = yield* Effect.forEach(
              Array.from({ length: 12 }, (_, i) => `replica-${i}`),
              (owner) => runs.claim("ted", owner, { until }),
              { concurrency: "unbounded" }
            )
            assert.strictEqual(claims.filter(Boolean).length, 1)
            const winner = `replica-${claims.indexOf(true)}`
            assert.isFalse(yield* runs.claim("ted", "late", { until }))
            yield* runs.release("ted", winner, DateTime.addDuration(yield* DateTime.now, Duration.hours(1)))
            assert.isFalse(yield* runs.claim("ted", "late", { until }))
            // A replica that took the slot and died leaves a lease; once it expires, another replica takes over.
            assert.isTrue(
              yield* runs.claim("eaeu", "crashed", { until: DateTime.subtract(yield* DateTime.now, { seconds: 1 }) })
            )
            assert.isTrue(yield* runs.claim("eaeu", "survivor", { until }))
            assert.isFalse(yield* runs.claim("eaeu", "crashed", { until }))
            const feed: SourceFeed = { source: "gnumner", pages: () => Stream.make({ results: [], cursor: null }) }
            const first = yield* runIfDue(feed, "a", Duration.hours(1))
            const second = yield* runIfDue(feed, "b", Duration.hours(1))
            assert.isNotNull(first)
            assert.isNull(second)
          })
      )

      it.effect("closes tenders whose deadline passed, once, with a closed event", () =>
        Effect.gen(function* () {
          const store = yield* TenderStore
          // One record for both upserts: makeRecord's dates come from the clock, and two calls can fall in
          // different seconds.
          const lapsed = makeRecord({ id: "ted-990001-2026", deadline: isoFromNow(-0.5) })
          yield* store.upsert([lapsed, makeRecord({ id: "ted-990002-2026", deadline: isoFromNow(3) })])
          const closed = yield* store.closeExpired
          assert.isAtLeast(closed, 1)
          assert.strictEqual(Option.getOrThrow(yield* store.get(TenderId.make("ted-990001-2026"))).status, "closed")
          assert.strictEqual(Option.getOrThrow(yield* store.get(TenderId.make("ted-990002-2026"))).status, "open")
          assert.strictEqual(yield* store.closeExpired, 0)
          const again = yield* store.upsert([lapsed])
          assert.strictEqual(again.updated + again.new, 0)
        })
      )

      it.effect("closes every lapsed tender in one sweep, more than one statement's batch of them", () =>
        Effect.gen(function* () {
          const store = yield* TenderStore
          const sql = yield* PgClient.PgClient
          const lapsed = Array.from({ length: 2_600 }, (_, i) =>
            makeRecord({ id: `ted-${770_000 + i}-2026`, deadline: isoFromNow(-1 - i / 1_000) })
          )
          yield* store.upsert([...lapsed, makeRecord({ id: "ted-780000-2026", deadline: isoFromNow(2) })])
          assert.isAtLeast(yield* store.closeExpired, 2_600)
          const [left] = yield* sql<{ readonly open: number; readonly events: number }>`SELECT
              count(*) FILTER (WHERE t.status <> 'closed')::int AS open,
              (SELECT count(*)::int FROM tender_events e WHERE e.change = 'closed' AND e.tender_id LIKE 'ted-77%') AS events
            FROM tenders t WHERE t.id LIKE 'ted-77%'`
          assert.deepStrictEqual(left, { open: 0, events: 2_600 })
          assert.strictEqual(Option.getOrThrow(yield* store.get(TenderId.make("ted-780000-2026"))).status, "open")
          assert.strictEqual(yield* store.closeExpired, 0)
        })
      )

      it.effect("keeps the plan's watchlist limit under concurrent creation, and lists and deletes per account", () =>
        Effect.gen(function* () {
          const accounts = yield* AccountStore
          const watchlists = yield* WatchlistStore
          const owner = yield* accounts.saveAccount({ email: "wl-owner@example.com", plan: "free", monthlyLimit: null })
          const other = yield* accounts.saveAccount({ email: "wl-other@example.com", plan: "free", monthlyLimit: null })
          const input = {
            name: "Roads",
            filters: { q: "road" },
            channels: { email: false, webhook: "https://hooks.example.com/x" }
          }
          const ids = yield* Effect.forEach(Array.from({ length: 10 }), () => watchlists.create(owner.id, input, 3), {
            concurrency: "unbounded"
          })
          assert.strictEqual(ids.filter((id) => id !== undefined).length, 3)
          const listed = yield* watchlists.list(owner.id)
          assert.strictEqual(listed.length, 3)
          assert.deepStrictEqual(
            [listed[0]?.name, listed[0]?.filters, listed[0]?.channels],
            ["Roads", { q: "road" }, { email: false, webhook: "https://hooks.example.com/x" }]
          )
          assert.deepStrictEqual(yield* watchlists.list(other.id), [])
          const first = listed[0]?.id ?? ""
          assert.isFalse(yield* watchlists.remove(other.id, first))
          assert.isTrue(yield* watchlists.remove(owner.id, first))
          assert.strictEqual((yield* watchlists.list(owner.id)).length, 2)
        })
      )

      it.effect("raises new, amended and deadline-24h alerts once each, per account, nearest deadline first", () =>
        Effect.gen(function* () {
          const accounts = yield* AccountStore
          const notices = yield* NoticeStore
          const a = yield* accounts.saveAccount({ email: "alerts-a@example.com", plan: "pro", monthlyLimit: null })
          const b = yield* accounts.saveAccount({ email: "alerts-b@example.com", plan: "pro", monthlyLimit: null })
          yield* evaluateAlerts()
          const wa = yield* createWatchlist({ name: "Snow", filters: { q: "snow clearing" } }, a)
          yield* createWatchlist({ name: "Cleaning in FR", filters: { q: "clearing", countries: ["FR"] } }, b)
          const n = (
            kind: ParsedNotice["kind"],
            id: string,
            key: string,
            extra: Partial<Parameters<typeof makeRecord>[0]>
          ): ParsedNotice => ({
            kind,
            procedureKey: key,
            version: null,
            reason: null,
            record: makeRecord({
              id,
              title: "Snow clearing of municipal squares",
              country: "DE",
              cpvCodes: ["90620000"],
              ...extra
            })
          })
          const apply = (notice: ParsedNotice) =>
            Effect.flatMap(DateTime.now, (now) => notices.applyNotices([notice], lifecycleResolverAt(now)))
          yield* apply(
            n("original", "ted-881-2026", "alert-p1", { deadline: isoFromNow(10), publishedAt: isoFromNow(-1) })
          )
          yield* apply(
            n("original", "ted-882-2026", "alert-p2", { deadline: isoFromNow(23 / 24), publishedAt: isoFromNow(-1) })
          )
          assert.strictEqual(yield* evaluateAlerts(), 3)
          yield* apply(
            n("amendment", "ted-883-2026", "alert-p1", {
              deadline: isoFromNow(12),
              publishedAt: isoFromNow(-0.5),
              status: "amended"
            })
          )
          assert.strictEqual(yield* evaluateAlerts(), 1)
          assert.strictEqual(yield* evaluateAlerts(), 0)
          const listed = yield* listAlerts(a.id)
          assert.strictEqual(listed.alerts.length, 4)
          assert.deepStrictEqual(listed.alerts[0]?.tender.id, "ted-882-2026")
          assert.sameMembers(
            listed.alerts.map((x) => `${x.tender.id}:${x.reason}`),
            ["ted-882-2026:new", "ted-882-2026:deadline-24h", "ted-881-2026:new", "ted-881-2026:amended"]
          )
          assert.isTrue(listed.alerts.every((x) => x.watchlistId === wa.watchlistId && x.watchlistName === "Snow"))
          assert.deepStrictEqual((yield* listAlerts(b.id)).alerts, [])
          assert.isString((yield* listAlerts(b.id)).hint)
          const late = yield* createWatchlist({ name: "Late", filters: { q: "snow" } }, b)
          assert.strictEqual(yield* evaluateAlerts(), 1)
          assert.deepStrictEqual(
            (yield* listAlerts(b.id)).alerts.map((x) => [x.watchlistId, x.tender.id, x.reason]),
            [[late.watchlistId, "ted-882-2026", "deadline-24h"]]
          )
        })
      )

      it.effect(
        "a digest per watchlist, a webhook per alert, sent once by 2 workers; a failure is rescheduled with its error",
        () =>
          Effect.gen(function* () {
            const accounts = yield* AccountStore
            const notices = yield* NoticeStore
            const deliveries = yield* DeliveryStore
            const owner = yield* accounts.saveAccount({
              email: "hooks@example.com",
              plan: "business",
              monthlyLimit: null
            })
            yield* evaluateAlerts()
            const { watchlistId } = yield* createWatchlist(
              {
                name: "Bridges",
                filters: { q: "viaduct" },
                channels: { webhook: "https://hooks.example.com/tenders" }
              },
              owner
            )
            const apply = (id: string, key: string) =>
              Effect.flatMap(DateTime.now, (now) =>
                notices.applyNotices(
                  [
                    {
                      kind: "original",
                      procedureKey: key,
                      version: null,
                      reason: null,
                      record: makeRecord({
                        id,
                        title: "Viaduct inspection",
                        cpvCodes: ["71631000"],
                        deadline: isoFromNow(9),
                        publishedAt: isoFromNow(-1)
                      })
                    }
                  ],
                  lifecycleResolverAt(now)
                )
              )
            yield* apply("ted-661-2026", "hook-p1")
            yield* apply("ted-662-2026", "hook-p2")
            assert.strictEqual(yield* evaluateAlerts(), 2)
            const sent = yield* Ref.make<ReadonlyArray<string>>([])
            const answers = yield* Ref.make<ReadonlyArray<DeliveryOutcome>>([
              { _tag: "Retry", reason: "503" },
              { _tag: "Delivered" }
            ])
            const notifier = Layer.succeed(
              Notifier,
              Notifier.of({
                sendEmail: (digest) =>
                  Effect.as(
                    Ref.update(sent, (xs) => [...xs, `email:${digest.to}:${digest.alerts.length}`]),
                    { _tag: "Delivered" } as const
                  ),
                sendWebhook: (call) =>
                  Effect.gen(function* () {
                    yield* Ref.update(sent, (xs) => [
                      ...xs,
                      `webhook:${call.webhookId}:${JSON.parse(call.body).data.tender.id}`
                    ])
                    const [next, ...rest] = yield* Ref.get(answers)
                    yield* Ref.set(
                      answers,
                      rest.length > 0 ? rest : [{ _tag: "Failed", reason: "410 Gone", disable: true }]
                    )
                    return next ?? { _tag: "Delivered" }
                  }),
                sendSignIn: () => Effect.succeed({ _tag: "Delivered" } as const)
              })
            )
            const first = yield* Effect.all([deliverDue(), deliverDue()], { concurrency: 2 }).pipe(
              Effect.provide(notifier)
            )
            const log = yield* Ref.get(sent)
            // Two workers at once: every queued delivery is attempted exactly once.
            assert.strictEqual(first[0].attempted + first[1].attempted, log.length)
            assert.strictEqual(new Set(log).size, log.length)
            assert.deepStrictEqual(
              log.filter((x) => x.startsWith("email:hooks@")),
              ["email:hooks@example.com:2"]
            )
            const hooks = log.filter((x) => /^webhook:.*:ted-66[12]-2026$/u.test(x))
            assert.strictEqual(hooks.length, 2)
            assert.match(hooks[0] ?? "", /^webhook:msg_[0-9a-f-]{36}:ted-66[12]-2026$/u)
            const listed = yield* deliveries.list(10)
            const retrying = listed.filter((d) => d.channel === "webhook" && d.status === "pending")
            assert.strictEqual(retrying.length, 1)
            assert.deepStrictEqual([retrying[0]?.attempts, retrying[0]?.lastError], [1, "503"])
            assert.isAtLeast(listed.filter((d) => d.status === "delivered").length, 2)
            void watchlistId
          })
      )

      it.effect("the server's evaluator keeps its watchlist index until a watchlist is added or removed", () =>
        Effect.gen(function* () {
          const accounts = yield* AccountStore
          const alerts = yield* AlertStore
          const watchlists = yield* WatchlistStore
          const owner = yield* accounts.saveAccount({
            email: "cache@example.com",
            plan: "business",
            monthlyLimit: null
          })
          const evaluate = yield* makeAlertEvaluator
          yield* evaluate
          const v0 = yield* alerts.watchlistsVersion
          assert.strictEqual(yield* evaluate, 0)
          assert.strictEqual(yield* alerts.watchlistsVersion, v0)
          // Disabling a webhook (410 Gone) does not change what matches: the version stays.
          const created = yield* createWatchlist({ name: "Kayaks", filters: { q: "kayak" } }, owner)
          const watchlistId = WatchlistId.make(created.watchlistId)
          const v1 = yield* alerts.watchlistsVersion
          assert.notStrictEqual(v1, v0)
          yield* (yield* DeliveryStore).markFailed(0, "none", watchlistId)
          assert.strictEqual(yield* alerts.watchlistsVersion, v1)
          yield* (yield* TenderStore).upsert([
            makeRecord({
              id: "ted-550001-2026",
              title: "Kayak rental for schools",
              cpvCodes: ["37400000"],
              deadline: isoFromNow(20)
            })
          ])
          assert.strictEqual(yield* evaluate, 1)
          assert.isTrue(yield* watchlists.remove(owner.id, watchlistId))
          assert.notStrictEqual(yield* alerts.watchlistsVersion, v1)
          yield* (yield* TenderStore).upsert([
            makeRecord({
              id: "ted-550002-2026",
              title: "Kayak storage racks",
              cpvCodes: ["37400000"],
              deadline: isoFromNow(20)
            })
          ])
          assert.strictEqual(yield* evaluate, 0)
        })
      )

      it.effect("authenticates hashed keys, revokes them, and counts calls exactly under concurrency", () =>
        Effect.gen(function* () {
          const accounts = yield* AccountStore
          const account = yield* accounts.saveAccount({ email: "ops@example.com", plan: "pro", monthlyLimit: 10 })
          const { key, keyId } = yield* accounts.createKey(account.id, "rest")
          assert.match(key, /^sk_live_[0-9A-Za-z]{32}$/u)
          assert.isTrue(Option.isSome(yield* accounts.authenticate(key, "rest")))
          assert.isTrue(Option.isNone(yield* accounts.authenticate(key, "mcp")))
          const decisions = yield* Effect.forEach(
            Array.from({ length: 40 }),
            () => accounts.consumeCall(account.id, "2026-11-05", 10),
            { concurrency: "unbounded" }
          )
          assert.strictEqual(decisions.filter((d) => d.allowed).length, 10)
          assert.strictEqual((yield* accounts.usage(account.id, "2026-11")).calls, 10)
          assert.strictEqual(yield* accounts.addPack(account.id, "2026-11"), 1)
          assert.isTrue((yield* accounts.consumeCall(account.id, "2026-11-05", 10)).allowed)
          assert.isTrue(yield* accounts.revokeKey(keyId))
          assert.isTrue(Option.isNone(yield* accounts.authenticate(key, "rest")))
          const listed = yield* accounts.listKeys()
          assert.strictEqual(listed.length, 1)
          assert.isNotNull(listed[0]?.revokedAt)
        })
      )
    })
  })
}
