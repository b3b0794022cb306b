import { Client, StreamableHTTPClientTransport, type VersionNegotiationOptions } from "@modelcontextprotocol/client"
import { AccountStore, type OpenAlert, type Plan, Rates, TenderStore, type TenderRecord } from "@tenders/core"
import {
  AccountStoreMemory,
  accountWithKey,
  alertStoreWith,
  SourceStatusStoreEmpty,
  TenderStoreMemory,
  WatchlistStoreMemory
} from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { McpAllowedOrigins, McpApp } from "../src/index.ts"

export const endpoint = "http://localhost/mcp"

/** The result of a `tools/call`, as the client returns it. */
export type ToolResult = Awaited<ReturnType<Client["callTool"]>>

/** The `{ error: { code, message } }` body of a failed tool result. */
export const toolError = (result: ToolResult): { readonly code: string; readonly message: string } => {
  const structured = result.structuredContent
  if (result.isError !== true || typeof structured !== "object" || structured === null || !("error" in structured)) {
    throw new Error(`expected an error result, got ${JSON.stringify(result)}`)
  }
  const error = structured.error
  if (typeof error !== "object" || error === null || !("code" in error) || !("message" in error))
    throw new Error(`malformed error ${JSON.stringify(error)}`)
  return { code: String(error.code), message: String(error.message) }
}

/** The JSON in the single text content block of a result. */
export const textJson = (result: ToolResult): unknown => {
  const [first] = result.content
  if (result.content.length !== 1 || first?.type !== "text")
    throw new Error(`expected one text block, got ${JSON.stringify(result.content)}`)
  return JSON.parse(first.text)
}

/** The real `/mcp` route over in-memory ports, driven through web Requests by the official client. */
export const makeTestMcp = (
  options: { readonly alerts?: ReadonlyArray<OpenAlert>; readonly allowedOrigins?: ReadonlyArray<string> } = {}
) =>
  Effect.gen(function* () {
    const ports = yield* Layer.build(
      Layer.mergeAll(
        TenderStoreMemory,
        AccountStoreMemory,
        SourceStatusStoreEmpty,
        WatchlistStoreMemory,
        alertStoreWith(options.alerts ?? []),
        Rates.bundled
      )
    )
    const { handler, dispose } = HttpRouter.toWebHandler(
      McpApp.pipe(
        Layer.provide(Layer.succeedContext(ports)),
        Layer.provide(Layer.succeed(McpAllowedOrigins, options.allowedOrigins ?? [])),
        Layer.provide(HttpServer.layerServices)
      ),
      { disableLogger: true }
    )
    yield* Effect.addFinalizer(() => Effect.promise(dispose))
    const fetch = (input: string | URL | Request, init?: RequestInit) => handler(new Request(input, init))
    const connect = (key: string | undefined, versionNegotiation?: VersionNegotiationOptions) =>
      Effect.acquireRelease(
        Effect.promise(async () => {
          const client = new Client(
            { name: "tenders-test", version: "1.0.0" },
            versionNegotiation === undefined ? {} : { versionNegotiation }
          )
          const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` }
          await client.connect(
            new StreamableHTTPClientTransport(new URL(endpoint), { fetch, requestInit: { headers } })
          )
          return client
        }),
        (client) => Effect.promise(() => client.close())
      )
    /** Connecting fails; resolves with the error's text. */
    const connectError = (key: string | undefined) =>
      Effect.promise(async () => {
        const client = new Client({ name: "tenders-test", version: "1.0.0" })
        const headers: Record<string, string> = key === undefined ? {} : { authorization: `Bearer ${key}` }
        return client
          .connect(new StreamableHTTPClientTransport(new URL(endpoint), { fetch, requestInit: { headers } }))
          .then(
            () => client.close().then(() => "connected"),
            (error: unknown) => String(error)
          )
      })
    const createKey = (email: string, plan: Plan, kind: "rest" | "mcp" = "mcp", monthlyLimit: number | null = null) =>
      accountWithKey(email, plan, kind, monthlyLimit).pipe(Effect.provide(ports))
    const revoke = (keyId: string) =>
      Effect.gen(function* () {
        const store = yield* AccountStore
        return yield* store.revokeKey(keyId)
      }).pipe(Effect.provide(ports))
    const seed = (records: ReadonlyArray<TenderRecord>) =>
      Effect.gen(function* () {
        const store = yield* TenderStore
        return yield* store.upsert(records)
      }).pipe(Effect.provide(ports))
    const call = (client: Client, name: string, args: Record<string, unknown>) =>
      Effect.promise(() => client.callTool({ name, arguments: args }))
    return { fetch, connect, connectError, createKey, revoke, seed, call }
  })
