import type { CallToolResult } from "@modelcontextprotocol/server"
import { ContractError, type ContractFailure, type ErrorResponse } from "@tenders/contract"
import { Internal } from "@tenders/core"
import { Cause, Effect, Schema } from "effect"

export type { ContractFailure }

const text = (value: unknown) => [{ type: "text" as const, text: JSON.stringify(value) }]

/** A successful tool result: the encoded response as `structuredContent` and as JSON text. */
export const toolSuccess = (structured: Record<string, unknown>): CallToolResult => ({
  content: text(structured),
  structuredContent: structured
})

/** The `{ error: { code, message } }` body of a failure, the same body REST answers with. */
export const errorBody = (failure: ContractFailure): ErrorResponse => {
  const encoded = Schema.encodeSync(ContractError)(failure)
  return { error: { code: encoded.error.code, message: encoded.error.message } }
}

/** A failed tool result: `isError` with the contract's error body as `structuredContent` and as JSON text. */
export const toolFailure = (failure: ContractFailure): CallToolResult => {
  const body = errorBody(failure)
  return { content: text(body), structuredContent: body, isError: true }
}

/** A defect, logged with a trace id and reported to the agent as `internal`; an interruption stays one. */
export const toolDefect = Effect.fnUntraced(function* (cause: Cause.Cause<never>) {
  if (Cause.hasInterruptsOnly(cause)) return yield* Effect.failCause(cause)
  const traceId = crypto.randomUUID()
  yield* Effect.logError("MCP tool call failed", { traceId }, cause)
  return toolFailure(new Internal({ message: `Internal error; retry later (trace ${traceId})` }))
})
