import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { childEnv, startServer, tendersAsync } from "./cli.ts"

// The published SDK as an integrator gets it: built, packed, installed into an empty project from the tarball,
// type-checked in strict NodeNext mode and run against a live `tenders serve`.
const repo = join(import.meta.dirname, "..", "..", "..")
const sdkDir = join(repo, "packages", "client-sdk")
const work = mkdtempSync(join(tmpdir(), "tsdk-"))
const project = join(work, "project")
const dataDir = join(work, "data")

const run = (command: string, args: ReadonlyArray<string>, cwd: string) => {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    timeout: 180_000,
    env: { ...process.env, npm_config_update_notifier: "false" }
  })
  return { status: result.status, stdout: result.stdout ?? "", stderr: result.stderr ?? "", error: result.error }
}

/** Every installed package (name -> version), nested node_modules included. */
const installedPackages = (nodeModules: string): Map<string, string> => {
  const found = new Map<string, string>()
  if (!existsSync(nodeModules)) return found
  for (const entry of readdirSync(nodeModules)) {
    if (entry.startsWith(".")) continue
    const dirs = entry.startsWith("@")
      ? readdirSync(join(nodeModules, entry)).map((name) => join(entry, name))
      : [entry]
    for (const name of dirs) {
      const manifest = join(nodeModules, name, "package.json")
      if (!existsSync(manifest)) continue
      found.set(name, (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version)
      for (const [nested, version] of installedPackages(join(nodeModules, name, "node_modules")))
        found.set(nested, version)
    }
  }
  return found
}

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

const sample = `import {
  createTendersClient,
  isTendersApiError,
  TendersApiError,
  type FullTender,
  type SearchResponse
} from "@tenders/client-sdk"

const [baseUrl = "", apiKey = ""] = process.argv.slice(2)
const client = createTendersClient({ baseUrl, apiKey })

const found: SearchResponse = await client.searchTenders({ q: "road", limit: 5 })
const first = found.results[0]
if (first === undefined) throw new Error("no results")
console.log(\`search \${found.results.length} \${first.id}\`)

const tender: FullTender = await client.getTender(first.id)
console.log(\`get \${tender.id} \${tender.status} \${tender.cpvCodes === undefined ? "no-codes" : "codes"}\`)

try {
  await client.getTender("ted-does-not-exist-0")
  console.log("missing tender was found")
} catch (error) {
  if (error instanceof TendersApiError && error.code === "not_found") {
    console.log(\`missing \${error.code} \${error.status}\`)
  } else throw error
}

const watchlist = await client.createWatchlist({ name: "SDK roads", filters: { q: "road", countries: ["FR", "AM"] } })
console.log(\`watchlist \${watchlist.watchlistId} \${watchlist.estimatedMatches}\`)

const alerts = await client.listAlerts()
console.log(\`alerts \${alerts.alerts.length}\`)

const health = await client.health()
console.log(\`health \${health.sources.map((s) => s.code).join(",")}\`)

try {
  await createTendersClient({ baseUrl, apiKey: "sk_live_00000000000000000000000000000000" }).listAlerts()
  console.log("wrong key accepted")
} catch (error) {
  if (isTendersApiError(error, "unauthorized")) console.log(\`wrong key \${error.code} \${error.status}\`)
  else throw error
}

// Never called: the expected error proves the installed declarations are real types, not \`any\`.
// @ts-expect-error q must be a string
const typeCheckOnly = () => client.searchTenders({ q: 42 })
void typeCheckOnly
`

describe("the published client SDK", () => {
  let tarball = ""
  let packedFiles: Array<string> = []
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  const env = childEnv({ TENDERS_DATA_DIR: dataDir })

  beforeAll(() => {
    const build = run(process.execPath, [join(sdkDir, "scripts", "build.mjs")], sdkDir)
    expect(build.status, build.stderr + build.stdout).toBe(0)
    const pack = run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], sdkDir)
    expect(pack.status, pack.stderr).toBe(0)
    const [packed] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>
    tarball = join(work, packed?.filename ?? "")
    packedFiles = packed?.files.map((f) => f.path) ?? []
  }, 240_000)

  afterAll(async () => {
    await server?.stop()
    rmSync(work, { recursive: true, force: true })
  }, 60_000)

  it("packs built JS, declarations, the README and the licence, and no sources", () => {
    expect(packedFiles).toContain("dist/index.js")
    expect(packedFiles).toContain("dist/index.d.ts")
    for (const file of ["README.md", "LICENSE", "package.json"]) expect(packedFiles).toContain(file)
    expect(
      packedFiles.filter((f) => !f.startsWith("dist/") && !["README.md", "LICENSE", "package.json"].includes(f))
    ).toEqual([])
  })

  it("installs into an empty project with only effect and standardwebhooks below it: no driver, no server code", () => {
    mkdirSync(project)
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "sdk-consumer", private: true, type: "module" }, null, 2)
    )
    const install = run(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", tarball],
      project
    )
    expect(install.status, install.stderr).toBe(0)
    const installed = installedPackages(join(project, "node_modules"))
    expect(installed.get("@tenders/client-sdk")).toBe("0.1.0")
    expect(installed.has("effect")).toBe(true)
    expect(installed.has("standardwebhooks")).toBe(true)
    for (const forbidden of [
      "pg",
      "@electric-sql/pglite",
      "@electric-sql/pglite-socket",
      "@effect/sql-pg",
      "@effect/platform-node",
      "nodemailer",
      "undici",
      "@modelcontextprotocol/server"
    ]) {
      expect(installed.has(forbidden), forbidden).toBe(false)
    }
    expect([...installed.keys()].filter((name) => name.startsWith("@tenders/"))).toEqual(["@tenders/client-sdk"])
    const sdkFiles = filesUnder(join(project, "node_modules", "@tenders", "client-sdk"))
    const bundle = readFileSync(join(project, "node_modules", "@tenders", "client-sdk", "dist", "index.js"), "utf8")
    const imports = [...bundle.matchAll(/^import\s[^"']*["']([^"']+)["']/gmu)].map((m) => m[1])
    expect(new Set(imports.map((spec) => spec?.split("/")[0]))).toEqual(new Set(["effect", "standardwebhooks"]))
    for (const serverOnly of [
      "HttpApiBuilder",
      "PgClient",
      "pglite",
      "@tenders/http",
      "@tenders/store-postgres",
      "nodemailer",
      'from "node:'
    ]) {
      expect(bundle.includes(serverOnly), serverOnly).toBe(false)
    }
    const declarations = sdkFiles
      .filter((f) => f.endsWith(".d.ts"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n")
    expect(declarations).not.toMatch(/from\s+["']@tenders\//u)
  }, 180_000)

  it("type-checks and runs a sample on a live server: search, get, not_found, watchlist, alerts, health", async () => {
    writeFileSync(join(project, "sample.ts"), sample)
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify(
        {
          compilerOptions: {
            target: "ES2022",
            lib: ["ES2022", "DOM"],
            module: "NodeNext",
            moduleResolution: "NodeNext",
            strict: true,
            exactOptionalPropertyTypes: true,
            noEmit: true,
            skipLibCheck: false,
            types: ["node"],
            typeRoots: [join(repo, "node_modules", "@types")]
          },
          include: ["sample.ts"]
        },
        null,
        2
      )
    )
    const check = run(join(repo, "node_modules", ".bin", "tsc"), ["-p", "tsconfig.json"], project)
    expect(check.status, check.stdout + check.stderr).toBe(0)

    server = await startServer([], env, ["--no-schedule"])
    const created = await tendersAsync(["keys", "create", "--email", "sdk@example.com", "--plan", "pro", "--json"], env)
    expect(created.status, created.stderr).toBe(0)
    const { key } = JSON.parse(created.stdout) as { key: string }

    const result = run(process.execPath, ["sample.ts", server.base, key], project)
    expect(result.status, result.stderr + result.stdout).toBe(0)
    const lines = result.stdout.trim().split("\n")
    const search = /^search (\d+) ((?:ted|gnumner|eaeu)-\S+)$/u.exec(lines[0] ?? "")
    expect(search, result.stdout).not.toBeNull()
    expect(Number(search?.[1])).toBeGreaterThan(0)
    const id = search?.[2] ?? ""
    expect(lines[1]).toMatch(new RegExp(`^get ${id.replace(/[.]/gu, "\\.")} (open|amended) codes$`, "u"))
    expect(lines[2]).toBe("missing not_found 404")
    expect(lines[3]).toMatch(/^watchlist [0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12} \d+$/u)
    expect(lines[4]).toBe("alerts 0")
    expect(lines[5]).toBe("health ted,gnumner,eaeu")
    expect(lines[6]).toBe("wrong key unauthorized 401")

    const direct = await fetch(`${server.base}/v1/tenders/${id}`, { headers: { authorization: `Bearer ${key}` } })
    expect(direct.status).toBe(200)
  }, 240_000)
})
