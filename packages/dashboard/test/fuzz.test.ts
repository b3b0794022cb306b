import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fc from "fast-check"
import { makeDashboard, signedInAs } from "./support.ts"

/** Texts a probe sends: NUL and other controls, lone surrogates, format characters, very long, and prototype names. */
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.constantFrom(
    "\u0000",
    "a\u0000b",
    "\ud800",
    "\u202e",
    "\r\nx: y",
    "constructor",
    "__proto__",
    "toString",
    "x".repeat(12_000),
    "%00",
    "../..",
    ""
  )
)
const name = fc.oneof(
  fc.constantFrom("email", "next", "token", "csrf", "kind", "q", "name", "action", "lang", "countries", "minBudget"),
  fc.constantFrom("__proto__", "constructor", "hasOwnProperty"),
  fc.string({ maxLength: 10 })
)
const fields = fc.array(fc.tuple(name, text), { maxLength: 6 })
// A path segment as sent on the wire: encoded text, or percent-encodings that are not UTF-8 at all.
const segment = fc.oneof(
  text.map((t) => encodeURIComponent(t.slice(0, 200).toWellFormed())),
  fc.constantFrom("%FF", "%ED%A0%80", "%E0%A4%A", "%", "%00", "%2F..%2F")
)

const routes = [
  ["GET", "/dashboard"],
  ["GET", "/dashboard/sign-in"],
  ["POST", "/dashboard/sign-in"],
  ["GET", "/dashboard/sign-in/link"],
  ["POST", "/dashboard/sign-in/link"],
  ["GET", "/dashboard/keys"],
  ["POST", "/dashboard/keys"],
  ["POST", "/dashboard/keys/:id/revoke"],
  ["GET", "/dashboard/search"],
  ["GET", "/dashboard/tenders/:id"],
  ["GET", "/dashboard/watchlists"],
  ["POST", "/dashboard/watchlists"],
  ["POST", "/dashboard/watchlists/count"],
  ["POST", "/dashboard/watchlists/:id/delete"],
  ["GET", "/dashboard/alerts"],
  ["GET", "/dashboard/deliveries"],
  ["POST", "/dashboard/deliveries/:id/retry"],
  ["GET", "/dashboard/settings"],
  ["POST", "/dashboard/settings/webhook-secret"],
  ["POST", "/dashboard/sign-out"],
  ["GET", "/dashboard/:id"]
] as const

describe("the dashboard under a probe's inputs", () => {
  it.effect("answers every page and form, signed in or not, with anything but a 500", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      const { person, csrf } = yield* signedInAs(dashboard, "fuzz@example.com", "pro")
      const stranger = dashboard.browser()
      // fast-check's async property runs each request with this test's services (its clock among them).
      const run = Effect.runPromiseWith(yield* Effect.context<never>())
      yield* Effect.promise(() =>
        fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...routes),
            segment,
            fields,
            fields,
            fc.boolean(),
            fc.boolean(),
            async ([method, route], id, query, form, signedIn, withToken) => {
              const path = `${route.replace(":id", id)}?${new URLSearchParams(query).toString()}`
              const browser = signedIn ? person : stranger
              const body = Object.fromEntries(withToken ? [...form, ["csrf", csrf]] : form)
              const answer = await run(method === "GET" ? browser.get(path) : browser.post(path, body))
              assert.isBelow(answer.status, 500, `${method} ${path} ${JSON.stringify(body).slice(0, 200)}`)
            }
          ),
          { numRuns: 300 }
        )
      )
      assert.strictEqual((yield* stranger.get("/dashboard")).status, 303)
    })
  )
})
