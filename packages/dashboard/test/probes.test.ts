import { SignInStore } from "@tenders/core"
import { refusedAddressProbes } from "@tenders/core/testing"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect } from "effect"
import { base, hiddenValue, makeDashboard, signedInAs } from "./support.ts"

// The defects an outside probe found in the sign-in form and the dashboard's edges (issue 20), each a case here.
describe("the dashboard against an outside probe", () => {
  it.effect("refuses a sign-in address that is a list, carries a header or a control character, or is too long", () =>
    Effect.gen(function* () {
      const { browser, mails } = yield* makeDashboard()
      const person = browser()
      for (const email of refusedAddressProbes) {
        const answer = yield* person.post("/dashboard/sign-in", { email })
        assert.strictEqual(answer.status, 400, JSON.stringify(email.slice(0, 40)))
        assert.include(answer.text, 'aria-invalid="true"')
      }
      assert.strictEqual((yield* mails).length, 0)
    })
  )

  it.effect("answers an unknown dashboard address with its own 404 page and the pages' security headers", () =>
    Effect.gen(function* () {
      const { browser } = yield* makeDashboard()
      const person = browser()
      for (const [method, path] of [
        ["GET", "/dashboard/no-such-page"],
        ["GET", "/dashboard/keys/nothing/here"],
        ["POST", "/dashboard/no-such-form"],
        ["GET", "/dashboard/sign-out"]
      ] as const) {
        const answer = yield* method === "GET"
          ? person.get(path, { "accept-language": "ru" })
          : person.post(path, {}, { "accept-language": "ru" })
        assert.strictEqual(answer.status, 404, `${method} ${path}`)
        assert.match(answer.headers.get("content-type") ?? "", /^text\/html/u)
        assert.include(answer.headers.get("content-security-policy") ?? "", "frame-ancestors 'none'")
        assert.strictEqual(answer.headers.get("x-frame-options"), "DENY")
        assert.strictEqual(answer.headers.get("cache-control"), "no-store")
        assert.include(answer.text, "Такой страницы нет.")
      }
    })
  )

  it.effect("signs every session of the account out, this one too, with the form token only", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      const { person, account, csrf } = yield* signedInAs(dashboard, "everywhere@example.com")
      // A second browser of the same account, and another account's.
      const phone = yield* signedInAs(dashboard, "everywhere@example.com")
      const other = yield* signedInAs(dashboard, "someone-else@example.com")
      const settings = yield* person.get("/dashboard/settings")
      assert.include(settings.text, 'data-testid="sign-out-everywhere"')
      assert.include(settings.text, 'action="/dashboard/sign-out/everywhere"')

      const forged = yield* person.post("/dashboard/sign-out/everywhere", { csrf: `x${csrf}` })
      assert.strictEqual(forged.status, 403)
      assert.strictEqual((yield* phone.person.get("/dashboard")).status, 200)

      const out = yield* person.post("/dashboard/sign-out/everywhere", { csrf })
      assert.strictEqual(out.status, 303)
      assert.strictEqual(out.headers.get("location"), "/dashboard/sign-in")
      assert.isFalse(person.cookies.has("tenders_session"))
      for (const browser of [phone.person]) {
        const home = yield* browser.get("/dashboard")
        assert.strictEqual(home.status, 303)
        assert.strictEqual(home.headers.get("location"), "/dashboard/sign-in")
      }
      assert.strictEqual((yield* other.person.get("/dashboard")).status, 200)
      const sessions = Context.get(dashboard.ports, SignInStore)
      assert.strictEqual(yield* sessions.endSessions(account.id), 0)
    })
  )

  it.effect("shows the sign-in page's answer with the address in its normal form", () =>
    Effect.gen(function* () {
      const { browser, mails } = yield* makeDashboard()
      const person = browser()
      const asked = yield* person.post("/dashboard/sign-in", { email: " Jörg@Bücher.Example " })
      assert.strictEqual(asked.status, 200)
      assert.include(asked.text, "If jörg@xn--bcher-kva.example can sign in here")
      const [mail] = yield* mails
      assert.strictEqual(mail?.to, "jörg@xn--bcher-kva.example")
      const link = new URL(mail?.url ?? base)
      const confirm = yield* person.get(`${link.pathname}${link.search}`)
      assert.include(confirm.text, "jörg@xn--bcher-kva.example")
      assert.isAbove(hiddenValue(confirm.text, "token").length, 20)
    })
  )
})
