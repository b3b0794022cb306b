// The dashboard in a real headless Chromium (Debian's `chromium`, driven by playwright-core; nothing downloads a
// browser): a new person signs in with the link from the outbox, makes a REST key that then answers, sees the usage
// change, revokes the key, and signs out, in English, Russian and Armenian; axe-core checks every page it sees, and
// every page is photographed at 1280 and 390 pixels wide (under .tmp/screenshots, to be looked at).
import { partOf } from "@tenders/adapters-notify/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { mkdirSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { chromium, type Browser, type Page } from "playwright-core"
import { e2eBackends, suiteServer } from "./cli.ts"

const chromiumPath = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium"
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const shots = join(import.meta.dirname, "..", "..", "..", ".tmp", "screenshots")

/** The sign-in link of the newest message to `email` in the outbox. */
const linkFor = (outbox: string, email: string): string => {
  const messages = readdirSync(outbox)
    .toSorted()
    .map((name) => readFileSync(join(outbox, name), "utf8"))
    .filter((raw) => new RegExp(`^To: ${email}`, "imu").test(raw))
  const text = partOf(messages.at(-1) ?? "", "text/plain")
  const link = /https?:\/\/\S+\/dashboard\/sign-in\/link\?token=[\w-]+/u.exec(text)?.[0]
  if (link === undefined) throw new Error(`no sign-in link for ${email} in ${outbox}`)
  return link
}

/** axe-core's WCAG 2.x A and AA violations on the page, as "rule: target" lines. */
const violations = async (page: Page): Promise<Array<string>> => {
  // Evaluated through the DevTools protocol, so the page's Content-Security-Policy (scripts from the server only)
  // stays in force for everything else.
  await page.evaluate(axeSource)
  return page.evaluate(async () => {
    const page = globalThis as unknown as {
      axe: { run: (context: unknown, options: unknown) => Promise<unknown> }
      document: unknown
    }
    const result = (await page.axe.run(page.document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] }
    })) as { violations: Array<{ id: string; nodes: Array<{ target: Array<string> }> }> }
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}`))
  })
}

/** Checks the page with axe and photographs it at both widths. */
const inspect = async (page: Page, name: string) => {
  expect(await violations(page), `${name}: axe violations`).toEqual([])
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

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
      mkdirSync(shots, { recursive: true })
      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync"
        ]
      })
    }, 60_000)
    afterAll(async () => browser?.close())

    for (const language of languages) {
      it(`signs a new person in, makes and revokes a REST key, shows the usage, signs out (${language.code})`, async () => {
        const context = await browser!.newContext({ locale: language.locale, viewport: { width: 1280, height: 900 } })
        const page = await context.newPage()
        const name = (step: string) => `${backend === "PostgreSQL" ? "pg" : "embedded"}-${language.code}-${step}`
        const email = `browser-${language.code}-${Date.now()}@example.com`
        const base = suite.base()

        await page.goto(`${base}/dashboard`)
        expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in")
        expect(await page.getAttribute("html", "lang")).toBe(language.code)
        await inspect(page, name("sign-in"))
        await page.fill('[data-testid="sign-in"] input[name=email]', email)
        await page.getByRole("button", { name: language.signIn }).click()
        await page.waitForLoadState()
        expect(await page.locator("[role=status]").textContent()).toContain(email)
        await inspect(page, name("link-sent"))

        await page.goto(linkFor(join(suite.dataDir, "outbox"), email))
        await inspect(page, name("confirm"))
        await page.click('[data-testid="confirm-sign-in"]')
        await page.waitForURL(`${base}/dashboard`)
        expect(await page.textContent('[data-testid="plan"]')).toBe("free")
        await inspect(page, name("overview"))

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
