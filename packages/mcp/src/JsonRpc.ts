import { isJsonContentType, type SpecTypeName, specTypeSchemas } from "@modelcontextprotocol/server"
import { isBodyTooLarge } from "@tenders/core"
import { ByteSize, Data, Effect, Option, Predicate, Schema } from "effect"
import { HttpIncomingMessage, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { tools } from "./Tools.ts"

/** Request bodies above this size are refused (413), as REST refuses bodies above 64 KiB. */
export const maxMcpBodyBytes = 64 * 1024

/** The JSON-RPC 2.0 error codes this endpoint answers with before the SDK sees a message. */
export const JsonRpcCode = { parseError: -32700, invalidRequest: -32600, invalidParams: -32602, internal: -32603 }

/** A JSON-RPC request id; `null` when the id of the message is unknown. */
export type JsonRpcId = string | number | null

/** A JSON-RPC error response, as the body of an HTTP response with `status`. */
export const jsonRpcError = (status: number, code: number, message: string, id: JsonRpcId = null) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", error: { code, message }, id }, { status })

/** An MCP request the endpoint refuses in JSON-RPC, before the SDK: the response to send. */
export class JsonRpcRefusal extends Data.TaggedError("JsonRpcRefusal")<{
  readonly response: HttpServerResponse.HttpServerResponse
}> {}

const refuse = (status: number, code: number, message: string, id: JsonRpcId = null) =>
  Effect.fail(new JsonRpcRefusal({ response: jsonRpcError(status, code, message, id) }))

const RequestId = Schema.Union([Schema.String, Schema.Number])

/** The envelope of a JSON-RPC request (a notification has no id; a response has no method). */
const Envelope = Schema.Struct({
  jsonrpc: Schema.Literal("2.0"),
  method: Schema.String,
  id: Schema.optionalKey(RequestId)
})

const decodeJson = Schema.decodeUnknownEffect(Schema.fromJsonString(Schema.Unknown))
const decodeEnvelope = Schema.decodeUnknownOption(Envelope)

/**
 * The requests this server answers, with the MCP spec type of each: the SDK checks their params too, but answers a
 * failure with -32603 and a raw validation dump, where JSON-RPC says -32602 and a person should read the reason.
 */
const servedRequests: ReadonlyMap<string, SpecTypeName> = new Map([
  ["initialize", "InitializeRequest"],
  ["ping", "PingRequest"],
  ["tools/list", "ListToolsRequest"],
  ["tools/call", "CallToolRequest"],
  ["server/discover", "DiscoverRequest"]
])

/** The tools served: the SDK looks a called tool up in a plain object, where `constructor` is a tool, "disabled". */
const servedTools: ReadonlySet<string> = new Set(tools.map((tool) => tool.name))

const decodeToolName = Schema.decodeUnknownOption(Schema.Struct({ params: Schema.Struct({ name: Schema.String }) }))

const pathText = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined) =>
  (path ?? []).map((segment) => String(Predicate.isObject(segment) ? segment.key : segment)).join(".")

/** Why a request's params do not match its spec type or name no tool served, in one line; `None` when they fit. */
const paramsProblem = (method: string, message: unknown): Option.Option<string> => {
  const type = servedRequests.get(method)
  if (type === undefined) return Option.none()
  const result = specTypeSchemas[type]["~standard"].validate(message)
  if (result.issues !== undefined) {
    const issues = result.issues.map((issue) => `${pathText(issue.path)}: ${issue.message}`)
    return Option.some(`Invalid params for ${method}: ${issues.join("; ")}`)
  }
  if (method !== "tools/call") return Option.none()
  // The SDK's own answer for a tool it does not have.
  return Option.flatMap(decodeToolName(message), ({ params }) =>
    servedTools.has(params.name) ? Option.none() : Option.some(`Tool ${params.name} not found`)
  )
}

/** A batch (MCP removed JSON-RPC batching in 2025-06-18): one error per request in it, as JSON-RPC answers batches. */
const refuseBatch = (messages: ReadonlyArray<unknown>) => {
  const message = "Invalid Request: JSON-RPC batches are not supported; send one message per HTTP request"
  // A notification in the batch gets no answer; an item that is no request at all gets one with a null id.
  const ids = messages.flatMap((item): ReadonlyArray<JsonRpcId> =>
    Option.match(decodeEnvelope(item), { onNone: () => [null], onSome: ({ id }) => (id === undefined ? [] : [id]) })
  )
  const answers = ids.map((id) => ({ jsonrpc: "2.0", error: { code: JsonRpcCode.invalidRequest, message }, id }))
  return answers.length === 0
    ? refuse(400, JsonRpcCode.invalidRequest, message)
    : Effect.fail(new JsonRpcRefusal({ response: HttpServerResponse.jsonUnsafe(answers, { status: 400 }) }))
}

const readBody = (request: HttpServerRequest.HttpServerRequest) =>
  request.text.pipe(
    Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(maxMcpBodyBytes)),
    Effect.catchTag("HttpServerError", (error) =>
      isBodyTooLarge(error)
        ? refuse(
            413,
            JsonRpcCode.invalidRequest,
            `Invalid Request: the body is larger than ${maxMcpBodyBytes / 1024} KiB`
          )
        : refuse(400, JsonRpcCode.parseError, "Parse error: the body could not be read")
    )
  )

/**
 * Admits one JSON-RPC message posted to `/mcp` and returns its body for the SDK, or refuses it in JSON-RPC: a body
 * that is not JSON by type (415) or by content (-32700), is too large (413), is a batch, or is a request whose params
 * do not fit its method or call a tool not served (-32602). What the SDK answers correctly itself (unknown methods,
 * malformed envelopes, protocol versions) passes through.
 */
export const admitMessage = Effect.fnUntraced(function* (request: HttpServerRequest.HttpServerRequest) {
  if (!isJsonContentType(request.headers["content-type"])) {
    return yield* refuse(
      415,
      JsonRpcCode.invalidRequest,
      "Invalid Request: the body must be a JSON-RPC message (Content-Type: application/json)"
    )
  }
  const text = yield* readBody(request)
  const message = yield* decodeJson(text).pipe(
    Effect.catch(() => refuse(400, JsonRpcCode.parseError, "Parse error: the body is not valid JSON"))
  )
  if (Array.isArray(message)) return yield* refuseBatch(message)
  const envelope = decodeEnvelope(message)
  if (Option.isSome(envelope) && envelope.value.id !== undefined) {
    const problem = paramsProblem(envelope.value.method, message)
    if (Option.isSome(problem)) return yield* refuse(200, JsonRpcCode.invalidParams, problem.value, envelope.value.id)
  }
  return text
})
