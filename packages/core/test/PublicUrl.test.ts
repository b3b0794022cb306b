import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit } from "effect"
import { publicUrlConfig } from "../src/index.ts"

const parse = (value: string) =>
  Effect.exit(
    publicUrlConfig("http://localhost:8080").parse(ConfigProvider.fromEnvRecord({ TENDERS_PUBLIC_URL: value }))
  )

describe("TENDERS_PUBLIC_URL", () => {
  it.effect("is an http(s) URL of a host name or an IP address, the only source of the links the server makes", () =>
    Effect.gen(function* () {
      for (const good of [
        "https://tenders.example.org",
        "http://localhost:8080",
        "http://127.0.0.1:3000/t",
        "http://[::1]:8080"
      ]) {
        assert.isTrue(Exit.isSuccess(yield* parse(good)), good)
      }
      for (const bad of [
        "https://a;sandbox/",
        "https://a,b.example/",
        "https://*/",
        "https:///x",
        "https://x.example/?q=1",
        "ftp://x.example/"
      ]) {
        assert.isTrue(Exit.isFailure(yield* parse(bad)), bad)
      }
    })
  )
})
