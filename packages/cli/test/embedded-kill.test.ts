// The embedded store when the `tenders serve` that owns it is killed with SIGKILL (no drain, no 57P01, a stale lock)
// while another `tenders` process uses it: real processes, killed once a count or an open pipe says when.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { childEnv, tenders, waitFor } from "./cli.ts"
import {
  bytesWritten,
  countRows,
  exited,
  killStarted,
  makeFifo,
  records,
  type Running,
  serve,
  soon,
  start,
  tendersAt
} from "./embedded-processes.ts"

/** A bound for tests that start several `tenders` processes on a loaded two-core machine (not a timing assertion). */
const SLOW = 120_000

const dirs: Array<string> = []
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), "tek-"))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  await killStarted()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const data = (dir: string) => join(dir, "data")
const socket = (dir: string) => join(data(dir), ".s.PGSQL.5432")

/**
 * Waits until `count` records are stored, and then until the ingest sent rows again: the server answers between
 * two of the ingest's transactions (one connection holds its session for a whole transaction), so those rows are
 * in a transaction not committed yet (BEGIN, COMMIT and the like are a few hundred bytes).
 */
const writingTransaction = async (dir: string, ingest: Running, count: number) => {
  await waitFor(async () => ((await tendersAt(socket(dir))) ?? 0) >= count, {
    ...soon(`${count} records stored`),
    interval: 200
  })
  const before = bytesWritten(ingest.pid)
  await waitFor(() => bytesWritten(ingest.pid) > before + 4_096, soon("the ingest to send rows"))
}

describe("the embedded store when the server owning it is killed with SIGKILL", () => {
  it(
    "an ingest writing through it takes the store over and stores each of 20,000 records once",
    async () => {
      const dir = fresh()
      const file = join(dir, "in.jsonl")
      writeFileSync(file, records("81", 20_000, "kappa"))
      const env = childEnv({ TENDERS_DATA_DIR: data(dir) })
      const server = await serve(env)
      const ingest = start(data(dir), ["ingest", "--from", file])
      await writingTransaction(dir, ingest, 2_000) // of 40 transactions of 500
      await server.kill()

      const exit = await exited(ingest)
      expect(exit.status, exit.stderr).toBe(0)
      expect(exit.stdout).toContain("new 20000, updated 0, unchanged 0")
      const search = tenders(["search", "kappa", "--json"], env)
      expect(search.status, search.stderr).toBe(0)
      expect(search.stdout).toContain('"ted-81')
      expect(await countRows(data(dir))).toEqual({ tenders: 20_000, events: 20_000, distinct: 20_000 })
    },
    SLOW
  )

  it(
    "an ingest connected to it and idle takes the store over when it writes",
    async () => {
      const dir = fresh()
      const fifo = makeFifo(join(dir, "in.jsonl"))
      const server = await serve(childEnv({ TENDERS_DATA_DIR: data(dir) }))
      const ingest = start(data(dir), ["ingest", "--from", fifo.path])
      await fifo.opened() // its store is ready: it reached the server's socket
      await server.kill()

      await fifo.feed(records("82", 600, "lambda"))
      const exit = await exited(ingest)
      expect(exit.status, exit.stderr).toBe(0)
      expect(exit.stdout).toContain("new 600")
      expect(await countRows(data(dir))).toEqual({ tenders: 600, events: 600, distinct: 600 })
    },
    SLOW
  )

  it(
    "an ingest stopped while it writes, the server killed meanwhile, goes on as the store's owner",
    async () => {
      const dir = fresh()
      const file = join(dir, "in.jsonl")
      writeFileSync(file, records("83", 2_000, "mu"))
      const server = await serve(childEnv({ TENDERS_DATA_DIR: data(dir) }))
      const ingest = start(data(dir), ["ingest", "--from", file])
      await writingTransaction(dir, ingest, 500)
      ingest.child.kill("SIGSTOP")
      await server.kill()
      ingest.child.kill("SIGCONT")

      const exit = await exited(ingest)
      expect(exit.status, exit.stderr).toBe(0)
      expect(exit.stdout).toContain("new 2000, updated 0, unchanged 0")
      expect(await countRows(data(dir))).toEqual({ tenders: 2_000, events: 2_000, distinct: 2_000 })
    },
    SLOW
  )
})
