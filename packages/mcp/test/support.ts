import { Client, StreamableHTTPClientTransport, type VersionNegotiationOptions } from "@modelcontextprotocol/client"
import { assert } from "@effect/vitest"
import {
  type AccountId,
  AccountStore,
  approveAuthorization,
  checkAuthorization,
  ClientMetadataDocuments,
  exchangeToken,
  type KeyId,
  type OpenAlert,
  type Plan,
  OAuthSettings,
  oauthSettingsFor,
  Rates,
  registerClient,
  type SourceStatusStore,
  TenderStore,
  type TenderRecord,
  unusableMetadataDocument
} from "@tenders/core"
import {
  AccountStoreOnMemory,
  accountWithKey,
  alertStoreWith,
  SourceStatusStoreEmpty,
  TenderStoreMemory,
  MemoryDb,
  OAuthStoreOnMemory,
  WatchlistStoreMemory,
  SearchTextSimple
} from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { UrlParams } from "effect/http"
import { HttpApp, routerConfig } from "@tenders/http"
import { McpAllowedOrigins, McpApp } from "../src/index.ts"
import { webHandlerInTest } from "./webHandler.ts"

export const endpoint = "http://localhost/mcp"

/** What `/mcp` answered a raw post: status, headers and the JSON body (null when empty). */
export interface RawAnswer {
  readonly status: number
  readonly headers: Headers
  readonly json: unknown
}

/** The per-request envelope a 2026-07-28 client puts in `params._meta`. */
const modernEnvelope = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
  "io.modelcontextprotocol/clientCapabilities": {}
}

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

/** RFC 7636's example (appendix B): an S256 challenge and its verifier. */
export const pkceExample = {
  challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
  verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
}

/** The code a registered client gets once `account` allowed its request (PKCE S256, `pkceExample`). */
export const authorizationCode = Effect.fnUntraced(function* (clientId: string, account: AccountId) {
  const checked = yield* checkAuthorization(
    UrlParams.fromInput({
      response_type: "code",
      client_id: clientId,
      code_challenge: pkceExample.challenge,
      code_challenge_method: "S256"
    }),
    account
  )
  if (checked._tag !== "Valid") return assert.fail(checked._tag)
  return new URL(yield* approveAuthorization(checked.request, account)).searchParams.get("code") ?? ""
})

/** The real `/mcp` route over in-memory ports, driven through web Requests (and by the official client). */
export const makeTestMcp = (
  options: {
    readonly alerts?: ReadonlyArray<OpenAlert>
    readonly allowedOrigins?: ReadonlyArray<string>
    /** Replaces ports, e.g. with a failing store. */
    readonly overrides?: Layer.Layer<SourceStatusStore> | Layer.Layer<AccountStore>
  } = {}
) =>
  Effect.gen(function* () {
    const ports = yield* Layer.build(
      Layer.mergeAll(
        TenderStoreMemory,
        Layer.mergeAll(AccountStoreOnMemory, OAuthStoreOnMemory).pipe(Layer.provide(MemoryDb.layer)),
        Layer.succeed(OAuthSettings, oauthSettingsFor(new URL("http://localhost"))),
        Layer.succeed(ClientMetadataDocuments, { fetch: () => Effect.fail(unusableMetadataDocument()) }),
        SourceStatusStoreEmpty,
        WatchlistStoreMemory,
        alertStoreWith(options.alerts ?? []),
        Rates.bundled,
        SearchTextSimple,
        options.overrides ?? Layer.empty
      )
    )
    // Served as `tenders serve` serves it: next to the REST routes, whose router-level error mapping sees /mcp too.
    const handler = yield* webHandlerInTest(
      Layer.mergeAll(
        HttpApp,
        McpApp.pipe(Layer.provide(Layer.succeed(McpAllowedOrigins, options.allowedOrigins ?? [])))
      ).pipe(Layer.provide(Layer.succeedContext(ports))),
      routerConfig
    )
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
    const revoke = (keyId: KeyId) =>
      Effect.gen(function* () {
        const store = yield* AccountStore
        return yield* store.revokeKey(keyId)
      }).pipe(Effect.provide(ports))
    /** An OAuth access token for a new account, as a registered client gets it: consent, then the code exchanged. */
    const oauthToken = (email: string) =>
      Effect.gen(function* () {
        const account = yield* (yield* AccountStore).saveAccount({ email, plan: "pro", monthlyLimit: null })
        const client = yield* registerClient({ client_name: "Agent", redirect_uris: ["https://agent.example/cb"] })
        const code = yield* authorizationCode(client.clientId, account.id)
        const tokens = yield* exchangeToken(
          UrlParams.fromInput({
            grant_type: "authorization_code",
            code,
            client_id: client.clientId,
            code_verifier: pkceExample.verifier
          })
        )
        return { token: tokens.access_token, lifetime: (yield* OAuthSettings).accessTokenTtl }
      }).pipe(Effect.orDie, Effect.provide(ports))
    const seed = (records: ReadonlyArray<TenderRecord>) =>
      Effect.gen(function* () {
        const store = yield* TenderStore
        return yield* store.upsert(records)
      }).pipe(Effect.provide(ports))
    const call = (client: Client, name: string, args: Record<string, unknown>) =>
      Effect.promise(() => client.callTool({ name, arguments: args }))
    /** Posts one raw body to /mcp as a 2025-06-18 client would (JSON unless `contentType` says otherwise). */
    const post = (key: string | undefined, body: unknown, contentType = "application/json") =>
      Effect.promise(async (): Promise<RawAnswer> => {
        const response = await fetch(endpoint, {
          method: "POST",
          headers: {
            "content-type": contentType,
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2025-06-18",
            ...(key === undefined ? {} : { authorization: `Bearer ${key}` })
          },
          body: typeof body === "string" ? body : JSON.stringify(body)
        })
        const text = await response.text()
        return { status: response.status, headers: response.headers, json: text.length > 0 ? JSON.parse(text) : null }
      })
    /**
     * Posts one JSON-RPC message as a 2026-07-28 client would: the `_meta` envelope in its params, its method (and a
     * called tool's name) in the `Mcp-Method` (and `Mcp-Name`) headers.
     */
    const postModern = (
      key: string,
      message: { readonly method: string; readonly id?: number; readonly params?: object }
    ) =>
      Effect.promise(async (): Promise<RawAnswer> => {
        const params = { ...message.params, _meta: modernEnvelope }
        const name = "name" in params && typeof params.name === "string" ? { "mcp-name": params.name } : {}
        const response = await fetch(endpoint, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "mcp-protocol-version": "2026-07-28",
            "mcp-method": message.method,
            ...name,
            authorization: `Bearer ${key}`
          },
          body: JSON.stringify({ jsonrpc: "2.0", ...message, params })
        })
        const text = await response.text()
        return { status: response.status, headers: response.headers, json: text.length > 0 ? JSON.parse(text) : null }
      })
    return { fetch, connect, connectError, createKey, oauthToken, revoke, seed, call, post, postModern }
  })
