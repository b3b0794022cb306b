import { spawnSync } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "..", "..", "..")
const script = join(root, "scripts", "check-architecture.mjs")
const check = (dir: string) => spawnSync(process.execPath, [script, "--root", dir], { encoding: "utf8" })

describe("architecture check", () => {
  const copy = mkdtempSync(join(tmpdir(), "tda-"))
  afterAll(() => rmSync(copy, { recursive: true, force: true }))
  const packages = ["core", "contract", "http", "store-postgres", "cli"]
  for (const name of packages)
    cpSync(join(root, "packages", name, "src"), join(copy, "packages", name, "src"), { recursive: true })

  it("passes on the repository as it is", () => {
    const result = check(root)
    expect(result.status, result.stderr).toBe(0)
  })

  it("fails when core imports anything but effect", () => {
    writeFileSync(
      join(copy, "packages", "core", "src", "Planted.ts"),
      `import { HttpApp } from "@tenders/http"\nexport const x = HttpApp\n`
    )
    const result = check(copy)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`packages/core may not import "@tenders/http"`)
    rmSync(join(copy, "packages", "core", "src", "Planted.ts"))
  })

  it("fails when http reaches into the store or leaves its package by a relative path", () => {
    writeFileSync(
      join(copy, "packages", "http", "src", "Planted.ts"),
      `import "@tenders/store-postgres"\nimport { x } from "../../core/src/index.ts"\nexport const y = x\n`
    )
    const result = check(copy)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain(`packages/http may not import "@tenders/store-postgres"`)
    expect(result.stderr).toContain("leaves packages/http")
    rmSync(join(copy, "packages", "http", "src", "Planted.ts"))
  })

  it("fails for a package without a rule", () => {
    mkdirSync(join(copy, "packages", "mystery", "src"), { recursive: true })
    writeFileSync(join(copy, "packages", "mystery", "src", "index.ts"), "export {}\n")
    const result = check(copy)
    expect(result.status).toBe(1)
    expect(result.stderr).toContain("no architecture rule")
  })
})
