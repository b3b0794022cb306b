// The CLI's arguments, help texts, usage errors and exit codes, in this process: none of these opens a store.
import { CommanderError } from "commander"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { makeProgram } from "../src/main.ts"
import { expectOneLineFailure, runCli } from "./inProcess.ts"

const parent = mkdtempSync(join(tmpdir(), "tdarg-"))
afterAll(() => rmSync(parent, { recursive: true, force: true }))
// A data directory that must still not exist afterwards: nothing here may open the embedded store.
const dataDir = join(parent, "never-opened")
const tenders = (args: ReadonlyArray<string>) => runCli(["--data-dir", dataDir, ...args])

const commands = [
  [],
  ["serve"],
  ["ingest"],
  ["search"],
  ["sources"],
  ["keys"],
  ["keys", "create"],
  ["keys", "list"],
  ["keys", "revoke"],
  ["accounts"],
  ["accounts", "set"],
  ["accounts", "add-pack"],
  ["watchlists"],
  ["watchlists", "list"],
  ["watchlists", "create"],
  ["watchlists", "delete"],
  ["alerts"],
  ["deliveries"],
  ["deliveries", "retry"],
  ["webhooks", "secret"],
  ["mcp"]
]

describe("tenders arguments, in process", () => {
  it("prints help for every command on stdout and exits 0", async () => {
    for (const args of commands) {
      const result = await tenders([...args, "--help"])
      expect(result.status, args.join(" ")).toBe(0)
      expect(result.stdout, args.join(" ")).toContain(`Usage: tenders ${args.join(" ")}`.trimEnd())
      expect(result.stderr, args.join(" ")).toBe("")
    }
    expect((await tenders(["serve", "--help"])).stdout).toContain("env: TENDERS_PORT")
    expect((await tenders(["mcp", "--help"])).stdout).toContain("env: TENDERS_MCP_TOKEN")
    expect((await tenders(["--help"])).stdout).toContain("env: TENDERS_DATA_DIR")
  })

  it("answers a usage error with one line on stderr, nothing on stdout and exit 1", async () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["nope"], "error: unknown command 'nope'"],
      [["keys", "create"], "error: required option '--email <email>' not specified"],
      [["keys", "create", "--email", "x@example.com", "--plan", "gold"], "argument 'gold' is invalid"],
      [["keys", "create", "--email", "x@example.com", "--kind", "soap"], "argument 'soap' is invalid"],
      [["keys", "revoke"], "error: missing required argument 'keyId'"],
      [["search"], "error: missing required argument 'q'"],
      [["search", "road", "--sort", "price"], "error: unknown option '--sort'"],
      [["ingest", "--source", "rss"], "argument 'rss' is invalid"],
      [["accounts", "set", "--email", "x@example.com", "--plan", "platinum"], "argument 'platinum' is invalid"],
      [["serve", "--port", "70000"], 'tenders: --port must be an integer from 0 to 65535, got "70000"'],
      [["serve", "--port", "eighty"], 'tenders: --port must be an integer from 0 to 65535, got "eighty"'],
      [["mcp"], "tenders: mcp needs --stdio"],
      [["mcp", "--stdio"], "tenders: mcp needs an MCP token"]
    ]
    for (const [args, message] of cases) {
      const result = await tenders(args)
      expectOneLineFailure(args, result, message)
    }
  })

  it("without a command prints the usage on stderr and exits 1", async () => {
    const result = await tenders([])
    expect(result.status).toBe(1)
    expect(result.stdout).toBe("")
    expect(result.stderr).toContain("Usage: tenders [options] [command]")
  })

  it("opens no store to parse, print help or refuse arguments", async () => {
    await tenders(["keys", "list", "--help"])
    await tenders(["search"])
    expect(existsSync(dataDir)).toBe(false)
  })

  it("builds a fresh program each time, which throws instead of exiting", async () => {
    const written: Array<string> = []
    const output = {
      writeOut: (text: string) => void written.push(text),
      writeErr: (text: string) => void written.push(text)
    }
    const first = makeProgram(output)
    await expect(first.parseAsync(["--data-dir", dataDir, "nope"], { from: "user" })).rejects.toBeInstanceOf(
      CommanderError
    )
    expect(first.opts()["dataDir"]).toBe(dataDir)
    const second = makeProgram(output)
    expect(second.opts()["dataDir"]).toBe("./.data")
    await expect(second.parseAsync(["--version"], { from: "user" })).rejects.toMatchObject({
      code: "commander.unknownOption",
      exitCode: 1
    })
    expect(written.join("")).toContain("unknown command 'nope'")
  })
})
