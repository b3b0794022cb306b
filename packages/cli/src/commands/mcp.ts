import type { Command } from "commander"
import { Option as CliOption } from "commander"
import type { GlobalOptions } from "../Runtime.ts"

interface McpOptions {
  readonly stdio?: boolean
  readonly token?: string
}

const needsStdio = "mcp needs --stdio (for MCP over HTTP run `tenders serve` and connect to /mcp)"
const needsToken =
  "mcp needs an MCP token: set TENDERS_MCP_TOKEN or pass --token " +
  "(create one with `tenders keys create --kind mcp`)"

/** `tenders mcp --stdio`: the four MCP tools over stdin/stdout for a local agent, on the configured store. */
export const registerMcp = (program: Command, globals: () => GlobalOptions) =>
  program
    .command("mcp")
    .description("serve the MCP tools on stdin/stdout for a local agent (over HTTP, `tenders serve` answers at /mcp)")
    .option(
      "--stdio",
      "speak MCP on stdin/stdout; logs go to stderr (required: stdio is the only mode of this command)"
    )
    .addOption(
      new CliOption(
        "--token <token>",
        "MCP token (mcp_live_..., from `tenders keys create --kind mcp`) the agent acts as"
      ).env("TENDERS_MCP_TOKEN")
    )
    .action(async (options: McpOptions) => {
      const token = options.token ?? ""
      const problem = options.stdio !== true ? needsStdio : token.length === 0 ? needsToken : undefined
      if (problem !== undefined) {
        process.stderr.write(`tenders: ${problem}\n`)
        process.exitCode = 1
        return
      }
      const { runMcpStdio } = await import("../McpStdio.ts")
      runMcpStdio(token, globals())
    })
