import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { clientAddressOf, trustedProxiesConfig } from "../src/index.ts"

const proxies = ["10.0.0.1", "10.0.0.2"]

describe("the address of a request's client", () => {
  it("is the connection's unless that is a trusted proxy; then the last forwarded address that is not one", () => {
    assert.strictEqual(clientAddressOf("192.0.2.7", "198.51.100.1", proxies), "192.0.2.7") // header not believed
    assert.strictEqual(clientAddressOf("10.0.0.1", "198.51.100.1", proxies), "198.51.100.1")
    assert.strictEqual(clientAddressOf("10.0.0.1", "203.0.113.9, 198.51.100.1, 10.0.0.2", proxies), "198.51.100.1")
    assert.strictEqual(clientAddressOf("10.0.0.1", "2001:db8::1", proxies), "2001:db8::1")
    assert.strictEqual(clientAddressOf("10.0.0.1", "not-an-address", proxies), "10.0.0.1")
    assert.strictEqual(clientAddressOf("10.0.0.1", undefined, proxies), "10.0.0.1")
    assert.strictEqual(clientAddressOf(undefined, "198.51.100.1", proxies), "unknown")
  })

  it.effect("TENDERS_TRUSTED_PROXIES: IP addresses separated by commas, none by default; anything else refused", () =>
    Effect.gen(function* () {
      const parse = (value?: string) =>
        trustedProxiesConfig.parse(
          ConfigProvider.fromEnvRecord(value === undefined ? {} : { TENDERS_TRUSTED_PROXIES: value })
        )
      assert.deepStrictEqual(yield* parse(), [])
      assert.deepStrictEqual(yield* parse(" 10.0.0.1, ::1 ,"), ["10.0.0.1", "::1"])
      const refused = yield* Effect.flip(parse("10.0.0.1, proxy.internal"))
      assert.include(String(refused), "proxy.internal is not an IP address")
    })
  )
})
