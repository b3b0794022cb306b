// Outside PostgreSQL clients on the embedded store's socket (psql, pg_dump), and `tenders store backup` /
// `restore`, the supported way to copy the store: real `tenders` processes and Debian's psql.
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, describe, expect, it } from "vitest"
import { childEnv, tenders, waitFor } from "./cli.ts"
import { countRows, killStarted, ownerPid, records, searchApi, serve, soon, start } from "./embedded-processes.ts"

/** A bound for tests that start several `tenders` processes on a loaded two-core machine (not a timing assertion). */
const SLOW = 120_000

const root = mkdtempSync(join(tmpdir(), "toc-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))
afterEach(killStarted)

/** psql (Debian's, PostgreSQL 15) on the store's socket directory. */
const psql = (dataDir: string, ...commands: ReadonlyArray<string>) =>
  spawnSync("psql", ["-h", dataDir, "-U", "postgres", "-d", "postgres", "-X", ...commands.flatMap((c) => ["-c", c])], {
    encoding: "utf8",
    timeout: 60_000,
    stdio: ["ignore", "pipe", "pipe"]
  })

const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/u.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024

describe("outside clients on the embedded store's socket", () => {
  it(
    "psql \\copy both ways, SET, a COPY that ends the backend, and pg_dump leave the server healthy and stoppable",
    async () => {
      const dataDir = join(root, "served")
      const env = childEnv({ TENDERS_DATA_DIR: dataDir })
      const server = await serve(env)
      const created = tenders(["keys", "create", "--email", "psql@example.com", "--plan", "pro", "--json"], env)
      const { key } = JSON.parse(created.stdout) as { key: string }
      expect(tenders(["ingest", "--from", writeInput("91", 12, "sigma")], env).status).toBe(0)
      const pid = ownerPid(dataDir) ?? -1
      const healthy = async () => {
        expect((await fetch(`${server.base}/health`, { signal: AbortSignal.timeout(30_000) })).status).toBe(200)
        expect((await searchApi(server.base, key, "sigma")).ids).toHaveLength(12)
      }

      const out = join(root, "tenders.csv")
      const copyOut = psql(dataDir, `\\copy (SELECT id, title FROM tenders ORDER BY id) TO '${out}' csv`)
      expect(copyOut.status, copyOut.stderr).toBe(0)
      expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(12)
      const copyIn = psql(dataDir, `\\copy tenders_migrations FROM '${out}' csv`)
      await healthy()
      expect(copyIn.status).not.toBe(0)
      expect(copyIn.stderr).toContain("COPY FROM STDIN (psql's \\copy ... from) cannot reach the embedded PostgreSQL")

      // Session settings stay with the client that made them.
      const set = psql(dataDir, "SET search_path = ''", "SET default_transaction_read_only = on", "SELECT 1")
      expect(set.status, set.stderr).toBe(0)
      spawnSync("pg_dump", ["-h", dataDir, "-U", "postgres", "postgres"], { timeout: 60_000, stdio: "ignore" })
      await healthy()
      expect(tenders(["ingest", "--from", writeInput("92", 3, "tau")], env).status).toBe(0)

      // A COPY inside a transaction reaches PGlite, whose backend then ends: the server opens it again.
      const before = rssMiB(pid)
      const fatal = psql(dataDir, "BEGIN; COPY tenders_migrations FROM STDIN")
      expect(fatal.stderr).toContain("FATAL")
      await waitFor(() => server.output().includes("is back"), soon("the server to reopen PGlite"))
      await healthy()
      // Memory stays bounded across the reopen: at most the closed instance waiting for a collection (measured: the
      // growth is either 1 to 4 MiB less or about 155 MiB more, by when the collector runs), not more. The level
      // varies by hundreds of MiB from run to run with what ran before (750 to 1,025 MiB), so its bound is loose.
      const after = rssMiB(pid)
      expect(after - before).toBeLessThan(256)
      expect(after).toBeLessThan(1536)

      const idle = start(dataDir, ["search", "sigma"]) // a client while it stops
      expect(await server.stop()).toBe(0)
      expect((await idle.exit).status).toBe(0)
    },
    SLOW
  )

  it(
    "a backup taken while a server runs (and an ingest writes) " +
      "restores into a fresh data directory with the same tenders",
    async () => {
      const dataDir = join(root, "original")
      const env = childEnv({ TENDERS_DATA_DIR: dataDir })
      const server = await serve(env, ["--no-schedule"]) // seeds the sample
      const backup = join(root, "store.tar.gz")
      const writing = start(dataDir, ["ingest", "--from", writeInput("93", 600, "upsilon")])
      const taken = tenders(["store", "backup", "--to", backup], env)
      expect(taken.status, taken.stderr).toBe(0)
      expect(taken.stdout).toMatch(/^Backed up .+ to .+store\.tar\.gz \(\d+ bytes\)\.\n$/u)
      expect((await writing.exit).status).toBe(0)

      const refused = tenders(["store", "restore", "--from", backup], env)
      expect(refused.status).toBe(1)
      expect(refused.stderr).toMatch(
        /^tenders: .+ is in use by process \d+ \(.+pglite\.lock\): stop it before restoring\n$/u
      )

      const copy = join(root, "copy")
      const restored = tenders(["store", "restore", "--from", backup], childEnv({ TENDERS_DATA_DIR: copy }))
      expect(restored.status, restored.stderr).toBe(0)
      expect(await server.stop()).toBe(0)
      const [original, fromBackup] = [await countRows(dataDir), await countRows(copy)]
      // A backup holds whole transactions: every tender with its event, the sample and none, one or both batches.
      expect(fromBackup.tenders).toBe(fromBackup.events)
      expect([360, 860, 960]).toContain(fromBackup.tenders)
      expect(original).toEqual({ tenders: 960, events: 960, distinct: 960 })

      const again = tenders(["store", "restore", "--from", backup], childEnv({ TENDERS_DATA_DIR: copy }))
      expect(again.status).toBe(1)
      expect(again.stderr).toContain("holds a store already")
      const forced = tenders(["store", "restore", "--from", backup, "--force"], childEnv({ TENDERS_DATA_DIR: copy }))
      expect(forced.status, forced.stderr).toBe(0)
      expect(forced.stdout).toMatch(/The store it replaced is in .+pglite\.replaced-/u)
      expect(existsSync(join(copy, "pglite", "PG_VERSION"))).toBe(true)
    },
    SLOW
  )
})

let inputs = 0
/** A file of `count` records with `word` in their titles. */
const writeInput = (prefix: string, count: number, word: string) => {
  const file = join(root, `input-${inputs++}.jsonl`)
  writeFileSync(file, records(prefix, count, word))
  return file
}
