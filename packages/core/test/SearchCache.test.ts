import { assert, describe, it } from "@effect/vitest"
import { Context, DateTime, Effect, Layer, Metric, Option, Ref, Tracer } from "effect"
import { TestClock } from "effect/testing"
import {
  type AnswerPacking,
  answerJson,
  packAnswer,
  Rates,
  SearchCache,
  searchCacheMaxAge,
  SearchChanges,
  searchResponseOf,
  searchTenders,
  searchTendersExplained,
  SearchText,
  noPacks,
  type SourceRunSummary,
  unpackedAnswers,
  SourceStatusStore,
  TenderStore
} from "../src/index.ts"
import { makeRecord, SearchTextSimple, SourceStatusStoreEmpty, TenderStoreMemory } from "../src/testing/index.ts"
import { fullCollection } from "./collect.ts"
import { sample } from "./support.ts"

/**
 * The store's generation as a test sets it (none: the store cannot tell), and a TenderStore that counts its
 * searches, so a test sees which answers were run and which were given again; with no source run and the bundled
 * rates unless a test gives its own.
 */
const harnessWith = (
  options: {
    readonly packing?: AnswerPacking
    readonly status?: Layer.Layer<SourceStatusStore>
    readonly rates?: Layer.Layer<Rates>
  } = {}
) =>
  Effect.gen(function* () {
    const generation = yield* Ref.make(Option.some(1))
    const searches = yield* Ref.make(0)
    const changes = Layer.succeed(SearchChanges, SearchChanges.of({ generation: Ref.get(generation) }))
    const counted = Layer.effect(
      TenderStore,
      Effect.gen(function* () {
        const store = yield* TenderStore
        const search: typeof store.search = (query) =>
          Effect.andThen(
            Ref.update(searches, (n) => n + 1),
            store.search(query)
          )
        return TenderStore.of({ ...store, search })
      })
    ).pipe(Layer.provideMerge(TenderStoreMemory))
    const layer = SearchCache.layer(10, options.packing).pipe(
      Layer.provide(changes),
      Layer.merge(
        Layer.mergeAll(
          counted,
          options.status ?? SourceStatusStoreEmpty,
          options.rates ?? Rates.bundled,
          SearchTextSimple
        )
      )
    )
    return { generation, searches, layer }
  })
const harness = harnessWith()

/** A service standing for what a request's fiber holds (its HTTP request and response), which a search never reads. */
class RequestHeld extends Context.Service<RequestHeld, { readonly body: Uint8Array }>()("test/RequestHeld") {}

/** A full collection (`fullCollection`), as an effect. */
const collect = Effect.promise(fullCollection)

const inDays = (now: DateTime.Utc, days: number) => `${DateTime.formatIso(DateTime.add(now, { days })).slice(0, 19)}Z`

describe("SearchCache", () => {
  it.effect("answers the same search again from the cache until the store's generation moves", () =>
    Effect.gen(function* () {
      const { generation, searches, layer } = yield* harness
      yield* Effect.gen(function* () {
        const now = yield* DateTime.now
        yield* (yield* TenderStore).upsert([makeRecord({ id: "ted-1-2026", deadline: inDays(now, 5) })])
        const first = yield* searchTenders({ q: "road", countries: ["DE", "AM"] }, "pro")
        // The same fields in another order, the same countries in another order or repeated: the same search.
        const again = yield* searchTenders({ countries: ["AM", "DE", "AM"], q: "road" }, "pro")
        assert.deepStrictEqual(again, first)
        assert.strictEqual(yield* Ref.get(searches), 1)
        assert.strictEqual(yield* sample("tenders_search_cache_total", { result: "hit" }), 1)
        assert.strictEqual(yield* sample("tenders_search_cache_total", { result: "miss" }), 1)
        // Another search is another answer.
        yield* searchTenders({ q: "road", countries: ["DE"] }, "pro")
        assert.strictEqual(yield* Ref.get(searches), 2)
        // A write the store announced: the next search runs and sees it.
        yield* (yield* TenderStore).upsert([makeRecord({ id: "ted-2-2026", deadline: inDays(now, 6) })])
        yield* Ref.set(generation, Option.some(2))
        const after = yield* searchTenders({ q: "road", countries: ["DE", "AM"] }, "pro")
        assert.strictEqual(yield* Ref.get(searches), 3)
        assert.deepStrictEqual(
          after.results.map((card) => card.id),
          ["ted-1-2026", "ted-2-2026"]
        )
      }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
    })
  )

  it.effect("keeps an answer as the JSON REST writes, which decodes to the answer's cards", () =>
    Effect.gen(function* () {
      const { layer } = yield* harness
      yield* Effect.gen(function* () {
        const now = yield* DateTime.now
        yield* (yield* TenderStore).upsert([
          makeRecord({ id: "ted-1-2026", deadline: inDays(now, 5) }),
          makeRecord({ id: "ted-2-2026", deadline: inDays(now, 2) })
        ])
        const kept = yield* searchTendersExplained({ q: "road" }, "pro")
        // The answer holds its JSON and its notes, not its cards as objects.
        assert.deepStrictEqual(Object.keys(kept).toSorted(), ["bytes", "changesAt", "notes", "packing"])
        const response = searchResponseOf(kept)
        assert.deepStrictEqual(response.results.map((card) => card.id).toSorted(), ["ted-1-2026", "ted-2-2026"])
        assert.deepStrictEqual(JSON.parse(new TextDecoder().decode(answerJson(kept))), response)
        // No source has run: only the first deadline changes it with time.
        assert.strictEqual(kept.changesAt, DateTime.toEpochMillis(DateTime.makeUnsafe(inDays(now, 2))))
        // Given again from the cache: the same bytes.
        assert.strictEqual((yield* searchTendersExplained({ q: "road" }, "pro")).bytes, kept.bytes)
      }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
    })
  )

  it.effect("keeps an answer packed as its packing says, and unpacks it to the same JSON", () =>
    Effect.gen(function* () {
      // A packing a test can see through: the bytes reversed.
      const reversed: AnswerPacking = {
        encoding: "gzip",
        pack: (json) => json.toReversed(),
        unpack: (packed) => packed.toReversed()
      }
      const { searches, layer } = yield* harnessWith({ packing: reversed })
      yield* Effect.gen(function* () {
        const now = yield* DateTime.now
        yield* (yield* TenderStore).upsert([makeRecord({ id: "ted-1-2026", deadline: inDays(now, 5) })])
        const first = yield* searchTendersExplained({ q: "road" }, "pro")
        const again = yield* searchTendersExplained({ q: "road" }, "pro")
        assert.strictEqual(yield* Ref.get(searches), 1)
        for (const answer of [first, again]) {
          assert.strictEqual(answer.packing, reversed)
          assert.deepStrictEqual(answer.bytes, reversed.pack(answerJson(answer)))
          assert.notDeepEqual(answer.bytes, answerJson(answer))
          assert.deepStrictEqual(
            searchResponseOf(answer).results.map((card) => card.id),
            ["ted-1-2026"]
          )
        }
        // Unpacked for a caller: the same JSON either way.
        assert.deepStrictEqual(answerJson(packAnswer(first, unpackedAnswers)), answerJson(first))
      }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
    })
  )

  it.effect("runs every search while the store cannot tell its generation", () =>
    Effect.gen(function* () {
      const { generation, searches, layer } = yield* harness
      yield* Ref.set(generation, Option.none())
      yield* Effect.gen(function* () {
        yield* searchTenders({ q: "road" }, "free")
        yield* searchTenders({ q: "road" }, "free")
        assert.strictEqual(yield* Ref.get(searches), 2)
        assert.strictEqual(yield* sample("tenders_search_cache_total", { result: "off" }), 2)
      }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
    })
  )

  it.effect("gives an answer again only until its first deadline passes, and for at most its maximum age", () =>
    Effect.gen(function* () {
      const { searches, layer } = yield* harness
      yield* Effect.gen(function* () {
        const now = yield* DateTime.now
        // Due in 10 seconds: after that the tender is closed, and the kept answer would still list it.
        const soon = `${DateTime.formatIso(DateTime.add(now, { seconds: 10 })).slice(0, 19)}Z`
        yield* (yield* TenderStore).upsert([
          makeRecord({ id: "ted-1-2026", deadline: soon }),
          makeRecord({ id: "ted-2-2026", deadline: inDays(now, 3) })
        ])
        const first = yield* searchTenders({ q: "road" }, "free")
        assert.strictEqual(first.results.length, 2)
        yield* TestClock.adjust("9 seconds")
        yield* searchTenders({ q: "road" }, "free")
        assert.strictEqual(yield* Ref.get(searches), 1)
        yield* TestClock.adjust("2 seconds")
        const closed = yield* searchTenders({ q: "road" }, "free")
        assert.strictEqual(yield* Ref.get(searches), 2)
        assert.deepStrictEqual(
          closed.results.map((card) => card.id),
          ["ted-2-2026"]
        )
        // Without a deadline near, the maximum age ends it.
        yield* TestClock.adjust(searchCacheMaxAge)
        yield* searchTenders({ q: "road" }, "free")
        assert.strictEqual(yield* Ref.get(searches), 3)
      }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
    })
  )

  it.effect("gives an answer again only until a source it calls healthy would turn stalled", () =>
    Effect.gen(function* () {
      const runs = yield* Ref.make<ReadonlyArray<SourceRunSummary>>([])
      const { searches, layer } = yield* harnessWith({
        status: Layer.succeed(SourceStatusStore, SourceStatusStore.of({ summaries: Ref.get(runs) }))
      })
      yield* Effect.gen(function* () {
        const now = yield* DateTime.now
        yield* (yield* TenderStore).upsert([makeRecord({ id: "ted-1-2026", deadline: inDays(now, 5) })])
        // TED (every hour) last succeeded 2 h 59 min 50 s ago: stalled in 10 seconds, with no run written.
        const lastSuccessAt = DateTime.subtract(now, { hours: 3 }).pipe(DateTime.add({ seconds: 10 }))
        yield* Ref.set(runs, [{ code: "ted", lastSuccessAt, lastFailureAt: null, runningSince: null }])
        const first = yield* searchTenders({ q: "road" }, "free")
        assert.isUndefined(first.degradedSources)
        yield* TestClock.adjust("9 seconds")
        yield* searchTenders({ q: "road" }, "free")
        assert.strictEqual(yield* Ref.get(searches), 1)
        yield* TestClock.adjust("2 seconds")
        const stalled = yield* searchTenders({ q: "road" }, "free")
        assert.strictEqual(yield* Ref.get(searches), 2)
        assert.deepStrictEqual(stalled.degradedSources, ["ted"])
      }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
    })
  )

  it.effect("gives an answer again only while the process reads the same rates and the same text analysis", () =>
    Effect.gen(function* () {
      const bundled = yield* Rates.bundledRates
      const rates = yield* Ref.make(bundled)
      const { searches, layer } = yield* harnessWith({
        rates: Layer.succeed(Rates, Rates.of({ current: Ref.get(rates) }))
      })
      yield* Effect.gen(function* () {
        const now = yield* DateTime.now
        yield* (yield* TenderStore).upsert([makeRecord({ id: "ted-1-2026", deadline: inDays(now, 5) })])
        const ask = searchTenders({ q: "road", budgetCurrency: "USD" }, "pro")
        const first = yield* ask
        // The same rates read again (a new object, the same figures): the same answer.
        yield* Ref.set(rates, structuredClone(bundled))
        yield* ask
        assert.strictEqual(yield* Ref.get(searches), 1)
        // Rates another process imported, once this one read them: the store's generation moved long before.
        yield* Ref.set(rates, { ...bundled, quarter: "2099-Q1", fallback: null })
        const rated = yield* ask
        assert.strictEqual(yield* Ref.get(searches), 2)
        assert.notStrictEqual(rated.hint, first.hint)
        assert.include(rated.hint, "2099-Q1")
        // Packs another process imported, once this process's analysis took them.
        ;(yield* SearchText).usePacks({ ...noPacks, digest: "a".repeat(64) })
        yield* ask
        assert.strictEqual(yield* Ref.get(searches), 3)
        // Source labels it took.
        ;(yield* SearchText).useSourceLabels([{ code: "45233140", language: "ru", name: "Ремонт дорог" }])
        yield* ask
        yield* ask
        assert.strictEqual(yield* Ref.get(searches), 4)
      }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
    })
  )

  it.effect(
    "checks the plan's rules before the cache: a Free caller is refused filters another plan's search kept",
    () =>
      Effect.gen(function* () {
        const { layer } = yield* harness
        yield* Effect.gen(function* () {
          yield* searchTenders({ q: "road", countries: ["DE"] }, "pro")
          const refused = yield* searchTenders({ q: "road", countries: ["DE"] }, "free").pipe(Effect.flip)
          assert.strictEqual(refused._tag, "PlanRequired")
        }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
      })
  )

  it.effect(
    "reads the sources' runs once a generation for the searches it runs, again after a write, each time without one",
    () =>
      Effect.gen(function* () {
        const runs = yield* Ref.make<ReadonlyArray<SourceRunSummary>>([])
        const reads = yield* Ref.make(0)
        const summaries = Effect.andThen(
          Ref.update(reads, (n) => n + 1),
          Ref.get(runs)
        )
        const { generation, layer } = yield* harnessWith({
          status: Layer.succeed(SourceStatusStore, SourceStatusStore.of({ summaries }))
        })
        yield* Effect.gen(function* () {
          yield* searchTenders({ q: "road" }, "pro")
          yield* searchTenders({ q: "bridge" }, "pro")
          assert.strictEqual(yield* Ref.get(reads), 1)
          // A source's run failed, a write the store announced: the next search says so.
          yield* Ref.set(runs, [
            { code: "ted", lastSuccessAt: null, lastFailureAt: yield* DateTime.now, runningSince: null }
          ])
          yield* Ref.set(generation, Option.some(2))
          const after = yield* searchTenders({ q: "school" }, "pro")
          assert.deepStrictEqual(after.degradedSources, ["ted"])
          assert.strictEqual(yield* Ref.get(reads), 2)
          // While the store cannot tell its generation, every search reads them.
          yield* Ref.set(generation, Option.none())
          yield* searchTenders({ q: "road" }, "pro")
          yield* searchTenders({ q: "road" }, "pro")
          assert.strictEqual(yield* Ref.get(reads), 4)
        }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
      })
  )

  it.effect("keeps an answer without the requests that asked for it, the one that ran it or one it answered", () =>
    Effect.gen(function* () {
      const { searches, layer } = yield* harness
      yield* Effect.gen(function* () {
        // Each request's service is made here and only a WeakRef to it is kept: what holds it after the search is the
        // cache, or nothing. The cache keeps the key of the last lookup of an answer (Effect's Cache renews a key's
        // place with the key asked), so an answer given again must not keep the request that asked either.
        const ask = Effect.fnUntraced(function* () {
          let held: WeakRef<Uint8Array> | undefined
          let span: WeakRef<Tracer.Span> | undefined
          yield* Effect.suspend(() => {
            const body = new Uint8Array(1024)
            held = new WeakRef(body)
            return Effect.tap(Effect.currentSpan, (current) => Effect.sync(() => (span = new WeakRef(current)))).pipe(
              Effect.andThen(searchTenders({ q: "road" }, "pro").pipe(Effect.provideService(RequestHeld, { body }))),
              Effect.withSpan("the asking request"),
              Effect.orDie
            )
          })
          if (held === undefined || span === undefined) return assert.fail("the search was not asked")
          return { held, span }
        })
        for (const round of ["ran it", "was answered"]) {
          const { held, span } = yield* ask()
          assert.strictEqual(yield* Ref.get(searches), 1, "the answer is kept")
          yield* collect
          assert.isUndefined(held.deref(), `the kept answer holds the context of the request that ${round}`)
          assert.isUndefined(span.deref(), `the kept answer holds the span of the request that ${round}`)
        }
      }).pipe(Effect.provide(layer), Effect.provideService(Metric.MetricRegistry, new Map()))
    })
  )
})
