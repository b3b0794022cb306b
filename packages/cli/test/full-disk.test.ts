// The embedded store on a full disk: real `tenders` processes on a small tmpfs (small-disk.ts: needs root,
// or a user and mount namespace), filled with one preallocated file and freed again.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { childEnv, tenders, waitFor } from "./cli.ts"
import { exited, killStarted, records, runSql, searchApi, serve, soon, start } from "./embedded-processes.ts"
import { mountSmallDisk, type SmallDisk } from "./small-disk.ts"

/** A bound for tests that start several `tenders` processes on a loaded two-core machine (not a timing assertion). */
const SLOW = 120_000

const MiB = 1024 * 1024
let disk: SmallDisk
const inputs = mkdtempSync(join(tmpdir(), "tfi-"))
beforeAll(() => {
  disk = mountSmallDisk(320)
})
afterAll(() => {
  disk?.unmount()
  rmSync(inputs, { recursive: true, force: true })
})

const used: Array<string> = []
const dataDir = (name: string) => {
  const dir = join(disk.dir, name)
  used.push(dir)
  return dir
}
afterEach(async () => {
  await killStarted()
  disk?.free()
  for (const dir of used.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** Writes `count` records with `word` in their titles to a file (not on the small disk). */
const input = (prefix: string, count: number, word: string) => {
  const file = join(inputs, `${word}.jsonl`)
  writeFileSync(file, records(prefix, count, word))
  return file
}

/**
 * With 10 MiB free, 20,000 records fit in the tables' files but not in the WAL segments (16 MiB) they need:
 * PostgreSQL PANICs, which used to leave `tenders` spinning forever.
 */
const FREE_FOR_PANIC = 10 * MiB
const BIG = 20_000

const refused = new RegExp(
  String.raw`^tenders: Writes to the embedded store are refused while the disk holding .+ has \d+\.\d MiB free ` +
    String.raw`\(it needs 64\.0 MiB to write\): free some space; reads still work\n$`,
  "u"
)

describe("the embedded store on a full disk", () => {
  it(
    "with no server, an ingest fails at once saying the disk is full, a search still works, " +
      "and ingests work again once space is freed",
    async () => {
      const dir = dataDir("alone")
      const env = childEnv({ TENDERS_DATA_DIR: dir })
      const alpha = input("81", 10, "alpha")
      const beta = input("82", 10, "beta")
      expect(tenders(["ingest", "--from", alpha], env).status).toBe(0)

      disk.fill(FREE_FOR_PANIC)
      const full = await exited(start(dir, ["ingest", "--from", input("87", BIG, "omega")]))
      expect(full.status).toBe(1)
      expect(full.stderr).toMatch(refused)
      const search = tenders(["search", "alpha"], env)
      expect(search.status, search.stderr).toBe(0)
      expect(search.stdout).toContain("ted-8100000-2026")

      disk.free()
      const freed = tenders(["ingest", "--from", beta], env)
      expect(freed.status, freed.stderr).toBe(0)
      expect(freed.stdout).toContain("new 10")
    },
    SLOW
  )

  it(
    "a store that cannot be created on a full disk says why, and the command exits",
    () => {
      const env = childEnv({ TENDERS_DATA_DIR: dataDir("fresh") })
      disk.fill(2 * MiB)
      const result = tenders(["keys", "list"], env)
      expect(result.status).toBe(1)
      expect(result.stderr).not.toContain("[object Object]")
      expect(result.stderr).toMatch(
        new RegExp(
          String.raw`^tenders: Cannot open PGlite in .+: ENOSPC: no space left on device ` +
            String.raw`\(the disk holding .+ has \d+\.\d MiB free\)\n$`,
          "u"
        )
      )
    },
    SLOW
  )

  // An API search counts the call, a write: while the disk is full it is served uncounted (core's authorizeCall).
  it(
    "a running server keeps answering /health and reads, refuses writes at once, " +
      "and takes them again once space is freed",
    async () => {
      const dir = dataDir("served")
      const env = childEnv({ TENDERS_DATA_DIR: dir })
      const server = await serve(env)
      const created = tenders(["keys", "create", "--email", "full@example.com", "--plan", "pro", "--json"], env)
      expect(created.status, created.stderr).toBe(0)
      const { key } = JSON.parse(created.stdout) as { key: string }
      expect(tenders(["ingest", "--from", input("83", 10, "kappa")], env).status).toBe(0)
      const lambda = input("84", 10, "lambda")

      disk.fill(FREE_FOR_PANIC)
      const full = await exited(start(dir, ["ingest", "--from", input("88", BIG, "omicron")]))
      expect(full.status).toBe(1)
      expect(full.stderr).toMatch(refused)
      expect((await fetch(`${server.base}/health`)).status).toBe(200)
      const search = tenders(["search", "kappa"], env)
      expect(search.status, search.stderr).toBe(0)
      expect(search.stdout).toContain("ted-8300009-2026")
      const api = await searchApi(server.base, key, "kappa")
      expect(api.status).toBe(200)
      expect(api.ids).toHaveLength(10)

      disk.free()
      const freed = tenders(["ingest", "--from", lambda], env)
      expect(freed.status, freed.stderr).toBe(0)
      expect((await searchApi(server.base, key, "kappa")).ids).toHaveLength(10)
      expect((await searchApi(server.base, key, "lambda")).ids).toHaveLength(10)
      expect(await server.stop()).toBe(0)
    },
    SLOW
  )

  it(
    "a transaction that fills the disk (a PANIC in PostgreSQL) leaves the server answering; " +
      "once space is freed it serves all that was committed, without a restart",
    async () => {
      const dir = dataDir("panic")
      const env = childEnv({ TENDERS_DATA_DIR: dir })
      const server = await serve(env)
      const created = tenders(["keys", "create", "--email", "panic@example.com", "--plan", "pro", "--json"], env)
      const { key } = JSON.parse(created.stdout) as { key: string }
      expect(tenders(["ingest", "--from", input("85", 10, "mu")], env).status).toBe(0)

      // Room to start writing (over the 64 MiB reserve), not for the WAL segments (16 MiB each) this makes.
      disk.fill(72 * MiB)
      const panic = await runSql(
        join(dir, ".s.PGSQL.5432"),
        `DO $$ BEGIN
           CREATE TABLE wal_filler (n int);
           FOR i IN 1..12 LOOP INSERT INTO wal_filler VALUES (i); PERFORM pg_switch_wal(); END LOOP;
         END $$`
      )
      expect(panic).toBeDefined()
      await waitFor(
        () => server.output().includes("stopped (PANIC: could not write"),
        soon("the server to log the PANIC")
      )
      const outage = await fetch(`${server.base}/health`, { signal: AbortSignal.timeout(60_000) })
      expect(outage.status).toBe(500)

      disk.free()
      await waitFor(
        async () => (await fetch(`${server.base}/health`, { signal: AbortSignal.timeout(60_000) })).status === 200,
        soon("the server to serve again")
      )
      expect((await searchApi(server.base, key, "mu")).ids).toHaveLength(10)
      expect(tenders(["ingest", "--from", input("86", 10, "nu")], env).status).toBe(0)
      expect((await searchApi(server.base, key, "nu")).ids).toHaveLength(10)
      expect(await server.stop()).toBe(0)
    },
    SLOW
  )
})
