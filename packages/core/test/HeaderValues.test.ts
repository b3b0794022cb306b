import { assert, describe, it } from "@effect/vitest"
import { weightedEntries, weightedValues } from "../src/index.ts"

describe("weightedValues", () => {
  it("gives a weighted header's values, lower case, most preferred first, those refused left out", () => {
    assert.deepStrictEqual(weightedValues("hy;q=0.5, RU, en-GB;q=0.8"), ["ru", "en-gb", "hy"])
    // Equal q-values keep the order written; q=0 and a q-value that is not a number refuse.
    assert.deepStrictEqual(weightedValues("br;q=0.5, gzip;q=0.5, deflate;q=0, x;q=abc"), ["br", "gzip"])
    assert.deepStrictEqual(weightedValues(" gzip ; q=1 ,, "), ["gzip"])
    assert.deepStrictEqual(weightedValues(undefined), [])
    assert.deepStrictEqual(weightedValues(""), [])
  })

  it("gives each value as written with its q-value, those refused too", () => {
    assert.deepStrictEqual(weightedEntries("gzip;q=0, *;q=0.5, BR"), [
      { value: "gzip", q: 0 },
      { value: "*", q: 0.5 },
      { value: "br", q: 1 }
    ])
  })
})
