import { type Plan, Rates, TenderStore, type TenderRecord } from "@tenders/core"
import {
  AccountStoreMemory,
  accountWithKey,
  AlertStoreEmpty,
  SourceStatusStoreEmpty,
  TenderStoreMemory,
  WatchlistStoreMemory,
  SearchTextSimple
} from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApp, routerConfig } from "../src/index.ts"

export interface CallOptions {
  readonly key?: string | undefined
  readonly body?: unknown
  readonly rawBody?: string
  readonly headers?: Record<string, string>
}

/** What a call answered: status, headers, the body as text and as JSON (undefined when it is not JSON). */
export interface CallResult {
  readonly status: number
  readonly headers: Headers
  readonly json: unknown
  readonly text: string
  /** The body's bytes as sent (gzip when the answer says `Content-Encoding: gzip`). */
  readonly bytes: Uint8Array
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * The real router over in-memory ports, driven through web Requests. `overrides` replaces ports or adds services
 * (e.g. a failing store, `WebhookAllowHosts`) the way the composition root provides them.
 */
export const makeTestApi = <A = never>(overrides?: Layer.Layer<A>) =>
  Effect.gen(function* () {
    const ports = yield* Layer.build(
      Layer.mergeAll(
        TenderStoreMemory,
        AccountStoreMemory,
        SourceStatusStoreEmpty,
        WatchlistStoreMemory,
        AlertStoreEmpty,
        Rates.bundled,
        SearchTextSimple,
        overrides ?? Layer.empty
      )
    )
    const { handler, dispose } = HttpRouter.toWebHandler(
      HttpApp.pipe(Layer.provide(Layer.succeedContext(ports)), Layer.provide(HttpServer.layerServices)),
      { disableLogger: true, routerConfig }
    )
    yield* Effect.addFinalizer(() => Effect.promise(dispose))
    /** The call as a Promise, for property tests that drive it from fast-check. */
    const fetchCall = async (method: string, path: string, options: CallOptions = {}): Promise<CallResult> => {
      const headers: Record<string, string> = { ...options.headers }
      if (options.key !== undefined) headers["authorization"] = `Bearer ${options.key}`
      let body: string | undefined = options.rawBody
      if (options.body !== undefined) {
        body = JSON.stringify(options.body)
        headers["content-type"] ??= "application/json"
      }
      const response = await handler(
        new Request(`http://localhost${path}`, { method, headers, ...(body === undefined ? {} : { body }) })
      )
      const bytes = new Uint8Array(await response.arrayBuffer())
      const text = new TextDecoder().decode(bytes)
      return { status: response.status, headers: response.headers, json: parseJson(text), text, bytes }
    }
    const call = (method: string, path: string, options: CallOptions = {}) =>
      Effect.promise(() => fetchCall(method, path, options))
    const createKey = (email: string, plan: Plan, kind: "rest" | "mcp" = "rest", monthlyLimit: number | null = null) =>
      accountWithKey(email, plan, kind, monthlyLimit).pipe(Effect.provide(ports))
    const seed = (records: ReadonlyArray<TenderRecord>) =>
      Effect.gen(function* () {
        const store = yield* TenderStore
        return yield* store.upsert(records)
      }).pipe(Effect.provide(ports))
    return { call, fetchCall, createKey, seed, ports }
  })

/** The `{ error: { code, message } }` of an error body. */
export const errorOf = (json: unknown) => (json as { error: { code: string; message: string } }).error
