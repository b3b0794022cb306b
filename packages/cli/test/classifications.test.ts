// `tenders classifications import|status` while `tenders serve` runs on the same store, on each store: a pack is
// refused whole when a line is malformed, imported once, followed by the server within a tick, and the real packs
// (read through TENDERS_CLASSIFICATIONS_DIR, never shipped) have the counts of their publications.
import { isoFromNow, recordLine } from "@tenders/core/testing"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { childEnv, e2eBackends, startServer, suiteServer, tendersAsync, waitFor } from "./cli.ts"

// An excerpt of OKPD2 typed here, in the format of the table of codes in force.
const table = [
  "21 \tСредства лекарственные и материалы, применяемые в медицинских целях",
  "21.20 \tПрепараты лекарственные и материалы, применяемые в медицинских целях",
  "21.20.10 \tПрепараты лекарственные",
  "21.20.10.233 \tАнтиконвульсанты"
].join("\n")
const files = mkdtempSync(join(tmpdir(), "tdk-"))
const write = (name: string, text: string) => {
  const path = join(files, name)
  writeFileSync(path, text)
  return path
}
const realPacks = process.env["TENDERS_CLASSIFICATIONS_DIR"]
afterAll(() => rmSync(files, { recursive: true, force: true }))

for (const backend of e2eBackends) {
  describe(`classification packs on the ${backend}`, () => {
    const suite = suiteServer(
      backend,
      "tdk-",
      async () => undefined,
      () => ({ TENDERS_SCHEDULER_TICK: "1 second" })
    )
    const tenders = (...args: ReadonlyArray<string>) => tendersAsync(args, suite.env())
    let key = ""
    const search = (q: string, filters: { readonly cpv?: ReadonlyArray<string> } = {}) =>
      fetch(`${suite.base()}/v1/tenders/search`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ q, ...filters })
      }).then(async (res) => (await res.json()) as { results: ReadonlyArray<{ id: string }>; hint?: string })

    it("refuses a malformed pack whole, saying where, and changes nothing", async () => {
      const made = await tenders("keys", "create", "--email", `packs-${Date.now()}@example.com`, "--plan", "pro")
      key = /sk_live_\w+/u.exec(made.stdout)?.[0] ?? ""
      expect(key).not.toBe("")
      expect((await tenders("classifications", "status")).stdout).toBe("okpd2: not imported\ncpv-ru: not imported\n")
      const broken = write("broken.tsv", `${table}\n21.20.1X \tПрепараты`)
      const refused = await tenders("classifications", "import", "okpd2", broken)
      expect(refused.status).toBe(1)
      expect(refused.stderr).toContain('broken.tsv, line 5: "21.20.1X" is not an OKPD2 code; nothing was imported')
      expect((await tenders("classifications", "status")).stdout).toContain("okpd2: not imported")
    })

    it("imports a pack once; the running server follows it, and a tender coded under a label is found", async () => {
      const drug = recordLine({
        id: "eaeu-0300000000026000777",
        source: "eaeu",
        title: "Поставка Ламотриджина",
        country: "RU",
        currency: "RUB",
        deadline: isoFromNow(20),
        cpvCodes: [],
        okpd2Codes: ["21.20.10.233"]
      })
      expect((await tenders("ingest", "--from", write("drug.jsonl", `${drug}\n`))).status).toBe(0)
      const ids = async () => (await search("антиконвульсанты")).results.map((r) => r.id)
      expect(await ids()).not.toContain("eaeu-0300000000026000777")
      const imported = await tenders("classifications", "import", "okpd2", write("okpd.tsv", table))
      expect(imported.status, imported.stderr).toBe(0)
      expect(imported.stdout).toMatch(/^okpd2: 4 in force, 0 withdrawn \(version 1, imported \d{4}-[^)]+\)\n/u)
      expect(imported.stdout).toMatch(/\d+ tenders analysed again with the okpd2 pack/u)
      await waitFor(async () => (await ids()).includes("eaeu-0300000000026000777"), {
        timeout: 30_000,
        what: "the server to follow the imported pack"
      })
      expect((await search("антиконвульсанты")).hint ?? "").toContain("OKPD2 21.20.10.233")
      const again = await tenders("classifications", "import", "okpd2", write("okpd-again.tsv", table))
      expect(again.stdout).toContain("unchanged, nothing to do")
      expect(again.stdout).not.toContain("analysed again")
    })

    it.skipIf(realPacks === undefined)(
      "imports the real packs with the counts of their publications",
      async () => {
        const dir = realPacks ?? ""
        const okpd2 = await tenders(
          "classifications",
          "import",
          "okpd2",
          join(dir, "okpd_table.tsv"),
          join(dir, "okpd2.csv")
        )
        expect(okpd2.status, okpd2.stderr).toBe(0)
        expect(okpd2.stdout).toMatch(/^okpd2: 20307 in force, 91 withdrawn \(version 2,/u)
        const cpv = await tenders("classifications", "import", "cpv-ru", join(dir, "cpv_ru.json"))
        expect(cpv.status, cpv.stderr).toBe(0)
        // 9,454 CPV codes, of which 51 have no Russian text in the publication.
        expect(cpv.stdout).toMatch(/^cpv-ru: 9403 in force, 0 withdrawn \(version 1,/u)
        const status = (await tenders("classifications", "status")).stdout
        expect(status).toMatch(/^okpd2: 20307 in force, 91 withdrawn \(version 2, .*\ncpv-ru: 9403 in force/u)
        await waitFor(async () => (await search("фармацевтическая продукция")).hint?.includes("CPV 336") === true, {
          timeout: 30_000,
          what: "the server to follow the real packs"
        })
        // Three notices naming only the drug (ketorolac, an analgesic), one from each source: EIS coded in OKPD2
        // only, TED and ARMEPS in CPV.
        const notices = [
          recordLine({
            id: "eaeu-0300000000026000888",
            source: "eaeu",
            title: "Поставка Кеторолака",
            country: "RU",
            currency: "RUB",
            deadline: isoFromNow(20),
            cpvCodes: [],
            okpd2Codes: ["21.20.10.232"]
          }),
          recordLine({
            id: "ted-880001-2026",
            title: "Fourniture de kétorolac injectable",
            country: "FR",
            deadline: isoFromNow(21),
            cpvCodes: ["33661200"]
          }),
          recordLine({
            id: "gnumner-kt-eachapdzb-26-1",
            source: "gnumner",
            title: "Կետորոլակի ձեռքբերում",
            country: "AM",
            currency: "AMD",
            deadline: isoFromNow(22),
            cpvCodes: ["33661200"]
          })
        ]
        expect((await tenders("ingest", "--from", write("drugs.jsonl", `${notices.join("\n")}\n`))).status).toBe(0)
        const ids = ["eaeu-0300000000026000888", "ted-880001-2026", "gnumner-kt-eachapdzb-26-1"]
        const found = async (q: string, filters = {}) => (await search(q, filters)).results.map((r) => r.id)
        // A query for the class (CPV 33660000, medicines for the nervous system), in English, Russian and Armenian.
        for (const q of [
          "medicinal products for the nervous system",
          "препараты для нервной системы",
          "նյարդային համակարգի դեղեր"
        ])
          expect(await found(q), q).toEqual(expect.arrayContaining(ids))
        // An OKPD2 code in q, and a CPV filter, span the three sources.
        expect(await found("21.20.10.232")).toEqual(expect.arrayContaining(ids))
        expect(await found("кеторолак", { cpv: ["3366"] })).toEqual(
          expect.arrayContaining(["eaeu-0300000000026000888"])
        )
        expect(await found("поставка ձեռքբերում fourniture", { cpv: ["3366"] })).toEqual(expect.arrayContaining(ids))
      },
      180_000
    )
  })
}

describe("a server started with TENDERS_CLASSIFICATIONS_DIR", () => {
  it("imports the packs of that folder at start, once", async () => {
    const folder = mkdtempSync(join(files, "packs-"))
    writeFileSync(join(folder, "okpd.tsv"), table)
    writeFileSync(join(folder, "cpv.json"), JSON.stringify({ "33600000-6": "Фармацевтическая продукция" }))
    const dataDir = mkdtempSync(join(files, "data-"))
    const env = childEnv({ TENDERS_DATA_DIR: dataDir, TENDERS_CLASSIFICATIONS_DIR: folder })
    for (let start = 0; start < 2; start++) {
      const server = await startServer([], env, ["--no-schedule", "--no-seed"])
      expect(await server.stop()).toBe(0)
      expect(server.output()).toMatch(
        start === 0
          ? /okpd2: 4 in force, 0 withdrawn \(version 1.*\): \d+ tenders analysed again/u
          : /okpd2: 4 in force.*: unchanged/u
      )
    }
    const status = (await tendersAsync(["classifications", "status"], childEnv({ TENDERS_DATA_DIR: dataDir }))).stdout
    expect(status).toMatch(
      /^okpd2: 4 in force, 0 withdrawn \(version 1, .*\ncpv-ru: 1 in force, 0 withdrawn \(version 1,/u
    )
  }, 180_000)
})
