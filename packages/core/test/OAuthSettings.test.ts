import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Duration, Effect, Exit } from "effect"
import { oauthSettingsConfig } from "../src/index.ts"

const publicUrl = new URL("https://tenders.example/")
const read = (env: Record<string, string>) =>
  Effect.exit(oauthSettingsConfig(publicUrl).parse(ConfigProvider.fromEnvRecord(env)))

describe("TENDERS_OAUTH_ACCESS_TTL", () => {
  it.effect("sets how long an access token works: 15 minutes unless set, more than 0 and at most a day", () =>
    Effect.gen(function* () {
      const unset = yield* read({})
      assert.isTrue(Exit.isSuccess(unset))
      if (Exit.isSuccess(unset)) {
        assert.isTrue(Duration.equals(unset.value.accessTokenTtl, Duration.minutes(15)))
        assert.strictEqual(unset.value.issuer, "https://tenders.example")
        assert.strictEqual(unset.value.resource, "https://tenders.example/mcp")
      }
      const short = yield* read({ TENDERS_OAUTH_ACCESS_TTL: "3 seconds" })
      assert.isTrue(Exit.isSuccess(short) && Duration.equals(short.value.accessTokenTtl, Duration.seconds(3)))
      for (const bad of ["0 seconds", "25 hours", "soon"]) {
        assert.isTrue(Exit.isFailure(yield* read({ TENDERS_OAUTH_ACCESS_TTL: bad })), bad)
      }
    })
  )
})
