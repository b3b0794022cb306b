import { AccountStore } from "@tenders/core"
import { assert, describe, it } from "@effect/vitest"
import { Context, Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { clientAddress } from "../src/RequestInput.ts"
import { safeNext } from "../src/SafeNext.ts"
import { base, hiddenValue, makeDashboard } from "./support.ts"

const linkPath = (url: string) => {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

describe("the dashboard", () => {
  it.effect("signs a new person in by an e-mail link, once; keys are made, listed and revoked", () =>
    Effect.gen(function* () {
      const { browser, mails, ports } = yield* makeDashboard()
      const accounts = Context.get(ports, AccountStore)
      const person = browser()
      const home = yield* person.get("/dashboard")
      assert.strictEqual(home.status, 303)
      assert.strictEqual(home.headers.get("location"), "/dashboard/sign-in")
      const form = yield* person.get("/dashboard/sign-in")
      assert.include(form.text, 'data-testid="sign-in"')
      assert.include(form.text, 'name="email"')
      assert.include(form.text, '<html lang="en">')
      const asked = yield* person.post("/dashboard/sign-in", { email: " New@Example.com " })
      assert.strictEqual(asked.status, 200)
      assert.include(asked.text, "Check your e-mail")
      assert.strictEqual((yield* mails).length, 1)
      const message = (yield* mails)[0]!
      assert.strictEqual(message.to, "new@example.com")
      assert.strictEqual(message.minutes, 15)
      assert.isTrue(message.url.startsWith(`${base}/dashboard/sign-in/link?token=`))
      // Opening the link only asks (a mail scanner following it does not sign in); the button does.
      const confirm = yield* person.get(linkPath(message.url))
      assert.include(confirm.text, "Sign in as new@example.com?")
      assert.strictEqual(confirm.headers.get("referrer-policy"), "same-origin")
      const token = hiddenValue(confirm.text, "token")
      const signedIn = yield* person.post("/dashboard/sign-in/link", { token })
      assert.strictEqual(signedIn.status, 303)
      assert.strictEqual(signedIn.headers.get("location"), "/dashboard")
      const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith("tenders_session="))
      assert.match(cookie ?? "", /HttpOnly/u)
      assert.match(cookie ?? "", /SameSite=Lax/iu)
      assert.notMatch(cookie ?? "", /Secure/u) // the public URL is http
      // The link works once.
      const again = yield* browser().post("/dashboard/sign-in/link", { token })
      assert.strictEqual(again.status, 400)
      assert.include(again.text, "already used or has expired")

      const overview = yield* person.get("/dashboard")
      assert.strictEqual(overview.status, 200)
      assert.include(overview.text, 'data-testid="plan" data-plan="free">Free<')
      assert.include(overview.text, "0 of 1,000")

      const keys = yield* person.get("/dashboard/keys")
      assert.include(keys.text, 'data-testid="create-key"')
      assert.include(keys.text, 'name="kind"')
      const csrf = hiddenValue(keys.text, "csrf")
      assert.isAbove(csrf.length, 20)
      const created = yield* person.post("/dashboard/keys", { kind: "rest", csrf })
      const secret = /data-testid="new-key">(sk_live_[0-9A-Za-z]{32})</u.exec(created.text)?.[1] ?? ""
      assert.isTrue(Option.isSome(yield* accounts.authenticate(secret, "rest")))
      assert.include(created.text, 'data-testid="key-row"')
      const keyId = /data-key-id="([^"]+)"/u.exec(created.text)?.[1] ?? ""

      // A forged form token, a post from another site, and another account's session are refused.
      const forged = yield* person.post(`/dashboard/keys/${keyId}/revoke`, { csrf: "x" + csrf })
      assert.strictEqual(forged.status, 403)
      const foreign = yield* person.post(
        `/dashboard/keys/${keyId}/revoke`,
        { csrf },
        { origin: "https://evil.example", "sec-fetch-site": "cross-site" }
      )
      assert.strictEqual(foreign.status, 403)
      const other = browser()
      yield* other.post("/dashboard/sign-in", { email: "other@example.com" })
      const otherToken = new URL((yield* mails)[1]!.url).searchParams.get("token") ?? ""
      yield* other.post("/dashboard/sign-in/link", { token: otherToken })
      const otherCsrf = hiddenValue((yield* other.get("/dashboard/keys")).text, "csrf")
      const stolen = yield* other.post(`/dashboard/keys/${keyId}/revoke`, { csrf: otherCsrf })
      assert.strictEqual(stolen.status, 404)
      assert.isTrue(Option.isSome(yield* accounts.authenticate(secret, "rest")))

      const revoked = yield* person.post(`/dashboard/keys/${keyId}/revoke`, { csrf })
      assert.strictEqual(revoked.status, 303)
      assert.isTrue(Option.isNone(yield* accounts.authenticate(secret, "rest")))
      assert.match((yield* person.get("/dashboard/keys")).text, /revoked \d{4}-/u)

      // Signing out ends the session: the old cookie no longer opens the dashboard.
      const session = person.cookies.get("tenders_session") ?? ""
      const out = yield* person.post("/dashboard/sign-out", { csrf })
      assert.strictEqual(out.status, 303)
      assert.isFalse(person.cookies.has("tenders_session"))
      person.cookies.set("tenders_session", session)
      assert.strictEqual((yield* person.get("/dashboard")).status, 303)
    })
  )

  it.effect("answers alike whether or not an address has an account, and limits the links per address", () =>
    Effect.gen(function* () {
      const { browser, mails } = yield* makeDashboard("closed")
      const person = browser()
      const unknown = yield* person.post("/dashboard/sign-in", { email: "nobody@example.com" })
      assert.strictEqual(unknown.status, 200)
      assert.include(unknown.text, "If nobody@example.com can sign in here, a link is on its way.")
      assert.strictEqual((yield* mails).length, 0) // sign-up is closed: nothing is sent
      for (let i = 0; i < 4; i++) yield* person.post("/dashboard/sign-in", { email: "nobody@example.com" })
      const throttled = yield* person.post("/dashboard/sign-in", { email: "nobody@example.com" })
      assert.strictEqual(throttled.status, 429)
      // 5 an hour for one address from one client: the next one in 12 minutes.
      assert.strictEqual(throttled.headers.get("retry-after"), "720")
      assert.include(throttled.text, "Try again in 12 minutes.")
      const malformed = yield* person.post("/dashboard/sign-in", { email: "not an address" })
      assert.strictEqual(malformed.status, 400)
      assert.include(malformed.text, 'aria-invalid="true"')
    })
  )

  it.effect("speaks Russian and Armenian, from Accept-Language or the language links", () =>
    Effect.gen(function* () {
      const { browser } = yield* makeDashboard()
      const person = browser()
      const russian = yield* person.get("/dashboard/sign-in", { "accept-language": "de-DE,ru;q=0.8,en;q=0.5" })
      assert.include(russian.text, '<html lang="ru">')
      assert.include(russian.text, "Отправить ссылку для входа")
      const armenian = yield* person.get("/dashboard/sign-in?lang=hy")
      assert.include(armenian.text, '<html lang="hy">')
      assert.include(armenian.text, "Ուղարկել մուտքի հղում")
      // The choice is kept by a cookie.
      const kept = yield* person.get("/dashboard/sign-in", { "accept-language": "ru" })
      assert.include(kept.text, '<html lang="hy">')
    })
  )

  it.effect("comes back to the page asked for after signing in, only to a dashboard page of this server", () =>
    Effect.gen(function* () {
      const { browser, mails } = yield* makeDashboard()
      const person = browser()
      const asked = yield* person.get("/dashboard/watchlists?q=road")
      assert.strictEqual(asked.headers.get("location"), "/dashboard/sign-in?next=%2Fdashboard%2Fwatchlists%3Fq%3Droad")
      const form = yield* person.get(asked.headers.get("location") ?? "")
      const next = hiddenValue(form.text, "next")
      assert.strictEqual(next, "/dashboard/watchlists?q=road")
      yield* person.post("/dashboard/sign-in", { email: "back@example.com", next })
      const link = new URL((yield* mails)[0]!.url)
      assert.strictEqual(link.searchParams.get("next"), next)
      const confirm = yield* person.get(`${link.pathname}${link.search}`)
      const token = hiddenValue(confirm.text, "token")
      const signedIn = yield* person.post("/dashboard/sign-in/link", { token, next: hiddenValue(confirm.text, "next") })
      assert.strictEqual(signedIn.headers.get("location"), next)

      // A `next` elsewhere is dropped: the sign-in then lands on the overview.
      for (const elsewhere of [
        "https://evil.example/dashboard",
        "//evil.example/dashboard",
        "/dashboard\\@evil.example",
        "/dashboardx",
        "/v1/tenders",
        "/dashboard/../v1/keys",
        "/dashboard/sign-in/link?token=someone-elses",
        "javascript:alert(1)"
      ]) {
        assert.isUndefined(safeNext(elsewhere), elsewhere)
      }
      assert.strictEqual(safeNext("/dashboard"), "/dashboard")
      const other = browser()
      yield* other.post("/dashboard/sign-in", { email: "away@example.com", next: "//evil.example/dashboard" })
      assert.isNull(new URL((yield* mails)[1]!.url).searchParams.get("next"))
      const otherToken = new URL((yield* mails)[1]!.url).searchParams.get("token") ?? ""
      const landed = yield* other.post("/dashboard/sign-in/link", { token: otherToken, next: "https://evil.example/" })
      assert.strictEqual(landed.headers.get("location"), "/dashboard")
    })
  )

  it.effect(
    "language links reopen the same page with its query; a proxy's Host and forwarded address are handled",
    () =>
      Effect.gen(function* () {
        const { browser, mails } = yield* makeDashboard()
        const person = browser()
        yield* person.post("/dashboard/sign-in", { email: "lang@example.com" })
        const link = new URL((yield* mails)[0]!.url)
        const confirm = yield* person.get(`${link.pathname}${link.search}`)
        const armenian = /hreflang="hy" href="([^"]+)"/u.exec(confirm.text)?.[1]?.replaceAll("&amp;", "&") ?? ""
        const reopened = new URL(armenian, base)
        assert.strictEqual(reopened.pathname, "/dashboard/sign-in/link")
        assert.strictEqual(reopened.searchParams.get("token"), link.searchParams.get("token"))
        assert.strictEqual(reopened.searchParams.get("lang"), "hy")
        const inArmenian = yield* person.get(`${reopened.pathname}${reopened.search}`)
        assert.include(inArmenian.text, '<html lang="hy">')
        assert.include(inArmenian.text, 'data-testid="confirm-sign-in"')

        // A proxy that rewrites Host: the browser's Origin is the public URL's, which is not cross-site.
        const proxied = yield* browser().post(
          "/dashboard/sign-in",
          { email: "proxied@example.com" },
          { host: "backend.internal:3000" }
        )
        assert.strictEqual(proxied.status, 200)
        const forged = yield* browser().post(
          "/dashboard/sign-in",
          { email: "proxied@example.com" },
          { host: "backend.internal:3000", origin: "https://evil.example" }
        )
        assert.strictEqual(forged.status, 403)

        // The client of the sign-in limits is the request's address, which the server's middleware made the
        // client's through the trusted proxies (http client-address.test.ts).
        const request = HttpServerRequest.fromWeb(
          new Request("http://localhost/", { headers: { "x-forwarded-for": "203.0.113.9, 198.51.100.1" } })
        ).modify({ remoteAddress: Option.some("198.51.100.1") })
        assert.strictEqual(clientAddress(request), "198.51.100.1")
      })
  )

  it.effect("a page links its assets by their content's hash; that address is cached a year, others are checked", () =>
    Effect.gen(function* () {
      const { browser } = yield* makeDashboard()
      const person = browser()
      const form = yield* person.get("/dashboard/sign-in")
      const style = /<link rel="stylesheet" href="([^"]+)"/u.exec(form.text)?.[1] ?? ""
      assert.match(style, /^\/dashboard\/assets\/app\.css\?v=[\w-]{12}$/u)
      const current = yield* person.get(style)
      assert.strictEqual(current.status, 200)
      assert.strictEqual(current.headers.get("cache-control"), "public, max-age=31536000, immutable")
      const older = yield* person.get("/dashboard/assets/app.css?v=older")
      assert.strictEqual(older.headers.get("cache-control"), "no-cache")
      assert.strictEqual(older.text, current.text)
    })
  )
})
