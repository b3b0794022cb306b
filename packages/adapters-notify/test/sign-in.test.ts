import { assert, describe, it } from "@effect/vitest"
import { Notifier, type UiLanguage, webhookAllowHostsLayer } from "@tenders/core"
import { ConfigProvider, Effect, Layer } from "effect"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { notifierLayer, renderSignIn } from "../src/index.ts"
import { partOf, signIn, subjectOf } from "./fixtures.ts"

const escapedUrl = "https://tenders.test/sign-in?token=Zm9v_YmFy-baz&amp;lang=hy"

const expected: Record<UiLanguage, { readonly subject: string; readonly validity: string }> = {
  en: { subject: "Sign in to Tenders", validity: "The link works once, within the next 15 minutes." },
  ru: { subject: "Вход в Tenders", validity: "Ссылкой можно воспользоваться один раз в течение 15 минут." },
  hy: {
    subject: "Մուտք Tenders համակարգ",
    validity: "Հղումը կարող եք օգտագործել մեկ անգամ՝ առաջիկա 15 րոպեի ընթացքում։"
  }
}

describe("sign-in rendering", () => {
  it("puts the minutes in words that agree with the number", () => {
    const validity = (language: UiLanguage, minutes: number) =>
      renderSignIn({ ...signIn, language, minutes }).text.split("\n\n")[3]
    assert.strictEqual(validity("en", 1), "The link works once, within the next 1 minute.")
    assert.strictEqual(validity("en", 30), "The link works once, within the next 30 minutes.")
    const russian = [1, 3, 11, 15, 21].map((n) => validity("ru", n)?.replace(/^.* в течение /u, ""))
    assert.deepStrictEqual(russian, ["1 минуты.", "3 минут.", "11 минут.", "15 минут.", "21 минуты."])
    assert.strictEqual(validity("hy", 1), "Հղումը կարող եք օգտագործել մեկ անգամ՝ առաջիկա 1 րոպեի ընթացքում։")
  })

  it("escapes the URL in the HTML part, and links only a web address", () => {
    const { html, text } = renderSignIn(signIn)
    assert.include(text, `\n\n${signIn.url}\n\n`)
    assert.include(html, `<a href="${escapedUrl}">${escapedUrl}</a>`)
    assert.notInclude(html, "&lang")
    const odd = renderSignIn({ ...signIn, url: `javascript:alert("x")` }).html
    assert.notInclude(odd, "<a ")
    assert.include(odd, "javascript:alert(&quot;x&quot;)")
  })
})

describe("NotifierLive sign-in", () => {
  for (const language of ["en", "ru", "hy"] as const) {
    it.effect(`without SMTP_URL writes the ${language} sign-in link into the outbox as an .eml`, () =>
      Effect.gen(function* () {
        const dataDir = mkdtempSync(join(tmpdir(), "tenders-sign-in-"))
        const env = ConfigProvider.layer(ConfigProvider.fromEnvRecord({ TENDERS_DATA_DIR: dataDir }))
        const notifier = yield* Effect.gen(function* () {
          return yield* Notifier
        }).pipe(Effect.provide(notifierLayer().pipe(Layer.provide(webhookAllowHostsLayer), Layer.provide(env))))
        assert.deepStrictEqual(yield* notifier.sendSignIn({ ...signIn, language }), { _tag: "Delivered" })
        const files = readdirSync(join(dataDir, "outbox"))
        assert.strictEqual(files.length, 1)
        const raw = readFileSync(join(dataDir, "outbox", files[0] ?? ""), "utf8")
        rmSync(dataDir, { recursive: true, force: true })
        assert.include(raw, "To: buyer@example.test")
        assert.strictEqual(subjectOf(raw), expected[language].subject)
        const text = partOf(raw, "text/plain")
        const html = partOf(raw, "text/html")
        assert.include(text, signIn.url)
        assert.include(text, expected[language].validity)
        assert.include(html, `<a href="${escapedUrl}">`)
        assert.include(html, `<html lang="${language}">`)
        assert.include(html, expected[language].validity)
      })
    )
  }
})
