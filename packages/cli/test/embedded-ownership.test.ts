// The embedded store passes from owner to owner: real `tenders` processes, the owner leaving while others
// still use the store through its socket. Named pipes (`ingest --from FIFO`) and SIGSTOP decide the order.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { childEnv, tenders, waitFor } from "./cli.ts"
import {
  countRows,
  killStarted,
  makeFifo,
  ownerListens,
  ownerPid,
  records,
  searchApi,
  serve,
  socketsOf,
  start,
  soon
} from "./embedded-processes.ts"

/** A bound for tests that start several `tenders` processes on a loaded two-core machine (not a timing assertion). */
const SLOW = 120_000

const dirs: Array<string> = []
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), "teo-"))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  await killStarted()
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const data = (dir: string) => join(dir, "data")

describe("the embedded store when its owner exits", () => {
  it(
    "concurrent ingests without a server: the one left takes the store over and stores all it read",
    async () => {
      const dir = fresh()
      const first = makeFifo(join(dir, "first.jsonl"))
      const second = makeFifo(join(dir, "second.jsonl"))
      const owner = start(data(dir), ["ingest", "--from", first.path])
      await waitFor(() => ownerPid(data(dir)) === owner.pid, soon("the first ingest to own the store"))
      await first.opened()
      const joiner = start(data(dir), ["ingest", "--from", second.path])
      await second.opened() // its store is ready: it reached the first ingest's socket

      await first.feed(records("71", 30, "alpha"))
      const ownerExit = await owner.exit
      expect(ownerExit.status, ownerExit.stderr).toBe(0)
      await second.feed(records("72", 40, "beta"))
      const joinerExit = await joiner.exit
      expect(joinerExit.status, joinerExit.stderr).toBe(0)
      expect(joinerExit.stdout).toContain("new 40")

      expect(await countRows(data(dir))).toEqual({ tenders: 70, events: 70, distinct: 70 })
    },
    SLOW
  )

  it(
    "a server started while an ingest owned the store keeps answering after the ingest exits",
    async () => {
      const dir = fresh()
      const env = childEnv({ TENDERS_DATA_DIR: data(dir) })
      const fifo = makeFifo(join(dir, "in.jsonl"))
      const owner = start(data(dir), ["ingest", "--from", fifo.path])
      await waitFor(() => ownerPid(data(dir)) === owner.pid, soon("the ingest to own the store"))
      await fifo.opened()
      const server = await serve(env)
      const created = tenders(["keys", "create", "--email", "owner@example.com", "--plan", "pro", "--json"], env)
      expect(created.status, created.stderr).toBe(0)
      const { key } = JSON.parse(created.stdout) as { key: string }

      await fifo.feed(records("73", 15, "gamma"))
      const ownerExit = await owner.exit
      expect(ownerExit.status, ownerExit.stderr).toBe(0)

      expect((await fetch(`${server.base}/health`)).status).toBe(200)
      expect((await searchApi(server.base, key, "gamma")).ids).toHaveLength(15)
      expect(ownerPid(data(dir))).not.toBe(owner.pid)
      expect(await server.stop()).toBe(0)
    },
    SLOW
  )

  it(
    "an ingest started while `keys list` owned the store stores everything once `keys list` exits",
    async () => {
      const dir = fresh()
      const fifo = makeFifo(join(dir, "in.jsonl"))
      const keys = start(data(dir), ["keys", "list"])
      // `keys list` owns the store for about a second: it is stopped as soon as its socket listens (it takes the
      // lock before), and goes on once the ingest has reached that socket (the kernel accepts connections for a
      // stopped listener).
      await waitFor(
        () => ownerPid(data(dir)) === keys.pid && ownerListens(data(dir)),
        soon("`keys list` to own the store and listen")
      )
      keys.child.kill("SIGSTOP")
      const ingest = start(data(dir), ["ingest", "--from", fifo.path])
      let early: Awaited<typeof ingest.exit> | undefined
      void ingest.exit.then((exit) => (early = exit))
      await waitFor(() => {
        if (early) throw new Error(`the ingest exited before it reached the socket of \`keys list\`: ${early.stderr}`)
        return socketsOf(ingest.pid) > 0
      }, soon("the ingest to connect to the socket of `keys list`"))
      keys.child.kill("SIGCONT")
      const keysExit = await keys.exit
      expect(keysExit.status, keysExit.stderr).toBe(0)
      expect(keysExit.stdout).toBe("No keys.\n")

      await fifo.opened()
      await fifo.feed(records("74", 20, "delta"))
      const ingestExit = await ingest.exit
      expect(ingestExit.status, ingestExit.stderr).toBe(0)
      expect(ingestExit.stdout).toContain("new 20")
      expect(await countRows(data(dir))).toEqual({ tenders: 20, events: 20, distinct: 20 })
    },
    SLOW
  )

  it(
    "four ingests of distinct files while the server owning the store stops: every record stored exactly once",
    async () => {
      const dir = fresh()
      const server = await serve(childEnv({ TENDERS_DATA_DIR: data(dir) }))
      const fifos = [0, 1, 2, 3].map((i) => makeFifo(join(dir, `in-${i}.jsonl`)))
      const ingests = fifos.map((fifo) => start(data(dir), ["ingest", "--from", fifo.path]))
      for (const fifo of fifos) await fifo.opened() // each reached the server's socket and its store is ready

      // 600 records each are two transactions: the server stops while they write, and each ingest that
      // finishes first leaves the store to the others.
      await Promise.all(fifos.map((fifo, i) => fifo.feed(records(`76${i}`, 600, "zeta"))))
      expect(await server.stop()).toBe(0)
      const exits = await Promise.all(ingests.map((ingest) => ingest.exit))
      for (const exit of exits) expect(exit.status, exit.stderr).toBe(0)
      for (const exit of exits) expect(exit.stdout).toContain("new 600")
      expect(await countRows(data(dir))).toEqual({ tenders: 2400, events: 2400, distinct: 2400 })
    },
    SLOW
  )
})
