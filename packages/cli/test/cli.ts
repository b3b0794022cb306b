import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { createServer } from "node:net"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect } from "vitest"

/** The `tenders` launcher, as `npx tenders` runs it. */
export const tendersBin = join(import.meta.dirname, "..", "bin", "tenders.js")

/**
 * Environment for child processes: the test's own, minus store selection and the classification packs' folder (a
 * server would import them at start; the tests that want them import them) unless given.
 */
export const childEnv = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: undefined,
    TENDERS_DATA_DIR: undefined,
    TENDERS_CLASSIFICATIONS_DIR: undefined,
    ...extra
  }
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key]
  return env
}

/** Runs a CLI command to completion. */
export const tenders = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = childEnv()) => {
  const result = spawnSync(process.execPath, [tendersBin, ...args], { env, encoding: "utf8", timeout: 120_000 })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Runs a CLI command without blocking this process (needed when this process also serves the command's requests). */
export const tendersAsync = (args: ReadonlyArray<string>, env: NodeJS.ProcessEnv = childEnv()) =>
  new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [tendersBin, ...args], { env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += String(chunk)))
    child.stderr.on("data", (chunk) => (stderr += String(chunk)))
    child.once("close", (status) => resolve({ status, stdout, stderr }))
  })

/** A free TCP port on loopback. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => resolve(port))
    })
  })

/**
 * Waits until `condition` holds, checking it again every `interval` ms; fails naming `what` (a text, or a function
 * that describes the state at the deadline) once `timeout` ms have passed. A condition may throw to stop at once.
 */
export const waitFor = async (
  condition: () => boolean | Promise<boolean>,
  options: { readonly timeout: number; readonly what: string | (() => string); readonly interval?: number }
): Promise<void> => {
  const deadline = Date.now() + options.timeout
  while (!(await condition())) {
    if (Date.now() >= deadline) {
      const what = typeof options.what === "string" ? options.what : options.what()
      throw new Error(`waited ${options.timeout} ms for ${what}`)
    }
    await new Promise((resolve) => setTimeout(resolve, options.interval ?? 100))
  }
}

/**
 * Starts `tenders serve` (without scheduled fetching unless `serveArgs` says otherwise) and waits (bounded) until
 * /health answers.
 */
export const startServer = async (
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  serveArgs: ReadonlyArray<string> = ["--no-schedule"]
): Promise<Awaited<ReturnType<typeof startServerOnce>>> => {
  // A free port can be taken by another process between `freePort` closing it and the server binding it: then the
  // server exits with EADDRINUSE, and a new port is tried.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startServerOnce(args, env, serveArgs)
    } catch (error) {
      if (attempt >= 3 || !(error instanceof Error && error.message.includes("EADDRINUSE"))) throw error
    }
  }
}

const startServerOnce = async (
  args: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv,
  serveArgs: ReadonlyArray<string>
) => {
  const port = await freePort()
  const child: ChildProcess = spawn(
    process.execPath,
    [tendersBin, ...args, "serve", "--port", String(port), ...serveArgs],
    { env, stdio: ["ignore", "pipe", "pipe"] }
  )
  let output = ""
  child.stdout?.on("data", (chunk) => (output += String(chunk)))
  child.stderr?.on("data", (chunk) => (output += String(chunk)))
  const base = `http://127.0.0.1:${port}`
  const healthy = async () => {
    if (child.exitCode !== null) throw new Error(`tenders serve exited with ${child.exitCode}`)
    return fetch(`${base}/health`).then(
      (res) => res.status === 200,
      () => false
    )
  }
  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()))
  await waitFor(healthy, { timeout: 60_000, what: "tenders serve to answer /health" }).catch(async (error: unknown) => {
    child.kill("SIGKILL")
    await closed // all it printed is read
    throw new Error(`${error instanceof Error ? error.message : String(error)}:\n${output}`)
  })
  const stop = () =>
    new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode)
      child.once("exit", (code) => resolve(code))
      child.kill("SIGTERM")
    })
  /** Ends the server the hard way (SIGKILL: no finalizer runs), as a crash or an OOM kill would. */
  const kill = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once("exit", () => resolve())
      child.kill("SIGKILL")
    })
  return { base, stop, kill, output: () => output }
}

/** Creates a fresh database on the server of `url`; returns its URL and a function that drops it. */
export const createTestDatabase = async (url: string) => {
  const { PgClient } = await import("@effect/sql-pg")
  const { Effect, Redacted } = await import("effect")
  const { Reactivity } = await import("effect/reactivity")
  const name = `tenders_e2e_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = (statement: string) =>
    Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(PgClient.make({ url: Redacted.make(url), maxConnections: 1 }), (sql) => sql.unsafe(statement))
      ).pipe(Effect.provide(Reactivity.layer))
    )
  await admin(`CREATE DATABASE ${name}`)
  const target = new URL(url)
  target.pathname = `/${name}`
  return { url: target.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

const testDatabaseUrl = process.env["TEST_DATABASE_URL"]

/** The stores the end-to-end suites run on: the embedded one, plus PostgreSQL when TEST_DATABASE_URL is set. */
export const e2eBackends: ReadonlyArray<"embedded store" | "PostgreSQL"> = [
  "embedded store",
  ...(testDatabaseUrl !== undefined && testDatabaseUrl.length > 0 ? ["PostgreSQL" as const] : [])
]

/**
 * The environment of a server on `backend` with its data in `dataDir` (plus `extra`): on PostgreSQL a fresh
 * database, which `drop` removes.
 */
export const backendEnv = async (backend: string, dataDir: string, extra: Record<string, string> = {}) => {
  const database =
    backend === "PostgreSQL" && testDatabaseUrl !== undefined ? await createTestDatabase(testDatabaseUrl) : null
  const env = childEnv({
    TENDERS_DATA_DIR: dataDir,
    ...(database === null ? {} : { DATABASE_URL: database.url }),
    ...extra
  })
  return { env, drop: async (): Promise<unknown> => database?.drop() }
}

/**
 * A `tenders serve` on `backend` for the enclosing `describe`: started before its tests (with `onStarted` run
 * next, e.g. to create keys), stopped cleanly after them, its data directory and database removed.
 */
export const suiteServer = (
  backend: string,
  prefix: string,
  onStarted: () => Promise<void> = async () => undefined,
  extraEnv: () => Record<string, string> = () => ({})
) => {
  const dataDir = mkdtempSync(join(tmpdir(), prefix))
  let env = childEnv({ TENDERS_DATA_DIR: dataDir })
  let drop = async (): Promise<unknown> => undefined
  let server: Awaited<ReturnType<typeof startServer>> | undefined
  beforeAll(async () => {
    const chosen = await backendEnv(backend, dataDir, extraEnv())
    env = chosen.env
    drop = chosen.drop
    server = await startServer([], env)
    await onStarted()
  }, 180_000)
  afterAll(async () => {
    expect(await server?.stop()).toBe(0)
    await drop()
    rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)
  return {
    dataDir,
    /** The environment of CLI commands that share the server's store. */
    env: () => env,
    /** The server's base URL (after `beforeAll`). */
    base: () => server?.base ?? ""
  }
}
