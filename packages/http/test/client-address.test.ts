import { assert, describe, it } from "@effect/vitest"
import { trustedProxiesConfig } from "@tenders/core"
import { ConfigProvider, Effect, Option } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { clientAddressMiddleware } from "../src/index.ts"

/** The client address a route sees behind `clientAddressMiddleware` with `TENDERS_TRUSTED_PROXIES=proxies`. */
const clientOf = (proxies: string, connection: string | undefined, forwardedFor?: string) =>
  Effect.gen(function* () {
    const trusted = yield* trustedProxiesConfig.parse(
      ConfigProvider.fromEnvRecord({ TENDERS_TRUSTED_PROXIES: proxies })
    )
    const route = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
      HttpServerResponse.text(Option.getOrElse(request.remoteAddress, () => "unknown"))
    )
    const headers: Record<string, string> = forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor }
    const request = HttpServerRequest.fromWeb(new Request("http://localhost/", { headers })).modify({
      remoteAddress: Option.fromUndefinedOr(connection)
    })
    const response = yield* clientAddressMiddleware(trusted)(route).pipe(
      Effect.provideService(HttpServerRequest.HttpServerRequest, request)
    )
    return yield* Effect.promise(() => HttpServerResponse.toWeb(response).text())
  })

describe("the address of a request's client, for the limits per client", () => {
  it.effect("is the connection's unless that is a trusted proxy; then the last forwarded address that is not one", () =>
    Effect.gen(function* () {
      const proxies = "10.0.0.1, 10.0.0.2"
      assert.strictEqual(yield* clientOf(proxies, "192.0.2.7", "198.51.100.1"), "192.0.2.7") // header not believed
      assert.strictEqual(yield* clientOf(proxies, "10.0.0.1", "198.51.100.1"), "198.51.100.1")
      assert.strictEqual(yield* clientOf(proxies, "10.0.0.1", "203.0.113.9, 198.51.100.1, 10.0.0.2"), "198.51.100.1")
      assert.strictEqual(yield* clientOf(proxies, "10.0.0.1", "2001:db8::1"), "2001:db8::1")
      assert.strictEqual(yield* clientOf(proxies, "10.0.0.1", "not-an-address"), "10.0.0.1")
      assert.strictEqual(yield* clientOf(proxies, "10.0.0.1"), "10.0.0.1")
      assert.strictEqual(yield* clientOf("", "10.0.0.1", "198.51.100.1"), "10.0.0.1") // no proxy trusted
      // A network of proxies, as load balancers have.
      assert.strictEqual(yield* clientOf("10.0.0.0/8", "10.3.2.1", "198.51.100.9, 10.9.9.9"), "198.51.100.9")
    })
  )
})
