// The dashboard in a real headless Chromium (Debian's `chromium`, driven by playwright-core; nothing downloads a
// browser): a new person signs in with the link from the outbox, saves a watchlist (its live count is the count then
// listed), searches and opens a full card, sees alerts, deliveries, connected apps and the webhook secret, makes a
// REST key that then answers, sees the usage change (and the day's bar), revokes the key, and signs out, in English,
// Russian and Armenian; axe-core checks every page it sees, and every page is photographed at 1280 and 390 pixels
// wide (under .tmp/screenshots, to be looked at).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { inspect, launchChromium, linkFor, mailsTo } from "./browser.ts"
import { e2eBackends, suiteServer } from "./cli.ts"

const languages = [
  { code: "en", locale: "en-GB", signIn: "Send me a sign-in link", create: "Create", signOut: "Sign out" },
  { code: "ru", locale: "ru-RU", signIn: "Отправить ссылку для входа", create: "Создать", signOut: "Выйти" },
  { code: "hy", locale: "hy-AM", signIn: "Ուղարկել մուտքի հղում", create: "Ստեղծել", signOut: "Դուրս գալ" }
] as const

for (const backend of e2eBackends) {
  describe(`the dashboard in Chromium on the ${backend}`, () => {
    const suite = suiteServer(backend, "tdb-")
    let browser: Browser | undefined
    beforeAll(async () => {
      browser = await launchChromium()
    }, 60_000)
    afterAll(async () => browser?.close())

    for (const language of languages) {
      it(`signs in, saves a watchlist, sees each page, uses and revokes a key (${language.code})`, async () => {
        const context = await browser!.newContext({ locale: language.locale, viewport: { width: 1280, height: 900 } })
        const page = await context.newPage()
        const name = (step: string) => `${backend === "PostgreSQL" ? "pg" : "embedded"}-${language.code}-${step}`
        const email = `browser-${language.code}-${Date.now()}@example.com`
        const base = suite.base()

        await page.goto(`${base}/dashboard`)
        expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in")
        expect(await page.getAttribute("html", "lang")).toBe(language.code)
        await inspect(page, name("sign-in"))
        const outbox = join(suite.dataDir, "outbox")
        const before = mailsTo(outbox, email).length
        await page.fill('[data-testid="sign-in"] input[name=email]', email)
        await page.getByRole("button", { name: language.signIn }).click()
        await page.waitForLoadState()
        expect(await page.locator("[role=status]").textContent()).toContain(email)
        await inspect(page, name("link-sent"))

        await page.goto(await linkFor(outbox, email, before + 1))
        await inspect(page, name("confirm"))
        await page.click('[data-testid="confirm-sign-in"]')
        await page.waitForURL(`${base}/dashboard`)
        expect(await page.getAttribute('[data-testid="plan"]', "data-plan")).toBe("free")
        await inspect(page, name("overview"))

        // A watchlist: the live count as it is typed is the count the list then shows.
        await page.goto(`${base}/dashboard/watchlists`)
        const create = page.locator('[data-testid="create-watchlist"]')
        await create.locator("input[name=name]").fill(`Roads ${language.code}`)
        await create.locator("input[name=q]").fill("road")
        await page.locator('[data-testid="live-count"][data-count]').waitFor()
        const counted = await page.getAttribute('[data-testid="live-count"]', "data-count")
        await create.locator('button[type="submit"]').click()
        await page.waitForURL(/\/dashboard\/watchlists\?saved=/u)
        expect(await page.locator('[data-testid="watchlist-row"]').count()).toBe(1)
        expect(await page.getAttribute('[data-testid="watchlist-row"] [data-testid="matches"]', "data-count")).toBe(
          counted
        )
        await inspect(page, name("watchlists"))

        await page.goto(`${base}/dashboard/search?q=road`)
        expect(await page.locator('[data-testid="result"]').count()).toBeGreaterThan(0)
        await inspect(page, name("search"))
        await page.locator('[data-testid="result"] h3 a').first().click()
        await page.waitForURL(/\/dashboard\/tenders\//u)
        await inspect(page, name("tender"))
        for (const step of ["alerts", "deliveries", "apps"]) {
          await page.goto(`${base}/dashboard/${step}`)
          await inspect(page, name(step))
        }
        await page.goto(`${base}/dashboard/settings`)
        await page.click('[data-testid="reveal-secret"]')
        expect(await page.textContent('[data-testid="signing-secret"]')).toMatch(/^whsec_/u)
        await inspect(page, name("settings"))

        await page.goto(`${base}/dashboard/keys`)
        await inspect(page, name("keys-empty"))
        await page.selectOption('[data-testid="create-key"] select[name=kind]', "rest")
        await page.locator('[data-testid="create-key"]').getByRole("button", { name: language.create }).click()
        const key = ((await page.textContent('[data-testid="new-key"]')) ?? "").trim()
        expect(key).toMatch(/^sk_live_[0-9A-Za-z]{32}$/u)
        await inspect(page, name("key-created"))

        const search = () =>
          fetch(`${base}/v1/tenders/search`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({ q: "road" })
          })
        expect((await search()).status).toBe(200)
        await page.goto(`${base}/dashboard`)
        expect(await page.textContent('[data-testid="calls-used"]')).toMatch(/^1\D/u)
        const today = new Date().toISOString().slice(0, 10)
        expect(await page.getAttribute(`[data-testid="usage-day"][data-day="${today}"]`, "data-calls")).toBe("1")

        await page.goto(`${base}/dashboard/keys`)
        await page.locator('[data-testid="key-row"] [data-testid="revoke"]').click()
        await page.waitForURL(`${base}/dashboard/keys`)
        expect(await page.locator('[data-testid="key-row"] [data-testid="revoke"]').count()).toBe(0)
        expect((await search()).status).toBe(401)
        await inspect(page, name("key-revoked"))

        await page.getByRole("button", { name: language.signOut }).click()
        await page.waitForURL(`${base}/dashboard/sign-in`)
        await page.goto(`${base}/dashboard/keys`)
        expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in")
        await context.close()
      })
    }
  })
}
