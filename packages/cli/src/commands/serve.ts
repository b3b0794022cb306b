import type { Command } from "commander"
import { Option as CliOption } from "commander"
import type { GlobalOptions } from "../Runtime.ts"

interface ServeOptions {
  readonly port: string
  readonly host: string
  readonly seed: boolean
  readonly schedule: boolean
}

const parsePort = (raw: string) => {
  const port = Number(raw)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port must be an integer from 0 to 65535, got "${raw}"`)
  return port
}

/** `tenders serve`: the REST API, /docs and /mcp on the configured store. */
export const registerServe = (program: Command, globals: () => GlobalOptions) =>
  program
    .command("serve")
    .description("run the REST API and the MCP endpoint (/mcp); seeds the bundled sample into an empty store")
    .addOption(
      new CliOption("--port <port>", "port to listen on").env("TENDERS_PORT").default(process.env["PORT"] ?? "8080")
    )
    .addOption(new CliOption("--host <host>", "address to bind").env("TENDERS_HOST").default("127.0.0.1"))
    .option("--no-seed", "do not ingest the bundled sample data into an empty store")
    .option("--no-schedule", "do not fetch the sources on a schedule (a read-only replica)")
    .action(async (options: ServeOptions) => {
      const port = parsePort(options.port)
      const { runServer } = await import("../Server.ts")
      runServer({ port, host: options.host, seed: options.seed, schedule: options.schedule }, globals())
    })
