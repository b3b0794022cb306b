import type { CallToolResult } from "@modelcontextprotocol/server"
import { type ContractFailure, errorBodyOf } from "@tenders/contract"
import { reportDefect } from "@tenders/core"
import { type Cause, Effect } from "effect"

const text = (value: unknown) => [{ type: "text" as const, text: JSON.stringify(value) }]

/** A successful tool result: the encoded response as `structuredContent` and as JSON text. */
export const toolSuccess = (structured: Record<string, unknown>): CallToolResult => ({
  content: text(structured),
  structuredContent: structured
})

/** A failed tool result: `isError` with the contract's error body (as REST answers) as `structuredContent` and text. */
export const toolFailure = (failure: ContractFailure): CallToolResult => {
  const body = errorBodyOf(failure)
  return { content: text(body), structuredContent: body, isError: true }
}

/** A defect, logged with a trace id and reported to the agent as `internal`; an interruption stays one. */
export const toolDefect = (cause: Cause.Cause<never>) =>
  Effect.map(reportDefect(cause, "MCP tool call failed"), toolFailure)
