// A tender and its change event commit together, on both stores and for every ingestion path (issue 9, defect 5):
// a failure or a kill between writing tenders and writing their events must leave neither, so that a re-run writes
// both and the `new` alerts come.
import { SearchTextLive } from "@tenders/search-text"
import { PgClient } from "@effect/sql-pg"
import { layerStore } from "@tenders/store-postgres"
import { recordLine } from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { backendEnv, e2eBackends, tendersBin, waitFor } from "./cli.ts"
import { runCli, storeArgs } from "./inProcess.ts"

const tedFixtures = join(import.meta.dirname, "..", "..", "adapters-sources", "test", "fixtures", "ted")

/** Runs statements on the (migrated) store of `env` from this process; the embedded one is opened here, then closed. */
const onStore = (env: NodeJS.ProcessEnv, statements: ReadonlyArray<string>) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      const results: Array<ReadonlyArray<Record<string, unknown>>> = []
      for (const statement of statements) results.push(yield* sql.unsafe<Record<string, unknown>>(statement))
      return results
    }).pipe(
      Effect.provide(
        layerStore({ databaseUrl: env["DATABASE_URL"], dataDir: env["TENDERS_DATA_DIR"] ?? "" }).pipe(
          Layer.provideMerge(SearchTextLive)
        )
      ),
      Effect.orDie
    )
  )

const failEvents = [
  `CREATE OR REPLACE FUNCTION fail_events() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN RAISE EXCEPTION 'simulated crash before the change events'; END $$`,
  `CREATE TRIGGER fail_events BEFORE INSERT ON tender_events FOR EACH STATEMENT EXECUTE FUNCTION fail_events()`
]
const healed = [
  `DROP TRIGGER IF EXISTS fail_events ON tender_events`,
  `DROP TRIGGER IF EXISTS sleep_events ON tender_events`
]
const orphans = `SELECT count(*)::int AS n FROM tenders t WHERE NOT EXISTS
  (SELECT 1 FROM tender_events e WHERE e.tender_id = t.id AND e.change = 'new')`
const counts = `SELECT (SELECT count(*)::int FROM tenders) AS tenders,
  (SELECT count(*)::int FROM tender_events) AS events`

const records = Array.from({ length: 3 }, (_, i) =>
  recordLine({
    id: `ted-77000${i}-2026`,
    title: `Ferry terminal maintenance ${i}`,
    buyer: "Port of Tallinn",
    country: "EE",
    budget: "250000",
    deadline: "2099-03-01T12:00:00Z",
    cpvCodes: ["45241000"]
  })
).join("\n")

const paths = [
  { name: "normalised records (--from FILE)", file: "records.jsonl", content: records, args: [] as string[] },
  {
    name: "recorded TED payloads (--source ted --from FILE)",
    file: "ted.json",
    content: readFileSync(join(tedFixtures, "search-response-de-competition-and-result.json"), "utf8"),
    args: ["--source", "ted"]
  }
]

const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup()
})

describe.each(e2eBackends)("ingestion on the %s: a tender commits with its change event", (backend) => {
  it.each(paths)("$name: a failure between the two writes leaves neither, and a re-run writes both", async (path) => {
    const dir = mkdtempSync(join(tmpdir(), "tenders-atomic-"))
    const { env, drop } = await backendEnv(backend, join(dir, "data"))
    cleanups.push(drop, async () => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, path.file)
    writeFileSync(file, path.content)
    await onStore(env, failEvents)
    const failed = await runCli([...storeArgs(env), "ingest", ...path.args, "--from", file])
    expect(failed.status, failed.stderr).not.toBe(0)
    expect((await onStore(env, [counts]))[0]).toEqual([{ tenders: 0, events: 0 }])
    await onStore(env, healed)
    const rerun = await runCli([...storeArgs(env), "ingest", ...path.args, "--from", file])
    expect(rerun.status, rerun.stderr).toBe(0)
    const [[written], [missing]] = await onStore(env, [counts, orphans])
    expect(written?.["tenders"]).toBeGreaterThan(0)
    expect(missing).toEqual({ n: 0 })
  })
})

describe.runIf(e2eBackends.includes("PostgreSQL"))("ingestion on PostgreSQL killed with SIGKILL mid-write", () => {
  it("leaves no tender without its `new` event once re-run", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tenders-kill-"))
    const { env, drop } = await backendEnv("PostgreSQL", join(dir, "data"))
    cleanups.push(drop, async () => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, "records.jsonl")
    writeFileSync(file, records)
    // The events' INSERT waits in a trigger, so the process is killed after the tenders were written.
    await onStore(env, [
      `CREATE OR REPLACE FUNCTION sleep_events() RETURNS trigger LANGUAGE plpgsql AS
         $$ BEGIN PERFORM pg_sleep(600); RETURN NULL; END $$`,
      `CREATE TRIGGER sleep_events BEFORE INSERT ON tender_events FOR EACH STATEMENT EXECUTE FUNCTION sleep_events()`
    ])
    const child = spawn(process.execPath, [tendersBin, "ingest", "--from", file], { env, stdio: "ignore" })
    const exited = new Promise((resolve) => child.once("exit", resolve))
    const database = new URL(env["DATABASE_URL"] ?? "").pathname.slice(1)
    const sleeping = `SELECT pid FROM pg_stat_activity WHERE datname = '${database}' AND wait_event = 'PgSleep'`
    let pids: ReadonlyArray<Record<string, unknown>> = []
    await waitFor(
      async () => {
        pids = (await onStore(env, [sleeping]))[0] ?? []
        return pids.length > 0
      },
      { timeout: 60_000, what: "the ingest to reach the change events", interval: 50 }
    )
    child.kill("SIGKILL")
    await exited
    // The killed client's backend would sleep on; end it as PostgreSQL does when it notices the lost client.
    await onStore(env, [...pids.map((row) => `SELECT pg_terminate_backend(${Number(row["pid"])})`), ...healed])
    const rerun = await runCli([...storeArgs(env), "ingest", "--from", file])
    expect(rerun.status, rerun.stderr).toBe(0)
    expect((await onStore(env, [orphans]))[0]).toEqual([{ n: 0 }])
  })
})
