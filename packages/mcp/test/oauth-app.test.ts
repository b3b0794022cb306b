// The authorization server's own endpoints over in-memory ports: anonymous registration is limited per address.
import { assert, describe, it } from "@effect/vitest"
import { ClientMetadataDocuments, OAuthError, OAuthSettings, oauthSettingsFor } from "@tenders/core"
import { MemoryDb, OAuthStoreOnMemory } from "@tenders/core/testing"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { OAuthApp, registrationsPerHour } from "../src/OAuthApp.ts"

const makeOAuth = Effect.gen(function* () {
  const ports = yield* Layer.build(
    Layer.mergeAll(
      OAuthStoreOnMemory.pipe(Layer.provide(MemoryDb.layer)),
      Layer.succeed(OAuthSettings, oauthSettingsFor(new URL("http://localhost"))),
      Layer.succeed(ClientMetadataDocuments, {
        fetch: () => Effect.fail(new OAuthError({ error: "invalid_client", description: "no documents here" }))
      })
    )
  )
  const { handler, dispose } = HttpRouter.toWebHandler(
    OAuthApp.pipe(Layer.provide(Layer.succeedContext(ports)), Layer.provide(HttpServer.layerServices)),
    { disableLogger: true }
  )
  yield* Effect.addFinalizer(() => Effect.promise(dispose))
  return handler
})

describe("the OAuth endpoints", () => {
  it.live("registers clients, then refuses an address that registers too many with 429 and Retry-After", () =>
    Effect.gen(function* () {
      const handler = yield* makeOAuth
      const register = (name: string) =>
        Effect.promise(() =>
          handler(
            new Request("http://localhost/oauth/register", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ client_name: name, redirect_uris: ["https://agent.example/cb"] })
            })
          )
        )
      for (let i = 0; i < registrationsPerHour; i++) assert.strictEqual((yield* register(`Agent ${i}`)).status, 201)
      const refused = yield* register("One too many")
      assert.strictEqual(refused.status, 429)
      assert.isAtLeast(Number(refused.headers.get("retry-after")), 1)
      const body = (yield* Effect.promise(() => refused.json())) as { error: string }
      assert.strictEqual(body.error, "temporarily_unavailable")
    })
  )

  it.live("refuses a token request with a parameter given twice; answers the metadata's preflight", () =>
    Effect.gen(function* () {
      const handler = yield* makeOAuth
      const twice = yield* Effect.promise(() =>
        handler(
          new Request("http://localhost/oauth/token", {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded" },
            body: "grant_type=refresh_token&client_id=a&refresh_token=x&refresh_token=y"
          })
        )
      )
      assert.strictEqual(twice.status, 400)
      const body = (yield* Effect.promise(() => twice.json())) as { error: string; error_description: string }
      assert.deepStrictEqual(body, {
        error: "invalid_request",
        error_description: "refresh_token given more than once"
      })
      for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
        const preflight = yield* Effect.promise(() =>
          handler(new Request(`http://localhost${path}`, { method: "OPTIONS" }))
        )
        assert.strictEqual(preflight.status, 204, path)
        assert.strictEqual(preflight.headers.get("access-control-allow-origin"), "*")
      }
    })
  )
})
