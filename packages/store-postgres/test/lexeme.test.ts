import { assert, describe, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect } from "effect"
import * as fc from "fast-check"
import { lexeme } from "../src/SearchSql.ts"
import { backends } from "./backends.ts"

// Every term reaches a tsquery or a tsvector through `lexeme`: whatever its text, PostgreSQL must read one lexeme,
// that text, and no operator. Texts are never empty (a stored lexeme starts with its field's letter, its day's or
// week's) and have no NUL, which PostgreSQL text cannot hold.

/** Texts of the tsquery syntax (quotes, backslashes, operators, weights, prefixes), stored lexemes, and anything. */
const text = fc
  .oneof(
    fc.constantFrom("Aroad", "Dcpv:45233", "Y2026-12-01", "W2969", "Aճանապարհ", "it's", "a\\b", "\\'", "a:*", "a:AB"),
    fc.string({
      unit: fc.constantFrom(..."'\\\":*&|!()<->ABab019 \t\n", "''", "\\\\", "<->", "<2>", ":*", "ա", "é", "😀"),
      minLength: 1,
      maxLength: 16
    }),
    fc.string({ unit: "binary", minLength: 1, maxLength: 16 })
  )
  .filter((t) => !t.includes("\u0000"))

for (const [name, makeLayer] of backends()) {
  describe(`lexeme on ${name}`, () => {
    layer(makeLayer(), { timeout: 120_000, excludeTestServices: true })((it) => {
      it.effect("quotes any text as exactly one lexeme, that text, in a tsquery and in a tsvector", () =>
        Effect.gen(function* () {
          const sql = yield* PgClient.PgClient
          const texts = fc.sample(text, 200)
          // One node; matching a vector of the text alone and printed as its lexeme (so no prefix or weight); and
          // as a vector, the text alone.
          const input = sql.json(texts.map((x, i) => ({ i, x, q: lexeme(x) })))
          const rows = yield* sql<{ i: number; nodes: number; matches: boolean; same: boolean; vector: boolean }>`
            SELECT i, numnode(q::tsquery) AS nodes,
              array_to_tsvector(ARRAY[x]) @@ q::tsquery AS matches,
              q::tsquery::text = array_to_tsvector(ARRAY[x])::text AS same,
              tsvector_to_array(q::tsvector) = ARRAY[x] AS vector
            FROM jsonb_to_recordset(${input}) AS t(i int, x text, q text)
            ORDER BY i`
          assert.strictEqual(rows.length, texts.length)
          const wrong = rows
            .filter((row) => row.nodes !== 1 || !row.matches || !row.same || !row.vector)
            .map((row) => ({ text: texts[row.i], lexeme: lexeme(texts[row.i] ?? ""), ...row }))
          assert.deepStrictEqual(wrong, [])
        })
      )
    })
  })
}
