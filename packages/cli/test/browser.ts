// What the browser tests share: Debian's Chromium launched by playwright-core (never a browser download), the
// sign-in link of the outbox, and a page's check: axe-core's WCAG A/AA violations, and screenshots at 1280 and 390
// pixels wide under .tmp/screenshots (to be looked at).
import { partOf } from "@tenders/adapters-notify/testing"
import { expect } from "vitest"
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { chromium, type Page } from "playwright-core"
import { waitFor } from "./cli.ts"

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")
const shots = join(import.meta.dirname, "..", "..", "..", ".tmp", "screenshots")

/** Debian's Chromium (CHROMIUM_PATH, else /usr/bin/chromium), headless, with nothing of its own on the network. */
export const launchChromium = () => {
  mkdirSync(shots, { recursive: true })
  return chromium.launch({
    executablePath: process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium",
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
}

/** The messages to `email` in the outbox, oldest first. */
export const mailsTo = (outbox: string, email: string): ReadonlyArray<string> =>
  (existsSync(outbox) ? readdirSync(outbox) : [])
    .toSorted()
    .map((name) => readFileSync(join(outbox, name), "utf8"))
    .filter((raw) => new RegExp(`^To: ${email}`, "imu").test(raw))

/**
 * The sign-in link (with its `next`, if any) of the newest message to `email` in the outbox, once there are `count`
 * of them: the server sends sign-in mails in the background, after it answered the form.
 */
export const linkFor = async (outbox: string, email: string, count: number): Promise<string> => {
  await waitFor(() => mailsTo(outbox, email).length >= count, {
    timeout: 30_000,
    what: `sign-in mail ${count} to ${email} in ${outbox}`
  })
  const text = partOf(mailsTo(outbox, email).at(-1) ?? "", "text/plain")
  const link = /https?:\/\/\S+\/dashboard\/sign-in\/link\?token=[\w-]+(?:&next=[\w%.-]+)?/u.exec(text)?.[0]
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
export const inspect = async (page: Page, name: string) => {
  expect(await violations(page), `${name}: axe violations`).toEqual([])
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true })
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}
