import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { ingestNotices, NoticeStore, type ParsedNotice, SearchText, useSourceLabelsOfStore } from "../src/index.ts"
import { makeRecord } from "../src/testing/index.ts"
import { world } from "./support.ts"

const armeps = (id: string, names: ReadonlyArray<string>): ParsedNotice => ({
  kind: "original",
  procedureKey: `proc-${id}`,
  version: null,
  reason: null,
  record: makeRecord({ id: `gnumner-${id}`, source: "gnumner", title: "Ձեռքբերում" }),
  sourceLabels: names.map((name) => ({ code: "44131300", language: "hy", name }))
})

describe("the labels sources publish beside their codes", () => {
  it.effect("reach the text analysis of a process when the store has others than it uses, and only then", () =>
    Effect.gen(function* () {
      const text = yield* SearchText
      assert.isFalse(yield* useSourceLabelsOfStore())
      yield* ingestNotices([{ notices: [armeps("a", ["թուջե կափարիչներ"])], rejected: [] }])
      assert.isTrue(yield* useSourceLabelsOfStore())
      assert.strictEqual(text.sourceLabelCount, 1)
      assert.isFalse(yield* useSourceLabelsOfStore())
      // The same name again is no new label; another is.
      yield* ingestNotices([{ notices: [armeps("b", ["թուջե կափարիչներ", "դիտահորի կափարիչներ"])], rejected: [] }])
      assert.isTrue(yield* useSourceLabelsOfStore())
      assert.deepStrictEqual(
        (yield* (yield* NoticeStore).sourceLabels).map((label) => label.name),
        ["թուջե կափարիչներ", "դիտահորի կափարիչներ"]
      )
      assert.strictEqual(text.sourceLabelCount, 2)
    }).pipe(Effect.provide(world()))
  )
})
