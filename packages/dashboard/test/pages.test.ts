import {
  AccountStore,
  type AccountId,
  authorizeCall,
  dayOf,
  evaluateAlerts,
  monthOf,
  TenderStore,
  WatchlistId
} from "@tenders/core"
import { makeRecord, MemoryDb } from "@tenders/core/testing"
import { assert, describe, it } from "@effect/vitest"
import { Context, DateTime, Duration, Effect } from "effect"
import { TestClock } from "effect/testing"
import { dashboardReads } from "../src/ReadThrottle.ts"
import { type Dashboard, makeDashboard, onPorts, signedInAs } from "./support.ts"

const callsThisMonth = (dashboard: Dashboard, accountId: AccountId) =>
  Effect.flatMap(DateTime.now, (now) => Context.get(dashboard.ports, AccountStore).usage(accountId, monthOf(now)))

/** A delivery of `accountId` that gave up, put straight into the in-memory outbox. */
const failedDelivery = (dashboard: Dashboard, accountId: AccountId, id: number) =>
  Effect.map(DateTime.now, (now) => {
    Context.get(dashboard.ports, MemoryDb).deliveries.push({
      id,
      accountId,
      watchlistId: WatchlistId.make("00000000-0000-4000-8000-000000000001"),
      target: "https://hooks.example.com/t",
      payload: { channel: "webhook", webhookId: `msg_${id}`, body: "{}" },
      status: "failed",
      attempts: 8,
      nextAttemptAt: now,
      leaseUntil: null,
      lastError: "HTTP 500 <script>",
      createdAt: now
    })
  })

describe("the dashboard's pages", () => {
  it.effect("the overview charts today's counted calls; searching in the dashboard counts nothing", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      yield* Context.get(dashboard.ports, TenderStore).upsert([
        makeRecord({ id: "ted-7-2026", title: "Road salt" }),
        makeRecord({ id: "ted-70-2026", title: "Winter deliveries" })
      ])
      const { person, account } = yield* signedInAs(dashboard, "chart@example.com")
      const { key } = yield* Context.get(dashboard.ports, AccountStore).createKey(account.id, "rest")
      for (let i = 0; i < 2; i++) yield* onPorts(dashboard, authorizeCall(key, "rest"))
      const today = dayOf(yield* DateTime.now)
      const overview = yield* person.get("/dashboard")
      assert.include(overview.text, 'data-testid="usage-chart"')
      assert.match(overview.text, /<svg[^>]*role="img"[^>]*aria-labelledby="usage-chart-title usage-chart-summary"/u)
      assert.include(overview.text, `data-day="${today}" data-calls="2"`)
      assert.include(overview.text, "2 of 1,000")
      assert.include(overview.text, "2 calls counted this month")
      const russian = yield* person.get("/dashboard?lang=ru")
      assert.match(russian.text, /2 из 1\s000/u)
      assert.include(russian.text, 'data-plan="free">Бесплатный<')

      const search = yield* person.get("/dashboard/search?q=road&lang=en")
      assert.strictEqual(search.status, 200)
      assert.include(search.text, 'data-testid="result" data-tender-id="ted-7-2026"')
      assert.include(search.text, 'href="/dashboard/tenders/ted-7-2026"')
      assert.include(search.text, 'data-testid="search-hint"')
      assert.include(search.text, "Only 1 open tender match.")
      // The notes in the page's language: a misspelt word read as the indexed one, and too few results.
      const russianSearch = yield* person.get("/dashboard/search?q=deliveris&lang=ru")
      assert.include(russianSearch.text, "Прочитано: «deliveris» как «deliveries».")
      assert.include(russianSearch.text, "Найдено только: 1 открытая закупка.")
      assert.notInclude(russianSearch.text, "Read ")
      const card = yield* person.get("/dashboard/tenders/ted-7-2026?lang=en")
      assert.include(card.text, "<h1>Road salt</h1>")
      assert.include(card.text, "CPV and OKPD2 codes, lots and document links are shown on the Pro")
      assert.notInclude(card.text, "45233140")
      assert.strictEqual((yield* callsThisMonth(dashboard, account.id)).calls, 2)
    })
  )

  it.effect("search applies the plan as the API does and keeps the query; a full card shows Pro's extras", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      yield* Context.get(dashboard.ports, TenderStore).upsert([
        makeRecord({ id: "ted-8-2026", title: "Road works", country: "DE" }),
        makeRecord({ id: "ted-9-2026", title: "Road works", country: "FR" })
      ])
      const free = yield* signedInAs(dashboard, "free-search@example.com")
      const form = yield* free.person.get("/dashboard/search")
      assert.include(form.text, 'role="search"')
      assert.notInclude(form.text, 'data-testid="result"')
      const refused = yield* free.person.get("/dashboard/search?q=road&countries=DE")
      assert.strictEqual(refused.status, 403)
      assert.include(refused.text, "Filters need the Pro or Business plan.")
      assert.include(refused.text, 'value="DE"')
      const invalid = yield* free.person.get("/dashboard/search?q=road&deadlineAfter=2026-02-30")
      assert.strictEqual(invalid.status, 400)
      assert.include(invalid.text, "Deadline after: a date.")

      const pro = yield* signedInAs(dashboard, "pro-search@example.com", "pro")
      const german = yield* pro.person.get("/dashboard/search?q=road&countries=de")
      assert.include(german.text, 'data-tender-id="ted-8-2026"')
      assert.notInclude(german.text, 'data-tender-id="ted-9-2026"')
      const card = yield* pro.person.get("/dashboard/tenders/ted-8-2026")
      assert.include(card.text, "45233140")
      // Budgets converted: the quarter, whose rates (here the shipped table, a fallback) and the stale figures, in the
      // page's language.
      const converted = yield* pro.person.get("/dashboard/search?q=road&budgetCurrency=EUR&minBudget=1&lang=ru")
      assert.include(converted.text, "Бюджеты пересчитаны в EUR по справочным курсам 2026-Q4 (таблица, поставляемая")
      assert.match(converted.text, /Старше 2026-Q4: USD \(2024-12-31\), GBP \(2024-12-31\)/u)
      assert.notInclude(converted.text, "a fallback")
      const unknown = yield* pro.person.get("/dashboard/tenders/ted-404-2026?lang=en")
      assert.strictEqual(unknown.status, 404)
      assert.include(unknown.text, "There is no tender with this id.")
    })
  )

  it.effect("alerts lists the account's open alerts as GET /v1/alerts does, with an empty state", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      const { person, csrf } = yield* signedInAs(dashboard, "alerts@example.com")
      const empty = yield* person.get("/dashboard/alerts")
      assert.include(empty.text, 'data-testid="no-alerts"')
      yield* person.post("/dashboard/watchlists", { csrf, name: "Ferries", q: "ferry" })
      yield* Context.get(dashboard.ports, TenderStore).upsert([makeRecord({ id: "ted-5-2026", title: "Ferry repair" })])
      assert.strictEqual(yield* onPorts(dashboard, evaluateAlerts()), 1)
      const listed = yield* person.get("/dashboard/alerts?lang=hy")
      assert.include(listed.text, 'data-testid="alert-row" data-tender-id="ted-5-2026"')
      assert.include(listed.text, "Նոր համընկնում")
      const other = yield* signedInAs(dashboard, "no-alerts@example.com")
      assert.include((yield* other.person.get("/dashboard/alerts")).text, 'data-testid="no-alerts"')
    })
  )

  it.effect("deliveries are the account's own; a failed one is sent again, another account's is not found", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      const owner = yield* signedInAs(dashboard, "outbox@example.com", "pro")
      const intruder = yield* signedInAs(dashboard, "other-outbox@example.com", "pro")
      assert.include((yield* owner.person.get("/dashboard/deliveries")).text, "no-deliveries")
      yield* failedDelivery(dashboard, owner.account.id, 901)
      yield* failedDelivery(dashboard, intruder.account.id, 902)
      const page = yield* owner.person.get("/dashboard/deliveries")
      assert.include(page.text, 'data-delivery-id="901"')
      assert.notInclude(page.text, 'data-delivery-id="902"')
      assert.include(page.text, "HTTP 500 &lt;script&gt;")
      const foreign = yield* owner.person.post("/dashboard/deliveries/902/retry", { csrf: owner.csrf })
      assert.strictEqual(foreign.status, 404)
      const forged = yield* owner.person.post("/dashboard/deliveries/901/retry", { csrf: intruder.csrf })
      assert.strictEqual(forged.status, 403)
      const statuses = () => Context.get(dashboard.ports, MemoryDb).deliveries.map((d) => [d.id, d.status])
      assert.deepStrictEqual(statuses(), [
        [901, "failed"],
        [902, "failed"]
      ])
      const retried = yield* owner.person.post("/dashboard/deliveries/901/retry", { csrf: owner.csrf })
      assert.strictEqual(retried.headers.get("location"), "/dashboard/deliveries?retried=1")
      assert.deepStrictEqual(statuses(), [
        [901, "pending"],
        [902, "failed"]
      ])
      const after = yield* owner.person.get("/dashboard/deliveries?retried=1")
      assert.include(after.text, 'data-testid="retried"')
      assert.notInclude(after.text, 'data-testid="retry-delivery"')
    })
  )

  it.effect("the webhook signing secret is shown and replaced only by a POST with the form token", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      const { person, csrf } = yield* signedInAs(dashboard, "secret@example.com", "pro")
      const settings = yield* person.get("/dashboard/settings")
      assert.notInclude(settings.text, "whsec_")
      const secretOf = (text: string) => /data-testid="signing-secret">(whsec_[^<]+)</u.exec(text)?.[1]
      const shown = secretOf(
        (yield* person.post("/dashboard/settings/webhook-secret", { csrf, action: "reveal" })).text
      )
      assert.isString(shown)
      const again = yield* person.post("/dashboard/settings/webhook-secret", { csrf, action: "reveal" })
      assert.strictEqual(secretOf(again.text), shown)
      const forged = yield* person.post("/dashboard/settings/webhook-secret", { csrf: "forged", action: "rotate" })
      assert.strictEqual(forged.status, 403)
      const rotated = yield* person.post("/dashboard/settings/webhook-secret", { csrf, action: "rotate" })
      assert.include(rotated.text, "A new signing secret is in force:")
      assert.notStrictEqual(secretOf(rotated.text), shown)
      const other = yield* signedInAs(dashboard, "secret-2@example.com", "pro")
      const theirs = yield* other.person.post("/dashboard/settings/webhook-secret", {
        csrf: other.csrf,
        action: "reveal"
      })
      assert.notInclude([shown, secretOf(rotated.text)], secretOf(theirs.text))
    })
  )

  it.effect("searches and live counts are throttled per account: a minute's share, then 429 with Retry-After", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      const { person, csrf } = yield* signedInAs(dashboard, "fast@example.com")
      const { person: other } = yield* signedInAs(dashboard, "calm@example.com")
      for (let i = 0; i < dashboardReads.limit; i++) {
        const searched = yield* person.get(`/dashboard/search?q=road+${i}`)
        assert.strictEqual(searched.status, 200, `search ${i}`)
      }
      const refused = yield* person.get("/dashboard/search?q=road")
      assert.strictEqual(refused.status, 429)
      assert.include(refused.text, "Too many searches in a minute")
      assert.isAtLeast(Number(refused.headers.get("retry-after")), 1)
      const count = yield* person.post("/dashboard/watchlists/count", { csrf, q: "road" })
      assert.include(count.text, "Too many searches in a minute")
      assert.notInclude(count.text, '"count"')
      // Another account is not slowed down.
      assert.strictEqual((yield* other.get("/dashboard/search?q=road")).status, 200)
    })
  )

  it.effect("a throttled account reads again once its Retry-After has passed on the clock", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      const { person, csrf } = yield* signedInAs(dashboard, "patient@example.com")
      for (let i = 0; i < dashboardReads.limit; i++) yield* person.get(`/dashboard/search?q=road+${i}`)
      const refused = yield* person.get("/dashboard/search?q=road")
      assert.strictEqual(refused.status, 429)
      const wait = Number(refused.headers.get("retry-after"))
      yield* TestClock.adjust(Duration.seconds(wait - 1))
      assert.strictEqual((yield* person.get("/dashboard/search?q=road")).status, 429)
      yield* TestClock.adjust(Duration.seconds(1))
      assert.strictEqual((yield* person.get("/dashboard/search?q=road")).status, 200)
      // The one read that came back is taken: the next waits again, the live count too.
      assert.strictEqual((yield* person.get("/dashboard/search?q=road")).status, 429)
      const count = yield* person.post("/dashboard/watchlists/count", { csrf, q: "road" })
      assert.include(count.text, "Too many searches in a minute")
    })
  )
})
