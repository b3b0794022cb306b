// The launcher's choice of module (bin/tenders.js): `serve` from its bundle while no file it was made from is newer,
// else from the sources, saying so; every other command from the sources. Run on a copy of the launcher in a tree of
// its own, whose "bundle" and "sources" only say which of them ran: the repository's own files are not touched.
import { spawnSync } from "node:child_process"
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"

const tree = mkdtempSync(join(tmpdir(), "tdlaunch-"))
afterAll(() => rmSync(tree, { recursive: true, force: true }))
const cli = join(tree, "packages", "cli")
for (const directory of ["bin", "src", "dist"]) mkdirSync(join(cli, directory), { recursive: true })
copyFileSync(join(import.meta.dirname, "..", "bin", "tenders.js"), join(cli, "bin", "tenders.js"))
const module = (name: string) =>
  "export const runTenders = async (args) => {\n" +
  `  process.stdout.write(${JSON.stringify(name)} + " " + args.join(" "))\n` +
  "  return 0\n}\n"
const source = join(cli, "src", "main.ts")
const bundle = join(cli, "dist", "tenders.mjs")
const inputs = `${bundle}.inputs.json`
writeFileSync(source, module("sources"))
writeFileSync(join(tree, "package-lock.json"), "{}\n")
writeFileSync(bundle, module("bundle"))

/** Sets a file's modification time `seconds` from now. */
const aged = (file: string, seconds: number) => {
  const at = new Date(Date.now() + seconds * 1000)
  utimesSync(file, at, at)
}

/** The launcher run with `args`: what it wrote on stdout and on stderr. */
const launch = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = {}) => {
  const run = spawnSync(process.execPath, [join(cli, "bin", "tenders.js"), ...args], {
    encoding: "utf8",
    env: { ...process.env, TENDERS_FROM_SOURCES: undefined, ...env }
  })
  if (run.status !== 0) throw new Error(`the launcher exited with ${run.status}: ${run.stderr}`)
  return { stdout: run.stdout, stderr: run.stderr }
}

describe("the launcher", () => {
  it("serves from the bundle while none of the files it was made from is newer than it", () => {
    writeFileSync(inputs, JSON.stringify(["package-lock.json", "packages/cli/src/main.ts"]))
    aged(source, -60)
    aged(join(tree, "package-lock.json"), -60)
    aged(bundle, -10)
    expect(launch(["serve", "--port", "0"])).toEqual({ stdout: "bundle serve --port 0", stderr: "" })
    // Every other command runs from the sources, and so does `serve` when told to.
    expect(launch(["keys", "list"]).stdout).toBe("sources keys list")
    expect(launch(["serve"], { TENDERS_FROM_SOURCES: "1" })).toEqual({ stdout: "sources serve", stderr: "" })
  })

  it("serves from the sources, saying so, once a source or the lock is newer than the bundle", () => {
    writeFileSync(inputs, JSON.stringify(["package-lock.json", "packages/cli/src/main.ts"]))
    aged(bundle, -10)
    aged(source, 0)
    const stale = launch(["serve"])
    expect(stale.stdout).toBe("sources serve")
    expect(stale.stderr).toContain("tenders: packages/cli/dist/tenders.mjs is older than its sources")
    aged(source, -60)
    aged(join(tree, "package-lock.json"), 0)
    expect(launch(["serve"]).stdout).toBe("sources serve")
  })

  it("serves from the sources when the bundle's list of files is missing or names a file that is not there", () => {
    aged(source, -60)
    aged(join(tree, "package-lock.json"), -60)
    aged(bundle, -10)
    rmSync(inputs, { force: true })
    expect(launch(["serve"]).stdout).toBe("sources serve")
    writeFileSync(inputs, JSON.stringify(["packages/cli/src/gone.ts"]))
    expect(launch(["serve"]).stdout).toBe("sources serve")
  })

  it("serves from the sources, silently, where no bundle was made", () => {
    rmSync(bundle)
    expect(launch(["serve"])).toEqual({ stdout: "sources serve", stderr: "" })
  })
})
