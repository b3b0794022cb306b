import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import {
  ClassificationStore,
  importPack,
  type PackCode,
  Rates,
  SearchText,
  TenderStore,
  toSearchQuery
} from "@tenders/core"
import { isoFromNow, makeRecord } from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { reanalyseStale, usePacksOfStore } from "../src/index.ts"
import { backends } from "./backends.ts"

// An excerpt of OKPD2, typed here (the real tables are imported by operators, never shipped).
const okpd2: ReadonlyArray<PackCode> = [
  { code: "21", label: "Средства лекарственные и материалы, применяемые в медицинских целях", withdrawn: false },
  { code: "21.20", label: "Препараты лекарственные и материалы, применяемые в медицинских целях", withdrawn: false },
  { code: "21.20.10", label: "Препараты лекарственные", withdrawn: false },
  { code: "21.20.10.000", label: "Препараты лекарственные прочие", withdrawn: true },
  { code: "21.20.10.232", label: "Анальгетики", withdrawn: false }
]

// A notice that names only the drug: its code says what it is (an analgesic).
const drug = makeRecord({
  id: "eaeu-0300000000026000001",
  source: "eaeu",
  title: "Поставка Парацетамола",
  buyer: "ГБУЗ Городская больница",
  country: "RU",
  currency: "RUB",
  deadline: isoFromNow(20),
  cpvCodes: [],
  okpd2Codes: ["21.20.10.232"]
})

for (const [name, makeLayer] of backends()) {
  describe(`classification packs on ${name}`, () => {
    layer(Layer.mergeAll(makeLayer(), Rates.bundled), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("a pack is versioned, replaced atomically, and the same content again changes nothing", () =>
        Effect.gen(function* () {
          const store = yield* ClassificationStore
          assert.deepStrictEqual(yield* store.status, [])
          const first = yield* importPack("okpd2", okpd2)
          assert.isTrue(first.changed)
          assert.deepInclude(first.info, { pack: "okpd2", version: 1, inForce: 4, withdrawn: 1 })
          assert.deepStrictEqual(yield* store.codes("okpd2"), okpd2)
          const again = yield* importPack("okpd2", okpd2.toReversed())
          assert.isFalse(again.changed)
          assert.deepStrictEqual(again.info, first.info)
          const second = yield* importPack("okpd2", okpd2.slice(0, 3))
          assert.deepInclude(second.info, { version: 2, inForce: 3, withdrawn: 0 })
          assert.deepStrictEqual((yield* store.codes("okpd2")).length, 3)
          yield* importPack("okpd2", okpd2)
        })
      )

      it.effect("once a pack changed, its tenders are analysed again and a query naming a label finds them", () =>
        Effect.gen(function* () {
          const tenders = yield* TenderStore
          const text = yield* SearchText
          const sql = yield* PgClient.PgClient
          yield* tenders.upsert([drug])
          const found = () =>
            Effect.flatMap(toSearchQuery({ q: "анальгетики" }, 10), (query) => tenders.search(query)).pipe(
              Effect.map((result) => result.tenders.map((t) => t.id))
            )
          // The store already has a pack (the test above), and this process's analysis does not yet.
          assert.notInclude(yield* found(), drug.id)
          const before = text.version
          assert.isTrue(yield* usePacksOfStore)
          assert.notStrictEqual(text.version, before)
          const progress: Array<readonly [number, number]> = []
          const done = yield* reanalyseStale((n, total) => Effect.sync(() => void progress.push([n, total])))
          assert.isAtLeast(done, 1)
          assert.deepStrictEqual(progress.at(-1), [done, done])
          const versions = yield* sql<{ v: string | null }>`SELECT DISTINCT terms_version AS v FROM tenders`
          assert.deepStrictEqual(
            versions.map((r) => r.v),
            [text.version]
          )
          assert.include(yield* found(), drug.id)
          assert.isFalse(yield* usePacksOfStore)
          assert.strictEqual(yield* reanalyseStale(() => Effect.void), 0)
        })
      )
    })
  })
}
