import { assert, describe, it } from "@effect/vitest"
import { DateTime } from "effect"
import { toFullTender } from "../src/index.ts"
import { makeRecord } from "../src/testing/index.ts"

const now = DateTime.makeUnsafe("2026-11-21T12:00:00Z")

describe("full tender by plan", () => {
  it("omits codes, lots and documents on Free and shows them on paid plans; okpd2Codes only for eaeu", () => {
    const record = {
      ...makeRecord({ id: "ted-1-2026", lots: [{ title: "Lot A", budget: "1", currency: "EUR", cpvCodes: [] }] }),
      updatedAt: "2026-11-21T00:00:00Z"
    }
    const free = toFullTender(record, "free", now)
    assert.deepStrictEqual(Object.keys(free).toSorted(), [
      "budget",
      "buyer",
      "country",
      "currency",
      "deadline",
      "hint",
      "id",
      "lotsCount",
      "publishedAt",
      "region",
      "source",
      "status",
      "subject",
      "title",
      "updatedAt",
      "url"
    ])
    const pro = toFullTender(record, "pro", now)
    assert.deepStrictEqual(pro.lots?.length, 1)
    assert.notProperty(pro, "okpd2Codes")
    assert.notProperty(pro, "hint")
    const eaeu = toFullTender({ ...record, source: "eaeu" }, "business", now)
    assert.deepStrictEqual(eaeu.okpd2Codes, [])
  })
})
