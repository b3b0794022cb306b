import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/server"
import { type ContractFailure, issueMessage, TendersApi } from "@tenders/contract"
import {
  type AccountStore,
  authenticateMcpCaller,
  type CallContext,
  chargeCall,
  InvalidInput,
  type OAuthStore,
  type Quota,
  quotaOfRefusal
} from "@tenders/core"
import { Context, Effect, Option, Predicate, Schema } from "effect"
import { HttpApi } from "effect/http-api"
import type { Credential } from "./AuthInfo.ts"
import type { CallQuota } from "./CallQuota.ts"
import { toolDefect, toolFailure, toolSuccess } from "./ToolResult.ts"
import { contractJsonSchema, type JsonSchemaObject } from "./ToolSchema.ts"

/** A tool as the server registers it: advertised schemas and a call over the core ports `R`. */
export interface McpTool<R> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly annotations: ToolAnnotations
  readonly inputSchema: JsonSchemaObject
  readonly outputSchema: JsonSchemaObject
  /**
   * Counts the call, decodes `args`, runs the use case; every failure is an `isError` result. The quota the call
   * left (or its refusal) goes to `callQuota` when there is one.
   */
  readonly call: (
    credential: Credential,
    args: unknown,
    callQuota?: CallQuota
  ) => Effect.Effect<CallToolResult, never, R | AccountStore | OAuthStore>
}

/** A schema whose codec needs no services (the contract's request and response bodies). */
type PlainSchema = Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never }

/** REST decodes bodies with these options (excess properties refused, every issue reported). */
const parseOptions = Context.getOrUndefined(TendersApi.annotations, HttpApi.PayloadParseOptions)

/** Authorizes and counts a tool call, telling `callQuota` what the call left. */
const countCall = (credential: Credential, callQuota: CallQuota | undefined) => {
  const report = (quota: Quota) => Effect.sync(() => callQuota?.record(quota))
  return authenticateMcpCaller(credential.secret, credential.resource).pipe(
    Effect.flatMap((account) => chargeCall(account)),
    Effect.tap(report),
    Effect.tapErrorTag("QuotaExceeded", (error) =>
      Option.match(quotaOfRefusal(error), { onNone: () => Effect.void, onSome: report })
    )
  )
}

/**
 * Binds a tool to the contract: its JSON Schemas are generated from `input` and `output`, the very
 * schemas of the REST body and response, and its call runs auth -> quota -> decode -> use case ->
 * encode, as REST does.
 */
export const defineTool = <I extends PlainSchema, O extends PlainSchema, R>(spec: {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly annotations: ToolAnnotations
  readonly input: I
  readonly output: O
  readonly run: (input: I["Type"], caller: CallContext) => Effect.Effect<O["Type"], ContractFailure, R>
}): McpTool<R> => {
  const decode = Schema.decodeUnknownEffect(Schema.toCodecJson(spec.input))
  const encode = Schema.encodeEffect(Schema.toCodecJson(spec.output))
  const call = Effect.fn(`mcp.${spec.name}`)(
    function* (credential: Credential, args: unknown, callQuota?: CallQuota) {
      const caller = yield* countCall(credential, callQuota)
      const input = yield* decode(args, parseOptions).pipe(
        Effect.mapError((error) => new InvalidInput({ message: issueMessage(error) }))
      )
      const output = yield* spec.run(input, caller)
      const encoded = yield* Effect.orDie(encode(output))
      if (!Predicate.isObject(encoded))
        return yield* Effect.die(new Error(`${spec.name}: the response is not a JSON object`))
      return toolSuccess(encoded)
    },
    (effect) => Effect.catch(effect, (failure) => Effect.succeed(toolFailure(failure))),
    (effect) => Effect.catchCause(effect, (cause) => toolDefect(cause))
  )
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    annotations: spec.annotations,
    inputSchema: contractJsonSchema(spec.input),
    outputSchema: contractJsonSchema(spec.output),
    call
  }
}
