import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import { IpNetwork } from "effect/net"
import { trustedProxiesConfig } from "../src/index.ts"

describe("TENDERS_TRUSTED_PROXIES", () => {
  it.effect("IP addresses or CIDR networks separated by commas, none by default; anything else refused", () =>
    Effect.gen(function* () {
      const parse = (value?: string) =>
        trustedProxiesConfig.parse(
          ConfigProvider.fromEnvRecord(value === undefined ? {} : { TENDERS_TRUSTED_PROXIES: value })
        )
      assert.deepStrictEqual(yield* parse(), [])
      assert.deepStrictEqual((yield* parse(" 10.0.0.1, ::1 , 172.16.0.0/12,")).map(IpNetwork.format), [
        "10.0.0.1/32",
        "::1/128",
        "172.16.0.0/12"
      ])
      const refused = yield* Effect.flip(parse("10.0.0.1, proxy.internal"))
      assert.include(String(refused), "proxy.internal is not an IP address or a CIDR network")
    })
  )
})
