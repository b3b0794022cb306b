import { expect } from "vitest"
import { runTenders } from "../src/main.ts"

/** What a `tenders` command printed, and its exit code. */
export interface CliResult {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

const text = (chunk: Uint8Array | string) => (typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"))

const storeVariables = ["DATABASE_URL", "TENDERS_DATA_DIR"] as const

/**
 * Runs `tenders args` in this process and returns its exit code and output: commander's help and errors, and what the
 * commands write to `process.stdout` and `process.stderr` meanwhile. The store is chosen by `args` alone
 * (`--data-dir` or `--database-url`), never by this process's environment; `process.exitCode` is left as it was.
 */
export const runCli = async (args: ReadonlyArray<string>): Promise<CliResult> => {
  let stdout = ""
  let stderr = ""
  const writes = { out: process.stdout.write, err: process.stderr.write }
  const variables = storeVariables.map((name) => [name, process.env[name]] as const)
  const exitCode = process.exitCode
  for (const name of storeVariables) delete process.env[name]
  process.exitCode = undefined
  process.stdout.write = (chunk: Uint8Array | string) => {
    stdout += text(chunk)
    return true
  }
  process.stderr.write = (chunk: Uint8Array | string) => {
    stderr += text(chunk)
    return true
  }
  try {
    const status = await runTenders(args, {
      writeOut: (text) => (stdout += text),
      writeErr: (text) => (stderr += text)
    })
    return { status, stdout, stderr }
  } finally {
    process.stdout.write = writes.out
    process.stderr.write = writes.err
    process.exitCode = exitCode
    for (const [name, value] of variables) if (value !== undefined) process.env[name] = value
  }
}

/** The global options that select the store of `env` (as `backendEnv` makes it) for a command run in process. */
export const storeArgs = (env: NodeJS.ProcessEnv): Array<string> => {
  const url = env["DATABASE_URL"]
  return url === undefined ? ["--data-dir", env["TENDERS_DATA_DIR"] ?? ""] : ["--database-url", url]
}

/** A command failed as a usage error does: exit 1, nothing on stdout, one line on stderr that contains `message`. */
export const expectOneLineFailure = (args: ReadonlyArray<string>, result: CliResult, message: string): void => {
  const what = `${args.join(" ")}: ${result.stderr}`
  expect(result.status, what).toBe(1)
  expect(result.stdout, what).toBe("")
  expect(result.stderr.trimEnd().split("\n"), what).toHaveLength(1)
  expect(result.stderr, what).toContain(message)
}
