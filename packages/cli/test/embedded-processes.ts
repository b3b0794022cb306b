// Helpers for tests that run several `tenders` processes on one embedded store (ownership, full disk,
// outside clients). Kept apart from cli.ts, which is being restructured.
import { recordLine } from "@tenders/core/testing"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as Fs from "node:fs"
import { join } from "node:path"
import { childEnv, startServer, tendersBin, waitFor } from "./cli.ts"

/** A `tenders` process started in the background. */
export interface Running {
  readonly child: ChildProcess
  readonly pid: number
  /** Resolves when it exits. */
  readonly exit: Promise<{ readonly status: number | null; readonly stdout: string; readonly stderr: string }>
}

const started = new Set<ChildProcess>()

/** Starts `tenders --data-dir <dataDir> ...args`. */
export const start = (dataDir: string, args: ReadonlyArray<string>, env = childEnv()): Running => {
  const child = spawn(process.execPath, [tendersBin, "--data-dir", dataDir, ...args], {
    env,
    stdio: ["ignore", "pipe", "pipe"]
  })
  started.add(child)
  let stdout = ""
  let stderr = ""
  child.stdout?.on("data", (chunk) => (stdout += String(chunk)))
  child.stderr?.on("data", (chunk) => (stderr += String(chunk)))
  const exit = new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once("close", (status) => {
      started.delete(child)
      resolve({ status, stdout, stderr })
    })
  )
  return { child, pid: child.pid ?? -1, exit }
}

const servers = new Set<Awaited<ReturnType<typeof startServer>>>()

/** `tenders serve` on `env`'s data directory (cli.ts's startServer), killed by {@link killStarted} if a test fails. */
export const serve = async (
  env: NodeJS.ProcessEnv,
  serveArgs: ReadonlyArray<string> = ["--no-schedule", "--no-seed"]
) => {
  const server = await startServer([], env, serveArgs)
  servers.add(server)
  return server
}

/** For afterEach: SIGKILLs (after SIGCONT) every process {@link start} or {@link serve} started that still runs. */
export const killStarted = async () => {
  for (const child of started) {
    child.kill("SIGCONT")
    child.kill("SIGKILL")
  }
  await Promise.all([...servers].map((server) => server.kill()))
  servers.clear()
}

/** Options for cli.ts's `waitFor`: a minute at most, checked every 25 ms. */
export const soon = (what: string) => ({ timeout: 60_000, what, interval: 25 })

/** The data directory's lock (LockFile.ts), if there is one. */
const lockOf = (dataDir: string): { readonly pid: number; readonly socketPath: string } | undefined => {
  try {
    return JSON.parse(Fs.readFileSync(join(dataDir, "pglite.lock"), "utf8")) as { pid: number; socketPath: string }
  } catch {
    return undefined
  }
}

/** The pid the data directory's lock names, if any. */
export const ownerPid = (dataDir: string): number | undefined => lockOf(dataDir)?.pid

/**
 * Whether the socket the data directory's lock names is listening (`/proc/net/unix`, flag `__SO_ACCEPTCON`). An owner
 * writes the lock just before it listens, so a test that stops the owner waits for this first.
 */
export const ownerListens = (dataDir: string): boolean => {
  const socketPath = lockOf(dataDir)?.socketPath
  return (
    socketPath !== undefined &&
    Fs.readFileSync("/proc/net/unix", "utf8")
      .split("\n")
      .some((line) => {
        const fields = line.trim().split(/\s+/u)
        return fields[7] === socketPath && (Number.parseInt(fields[3] ?? "0", 16) & 0x10000) !== 0
      })
  )
}

/** Unix sockets a process has open besides its standard streams (its connections to the store). */
export const socketsOf = (pid: number): number =>
  Fs.readdirSync(`/proc/${pid}/fd`).filter((fd) => {
    if (Number(fd) <= 2) return false
    try {
      return Fs.readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith("socket:")
    } catch {
      return false
    }
  }).length

/** Bytes a process has written (to files, pipes and sockets) so far: `wchar` in /proc/<pid>/io. */
export const bytesWritten = (pid: number): number => {
  const wchar = /^wchar: (\d+)$/mu.exec(Fs.readFileSync(`/proc/${pid}/io`, "utf8"))?.[1]
  if (wchar === undefined) throw new Error(`/proc/${pid}/io has no wchar`)
  return Number(wchar)
}

/**
 * A named pipe that `tenders ingest --from` reads: the ingest holds the store while it waits for the
 * content, so a test decides when it goes on.
 */
export const makeFifo = (path: string) => {
  execFileSync("mkfifo", [path])
  let probe: number | undefined
  return {
    path,
    /** Resolves once a process has opened the pipe for reading (its store is ready). */
    opened: () =>
      waitFor(
        () => {
          try {
            probe ??= Fs.openSync(path, Fs.constants.O_WRONLY | Fs.constants.O_NONBLOCK)
            return true
          } catch {
            return false
          }
        },
        soon(`a reader of ${path}`)
      ),
    /** Writes `text` and closes the pipe (the reader sees the end of the file). */
    feed: async (text: string) => {
      const stream = Fs.createWriteStream(path)
      await new Promise<void>((resolve, reject) => stream.end(text, () => resolve()).once("error", reject))
      if (probe !== undefined) Fs.closeSync(probe)
    }
  }
}

/** `count` normalised records (JSON lines) with ids `ted-<prefix>NNNNN-2026` and `word` in every title. */
export const records = (prefix: string, count: number, word: string): string =>
  Array.from({ length: count }, (_, i) => {
    const nativeId = `${prefix}${String(i).padStart(5, "0")}-2026`
    return recordLine({
      id: `ted-${nativeId}`,
      title: `${word} street cleaning lot ${i}`,
      buyer: "Gemeente Utrecht",
      country: "NL",
      budget: "120000.50",
      deadline: "2099-01-15T10:00:00Z",
      cpvCodes: ["90911200"]
    })
  }).join("\n") + "\n"

/** Rows in `tenders` and `tender_events`, read by opening the store in this process (no other may run). */
export const countRows = async (dataDir: string) => {
  const { layerEmbedded } = await import("@tenders/store-postgres")
  const { Effect } = await import("effect")
  const { SqlClient } = await import("effect/sql")
  return Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ tenders: number; events: number; distinct: number }>`
        SELECT (SELECT count(*)::int FROM tenders) AS tenders, (SELECT count(*)::int FROM tender_events) AS events,
          (SELECT count(DISTINCT tender_id)::int FROM tender_events) AS distinct`
      return row
    }).pipe(Effect.provide(layerEmbedded(dataDir)))
  )
}

/** Runs `statement` as an outside client of the PostgreSQL at `socketPath`; resolves with its error message, if any. */
export const runSql = async (socketPath: string, statement: string): Promise<string | undefined> => {
  const { PgClient } = await import("@effect/sql-pg")
  const { Effect } = await import("effect")
  const { Reactivity } = await import("effect/reactivity")
  const exit = await Effect.runPromiseExit(
    Effect.scoped(
      Effect.flatMap(
        PgClient.make({ path: socketPath, username: "postgres", database: "postgres", maxConnections: 1 }),
        (sql) => sql.unsafe(statement)
      )
    ).pipe(Effect.provide(Reactivity.layer))
  )
  if (exit._tag === "Success") return undefined
  const { Cause } = await import("effect")
  const { inspect } = await import("node:util")
  return inspect(Cause.squash(exit.cause), { depth: 6 })
}

/** Tenders the PostgreSQL at `socketPath` holds, or undefined if it cannot answer now. */
export const tendersAt = async (socketPath: string): Promise<number | undefined> => {
  const { PgClient } = await import("@effect/sql-pg")
  const { Effect } = await import("effect")
  const { Reactivity } = await import("effect/reactivity")
  const exit = await Effect.runPromiseExit(
    Effect.scoped(
      Effect.flatMap(
        PgClient.make({ path: socketPath, username: "postgres", database: "postgres", maxConnections: 1 }),
        (sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM tenders`
      )
    ).pipe(Effect.provide(Reactivity.layer))
  )
  return exit._tag === "Success" ? exit.value[0]?.n : undefined
}

/** The ids a search over HTTP finds (at most 20), and its status. */
export const searchApi = async (base: string, key: string, q: string) => {
  const res = await fetch(`${base}/v1/tenders/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ q, limit: 20 }),
    signal: AbortSignal.timeout(60_000)
  })
  const body = (await res.json()) as { results?: Array<{ id: string }> }
  return { status: res.status, ids: (body.results ?? []).map((r) => r.id) }
}

/** Waits for a started process to exit; fails if it is still running after `timeoutMs`. */
export const exited = async (running: Running, timeoutMs = 60_000) => {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`tenders (pid ${running.pid}) did not exit within ${timeoutMs} ms`)),
      timeoutMs
    )
  })
  try {
    return await Promise.race([running.exit, timeout])
  } finally {
    clearTimeout(timer)
  }
}
