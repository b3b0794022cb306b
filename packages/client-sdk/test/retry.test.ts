import { describe, expect, it } from "vitest"
import { parseRetryAfter } from "../src/index.ts"

describe("parseRetryAfter", () => {
  const now = Date.parse("2030-01-31T23:59:00Z")

  it("reads delta-seconds", () => {
    expect(parseRetryAfter("1", now)).toBe(1)
    expect(parseRetryAfter(" 3600 ", now)).toBe(3600)
  })

  it("reads an HTTP date as the seconds until then, never negative", () => {
    expect(parseRetryAfter("Fri, 01 Feb 2030 00:00:00 GMT", now)).toBe(60)
    expect(parseRetryAfter("Thu, 31 Jan 2030 23:00:00 GMT", now)).toBe(0)
  })

  it("ignores an absent or unreadable value", () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
    expect(parseRetryAfter("soon", now)).toBeUndefined()
    expect(parseRetryAfter("-5", now)).toBeUndefined()
  })
})
