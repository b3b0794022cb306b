// `tenders ingest --from FILE` on awkward files (issue 9, defects 12, 15, 16), run in process.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import type { TenderRecord } from "@tenders/core"
import { recordLine } from "@tenders/core/testing"
import { childEnv } from "./cli.ts"
import { runCli, storeArgs } from "./inProcess.ts"

const record = (n: number, overrides: Partial<TenderRecord> = {}) =>
  recordLine({
    id: `ted-88000${n}-2026`,
    title: `Harbour crane inspection ${n}`,
    buyer: "Port of Riga",
    country: "LV",
    budget: "90000",
    deadline: "2099-05-01T12:00:00Z",
    cpvCodes: ["71631000"],
    ...overrides
  })

const dir = mkdtempSync(join(tmpdir(), "tenders-ingest-"))
const env = childEnv({ TENDERS_DATA_DIR: join(dir, "data") })
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const file = (name: string, content: string) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

describe("tenders ingest --from FILE", () => {
  it("accepts a UTF-8 byte-order mark before the first record", async () => {
    const result = await runCli([
      ...storeArgs(env),
      "ingest",
      "--json",
      "--from",
      file("bom.jsonl", `\uFEFF${record(1)}\n${record(2)}\n`)
    ])
    expect(result.status, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ new: 2, rejected: 0 })
  })

  it("fails, saying so, when every line of a non-empty file is rejected", async () => {
    const path = file("bad.jsonl", `{"id": "nope"}\nnot json\n${record(3, { deadline: "0000-01-01T00:00:00Z" })}\n`)
    const result = await runCli([...storeArgs(env), "ingest", "--from", path])
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("rejected line 1")
    expect(result.stderr).toContain("rejected line 3")
    expect(result.stderr).toContain("nothing imported: all 3 record(s)")
  })

  it("rejects a record whose title is over 16 MiB with a short message, and later ingests still work", async () => {
    const huge = file("huge.jsonl", `${record(4, { title: "x".repeat(16 * 1024 * 1024 + 1) })}\n${record(5)}\n`)
    const first = await runCli([...storeArgs(env), "ingest", "--json", "--from", huge])
    expect(first.status, first.stderr).toBe(0)
    expect(JSON.parse(first.stdout)).toMatchObject({ new: 1, rejected: 1 })
    expect(first.stderr).toContain("title")
    expect(first.stderr.length).toBeLessThan(2_000)
    const next = await runCli([...storeArgs(env), "ingest", "--json", "--from", file("next.jsonl", `${record(6)}\n`)])
    expect(next.status, next.stderr).toBe(0)
    const found = await runCli([...storeArgs(env), "search", "harbour crane", "--json"])
    expect(found.status, found.stderr).toBe(0)
    expect(found.stdout).toContain("ted-880006-2026")
  })
})
