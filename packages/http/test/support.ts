import { type Plan, Rates, TenderStore, type TenderRecord } from "@tenders/core"
import {
  AccountStoreMemory,
  accountWithKey,
  AlertStoreEmpty,
  SourceStatusStoreEmpty,
  TenderStoreMemory,
  WatchlistStoreMemory
} from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApp } from "../src/index.ts"

export interface CallOptions {
  readonly key?: string | undefined
  readonly body?: unknown
  readonly rawBody?: string
  readonly headers?: Record<string, string>
}

/** The real router over in-memory ports, driven through web Requests. */
export const makeTestApi = Effect.gen(function* () {
  const ports = yield* Layer.build(
    Layer.mergeAll(
      TenderStoreMemory,
      AccountStoreMemory,
      SourceStatusStoreEmpty,
      WatchlistStoreMemory,
      AlertStoreEmpty,
      Rates.bundled
    )
  )
  const { handler, dispose } = HttpRouter.toWebHandler(
    HttpApp.pipe(Layer.provide(Layer.succeedContext(ports)), Layer.provide(HttpServer.layerServices)),
    { disableLogger: true }
  )
  yield* Effect.addFinalizer(() => Effect.promise(dispose))
  const call = (method: string, path: string, options: CallOptions = {}) =>
    Effect.promise(async () => {
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
      const text = await response.text()
      let json: unknown = undefined
      try {
        json = JSON.parse(text)
      } catch {
        json = undefined
      }
      return { status: response.status, headers: response.headers, json, text }
    })
  const createKey = (email: string, plan: Plan, kind: "rest" | "mcp" = "rest", monthlyLimit: number | null = null) =>
    accountWithKey(email, plan, kind, monthlyLimit).pipe(Effect.provide(ports))
  const seed = (records: ReadonlyArray<TenderRecord>) =>
    Effect.gen(function* () {
      const store = yield* TenderStore
      return yield* store.upsert(records)
    }).pipe(Effect.provide(ports))
  return { call, createKey, seed, ports }
})
