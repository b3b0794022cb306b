import { assert, describe, it } from "@effect/vitest"
import * as fc from "fast-check"
import { dayMillis, deadlineLexemes, spanLexemes } from "../src/SearchSql.ts"

// A search asks the GIN index for the tenders due in the next days by the day and week lexemes every deadline has
// (`deadlineLexemes`): `spanLexemes` must name each day of the span once, and no day outside it; of the countries a
// search is filtered by, the days of those countries' tenders only.

/** The UTC days (since 1970-01-01) a stored lexeme stands for: one for a day's, "Y2026-12-01"; seven for a week's. */
const daysOf = (lexeme: string): ReadonlyArray<number> => {
  const week = /^W(-?\d+)$/u.exec(lexeme)?.[1]
  if (week !== undefined) return Array.from({ length: 7 }, (_, i) => 7 * Number(week) + i)
  assert.match(lexeme, /^Y\d{4}-\d{2}-\d{2}$/u)
  return [Date.parse(`${lexeme.slice(1)}T00:00:00Z`) / dayMillis]
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i)

/** Instants whose spans of up to 400 days, and deadlines up to 20 days past them, stay in the years 0000 to 9999. */
const instant = fc.integer({ min: Date.parse("0000-01-01T00:00:00Z"), max: Date.parse("9998-10-31T23:59:59.999Z") })
const days = fc.integer({ min: 0, max: 400 })

describe("spanLexemes", () => {
  it("stands for exactly the days from the day of its instant on, each once", () => {
    fc.assert(
      fc.property(instant, days, (at, n) => {
        const first = Math.floor(at / dayMillis)
        const covered = spanLexemes(at, n).flatMap(daysOf)
        assert.deepStrictEqual(
          covered.toSorted((a, b) => a - b),
          range(first, n)
        )
      }),
      { numRuns: 1000 }
    )
  })

  it("names a week the span holds whole by its one week lexeme", () => {
    fc.assert(
      fc.property(instant, days, (at, n) => {
        const first = Math.floor(at / dayMillis)
        const lexemes = new Set(spanLexemes(at, n))
        for (const day of range(first, n)) {
          if (day % 7 === 0 && day + 7 <= first + n) assert.isTrue(lexemes.has(`W${day / 7}`), `day ${day}`)
        }
      }),
      { numRuns: 1000 }
    )
  })

  it("finds a deadline by its day or week lexeme exactly when it falls in the span", () => {
    fc.assert(
      fc.property(instant, days, fc.integer({ min: -10 * dayMillis, max: 420 * dayMillis }), (at, n, offset) => {
        const first = Math.floor(at / dayMillis)
        const deadline = first * dayMillis + offset
        const span = new Set(spanLexemes(at, n))
        const day = Math.floor(deadline / dayMillis)
        assert.strictEqual(
          deadlineLexemes(deadline).some((lexeme) => span.has(lexeme)),
          day >= first && day < first + n,
          `${new Date(deadline).toISOString()} in ${n} days from ${new Date(at).toISOString()}`
        )
      }),
      { numRuns: 1000 }
    )
  })

  it("of countries, finds a deadline exactly when it falls in the span and its tender is in one of them", () => {
    const country = fc.constantFrom("AM", "RU", "DE", "PL", "FR")
    fc.assert(
      fc.property(
        instant,
        days,
        fc.integer({ min: -10 * dayMillis, max: 420 * dayMillis }),
        country,
        fc.uniqueArray(country, { minLength: 1, maxLength: 4 }),
        (at, n, offset, own, filtered) => {
          const first = Math.floor(at / dayMillis)
          const deadline = first * dayMillis + offset
          const span = new Set(spanLexemes(at, n, filtered))
          const day = Math.floor(deadline / dayMillis)
          assert.strictEqual(
            deadlineLexemes(deadline, own).some((lexeme) => span.has(lexeme)),
            day >= first && day < first + n && filtered.includes(own),
            `${own} ${new Date(deadline).toISOString()} in ${n} days from ${new Date(at).toISOString()} in ${filtered}`
          )
        }
      ),
      { numRuns: 1000 }
    )
  })
})
