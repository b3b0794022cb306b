import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import {
  createTendersClient,
  type ErrorCode,
  isTendersApiError,
  TendersApiError,
  TendersError,
  TendersNetworkError,
  TendersResponseError
} from "../src/index.ts"
import { errorBody, hangUp, json, type Reply, silence, startFakeServer } from "./fakeServer.ts"
import { alert, card, fullTender, health } from "./fixtures.ts"

let server: Awaited<ReturnType<typeof startFakeServer>>
beforeAll(async () => {
  server = await startFakeServer()
})
afterAll(() => server.close())
beforeEach(() => server.reset())

const key = "sk_live_0123456789abcdefghijABCDEFGHIJ01"
const client = (options: { maxRetries?: number } = {}) =>
  createTendersClient({ baseUrl: server.base, apiKey: key, retryDelayMs: 1, ...options })

const rejection = async (promise: Promise<unknown>): Promise<unknown> => {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error("expected the call to fail")
}

describe("promise client: typed results", () => {
  it("searches with the bearer key and a JSON body and returns the decoded response, budgets as strings", async () => {
    server.reply(json(200, { results: [card], hint: "Only 1 open tender matches." }))
    const response = await client().searchTenders({ q: "road", countries: ["FR"], limit: 5 })
    expect(response.results[0]?.id).toBe("ted-479730-2026")
    expect(response.results[0]?.budget).toBe("1250000.50")
    expect(response.hint).toBe("Only 1 open tender matches.")
    const [request] = server.requests
    expect(request?.method).toBe("POST")
    expect(request?.path).toBe("/v1/tenders/search")
    expect(request?.headers.authorization).toBe(`Bearer ${key}`)
    expect(JSON.parse(request?.body ?? "")).toEqual({ q: "road", countries: ["FR"], limit: 5 })
  })

  it("gets a full tender, creates a watchlist (201), lists alerts and reads health without a key", async () => {
    server.reply(
      json(200, fullTender),
      json(201, { watchlistId: alert.watchlistId, estimatedMatches: 12 }),
      json(200, { alerts: [alert] }),
      json(200, health)
    )
    const c = client()
    expect(await c.getTender("ted-479730-2026")).toEqual(fullTender)
    expect(await c.createWatchlist({ name: "Roads", filters: { q: "road" } })).toEqual({
      watchlistId: alert.watchlistId,
      estimatedMatches: 12
    })
    expect((await c.listAlerts()).alerts[0]?.tender.id).toBe(card.id)
    expect((await createTendersClient({ baseUrl: server.base }).health()).status).toBe("degraded")
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      "GET /v1/tenders/ted-479730-2026",
      "POST /v1/watchlists",
      "GET /v1/alerts",
      "GET /health"
    ])
    expect(server.requests[3]?.headers.authorization).toBeUndefined()
  })
})

describe("promise client: errors", () => {
  const cases: ReadonlyArray<readonly [number, ErrorCode]> = [
    [400, "invalid_input"],
    [401, "unauthorized"],
    [403, "plan_required"],
    [403, "limit_reached"],
    [404, "not_found"],
    [429, "quota_exceeded"],
    [500, "internal"]
  ]
  for (const [status, code] of cases) {
    it(`throws TendersApiError with code ${code} and status ${status}`, async () => {
      server.reply(errorBody(status, code, `server says ${code}`))
      const error = await rejection(client({ maxRetries: 0 }).getTender("ted-1"))
      expect(error).toBeInstanceOf(TendersApiError)
      expect(error).toBeInstanceOf(TendersError)
      expect(isTendersApiError(error, code)).toBe(true)
      if (!isTendersApiError(error)) return
      expect(error.code).toBe(code)
      expect(error.status).toBe(status)
      expect(error.message).toBe(`server says ${code}`)
      expect(server.requests).toHaveLength(1)
    })
  }

  it("narrows by code: isTendersApiError with other codes is false", async () => {
    server.reply(errorBody(403, "limit_reached", "50 watchlists"))
    const error = await rejection(client().createWatchlist({ name: "x", filters: { q: "road" } }))
    expect(isTendersApiError(error, "plan_required")).toBe(false)
    expect(isTendersApiError(error, "plan_required", "limit_reached")).toBe(true)
  })

  it("refuses input the contract rejects before sending it, as invalid_input in the server's words", async () => {
    const limit = await rejection(client().searchTenders({ q: "road", limit: 50 }))
    expect(isTendersApiError(limit, "invalid_input") && limit.message).toBe(
      "Invalid request: limit: Expected a value between 1 and 20"
    )
    const typo = await rejection(client().searchTenders(JSON.parse('{"q":"road","country":["FR"]}')))
    expect(isTendersApiError(typo, "invalid_input") && typo.message).toMatch(/country.*countries/u)
    expect(server.requests).toHaveLength(0)
  })

  it("reads the contract error body even on a status the endpoint does not declare", async () => {
    server.reply(errorBody(404, "not_found", "Unknown path"))
    const error = await rejection(client().searchTenders({ q: "road" }))
    expect(isTendersApiError(error, "not_found")).toBe(true)
  })

  it("throws TendersResponseError for an answer outside the contract", async () => {
    server.reply(
      (res) => {
        res.writeHead(502, { "content-type": "text/html" })
        res.end("<h1>Bad gateway</h1>")
      },
      json(200, { results: "nope" })
    )
    const gateway = await rejection(client({ maxRetries: 0 }).searchTenders({ q: "road" }))
    expect(gateway).toBeInstanceOf(TendersResponseError)
    expect(gateway instanceof TendersResponseError && gateway.status).toBe(502)
    const shape = await rejection(client({ maxRetries: 0 }).searchTenders({ q: "road" }))
    expect(shape).toBeInstanceOf(TendersResponseError)
  })
})

describe("promise client: retries", () => {
  it("retries a 503 and returns the later success", async () => {
    server.reply(errorBody(503, "internal", "restarting"), json(200, { results: [card] }))
    expect((await client().searchTenders({ q: "road" })).results).toHaveLength(1)
    expect(server.requests).toHaveLength(2)
  })

  it("retries a 429 whose Retry-After is short (the wait is proven on the TestClock in retry.test.ts)", async () => {
    server.reply(errorBody(429, "quota_exceeded", "slow down", { "retry-after": "0" }), json(200, { alerts: [] }))
    expect(await client().listAlerts()).toEqual({ alerts: [] })
    expect(server.requests).toHaveLength(2)
  })

  it("raises a 429 whose Retry-After is an hour at once, with retryAfter", async () => {
    const quota: Reply = errorBody(429, "quota_exceeded", "Monthly limit reached; buy a $5 pack", {
      "retry-after": "3600"
    })
    server.reply(quota, quota)
    const error = await rejection(client().searchTenders({ q: "road" }))
    expect(isTendersApiError(error, "quota_exceeded")).toBe(true)
    expect(isTendersApiError(error) && error.retryAfter).toBe(3600)
    expect(server.requests).toHaveLength(1)
  })

  it("retries a dropped connection and returns the later success", async () => {
    server.reply(hangUp, hangUp, json(200, health))
    expect((await client().health()).sources).toHaveLength(3)
    expect(server.requests).toHaveLength(3)
  })

  it("throws TendersNetworkError when every attempt loses the connection", async () => {
    server.reply(hangUp, hangUp, hangUp)
    const error = await rejection(client({ maxRetries: 2 }).health())
    expect(error).toBeInstanceOf(TendersNetworkError)
    expect(server.requests).toHaveLength(3)
  })

  it("throws TendersNetworkError for an attempt without response headers within timeoutMs", async () => {
    server.reply(silence)
    const error = await rejection(createTendersClient({ baseUrl: server.base, timeoutMs: 50, maxRetries: 0 }).health())
    expect(error).toBeInstanceOf(TendersNetworkError)
    expect(error instanceof Error && error.message).toMatch(/no response within 50ms/u)
    expect(server.requests).toHaveLength(1)
  })

  it("gives up on 500 after maxRetries and throws internal", async () => {
    const fault = errorBody(500, "internal", "boom")
    server.reply(fault, fault, fault)
    const error = await rejection(client({ maxRetries: 2 }).getTender("ted-1"))
    expect(isTendersApiError(error, "internal")).toBe(true)
    expect(server.requests).toHaveLength(3)
  })

  it("does not replay watchlist creation after a 500 (it may have been created), but does after a 503", async () => {
    server.reply(errorBody(500, "internal", "boom"), json(201, { watchlistId: alert.watchlistId, estimatedMatches: 1 }))
    const error = await rejection(client().createWatchlist({ name: "Roads", filters: { q: "road" } }))
    expect(isTendersApiError(error, "internal")).toBe(true)
    expect(server.requests).toHaveLength(1)
    server.reset()
    server.reply(
      errorBody(503, "internal", "restarting"),
      json(201, { watchlistId: alert.watchlistId, estimatedMatches: 1 })
    )
    expect((await client().createWatchlist({ name: "Roads", filters: { q: "road" } })).estimatedMatches).toBe(1)
    expect(server.requests).toHaveLength(2)
  })
})

describe("promise client: abort", () => {
  it("rejects with an AbortError when the signal aborts a call in flight", async () => {
    server.reply(silence)
    const controller = new AbortController()
    const pending = client().searchTenders({ q: "road" }, { signal: controller.signal })
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    const error = await rejection(pending)
    expect(error).toBeInstanceOf(DOMException)
    expect(error instanceof DOMException && error.name).toBe("AbortError")
  })

  it("rejects at once with the signal's reason when it is already aborted, sending nothing", async () => {
    const reason = new Error("user left the page")
    const error = await rejection(client().health({ signal: AbortSignal.abort(reason) }))
    expect(error).toBe(reason)
    expect(server.requests).toHaveLength(0)
  })

  it("stops waiting between retries when aborted", async () => {
    server.reply(errorBody(503, "internal", "restarting"), json(200, health))
    const controller = new AbortController()
    const pending = createTendersClient({ baseUrl: server.base, retryDelayMs: 60_000 }).health({
      signal: controller.signal
    })
    while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve))
    controller.abort()
    const error = await rejection(pending)
    expect(error instanceof DOMException && error.name).toBe("AbortError")
    expect(server.requests).toHaveLength(1)
  })
})
