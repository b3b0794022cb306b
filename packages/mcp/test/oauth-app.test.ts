// The authorization server's own endpoints over in-memory ports: anonymous registration is limited per address;
// tokens are revoked by RFC 7009's endpoint.
import { assert, describe, it } from "@effect/vitest"
import {
  AccountStore,
  authenticateMcpCaller,
  ClientMetadataDocuments,
  OAuthSettings,
  oauthSettingsFor,
  registerClient,
  unusableMetadataDocument
} from "@tenders/core"
import { memoryStore } from "@tenders/core/testing"
import { ErrorMapping } from "@tenders/http"
import { Effect, Layer } from "effect"
import { OAuthApp, registrationsPerHour } from "../src/OAuthApp.ts"
import { authorizationCode, pkceExample } from "./support.ts"
import { webHandlerInTest } from "./webHandler.ts"

const makeOAuth = Effect.gen(function* () {
  const ports = yield* Layer.build(
    Layer.mergeAll(
      memoryStore,
      Layer.succeed(OAuthSettings, oauthSettingsFor(new URL("http://localhost"))),
      Layer.succeed(ClientMetadataDocuments, { fetch: () => Effect.fail(unusableMetadataDocument()) })
    )
  )
  // Served as `tenders serve` serves it: with the REST edge's body limit and error mapping around every route.
  const handler = yield* webHandlerInTest(
    Layer.mergeAll(OAuthApp, ErrorMapping).pipe(Layer.provide(Layer.succeedContext(ports)))
  )
  const send = (path: string, init: RequestInit = {}) =>
    Effect.promise(() => handler(new Request(`http://localhost${path}`, init)))
  const post = (path: string, body: string) =>
    send(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body })
  return { send, post, ports }
})

/** A status and the JSON body (null when empty). */
const answer = (response: Response) =>
  Effect.promise(async () => {
    const text = await response.text()
    return { status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) }
  })

describe("the OAuth endpoints", () => {
  it.effect("registers clients, then refuses an address that registers too many with 429 and Retry-After", () =>
    Effect.gen(function* () {
      const { send } = yield* makeOAuth
      const register = (name: string) =>
        send("/oauth/register", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ client_name: name, redirect_uris: ["https://agent.example/cb"] })
        })
      for (let i = 0; i < registrationsPerHour; i++) assert.strictEqual((yield* register(`Agent ${i}`)).status, 201)
      const refused = yield* register("One too many")
      assert.strictEqual(refused.status, 429)
      assert.isAtLeast(Number(refused.headers.get("retry-after")), 1)
      const body = (yield* Effect.promise(() => refused.json())) as { error: string }
      assert.strictEqual(body.error, "temporarily_unavailable")
    })
  )

  it.effect("refuses a token request with a parameter given twice; answers the metadata's preflight", () =>
    Effect.gen(function* () {
      const { send, post } = yield* makeOAuth
      const twice = yield* post("/oauth/token", "grant_type=refresh_token&client_id=a&refresh_token=x&refresh_token=y")
      assert.strictEqual(twice.status, 400)
      const body = (yield* Effect.promise(() => twice.json())) as { error: string; error_description: string }
      assert.deepStrictEqual(body, {
        error: "invalid_request",
        error_description: "refresh_token given more than once"
      })
      for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
        const preflight = yield* send(path, { method: "OPTIONS" })
        assert.strictEqual(preflight.status, 204, path)
        assert.strictEqual(preflight.headers.get("access-control-allow-origin"), "*")
      }
    })
  )

  it.effect("revokes a grant by its refresh token at /oauth/revoke (RFC 7009), and says 200 to any other token", () =>
    Effect.gen(function* () {
      const { send, post, ports } = yield* makeOAuth
      const onPorts = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, ports)
      const metadata = (yield* answer(yield* send("/.well-known/oauth-authorization-server"))).body as Record<
        string,
        unknown
      >
      assert.strictEqual(metadata["revocation_endpoint"], "http://localhost/oauth/revoke")
      assert.deepStrictEqual(metadata["revocation_endpoint_auth_methods_supported"], ["none"])

      const account = yield* onPorts(
        Effect.flatMap(AccountStore, (store) =>
          store.saveAccount({ email: "revoke@example.com", plan: "pro", monthlyLimit: null })
        )
      )
      const client = yield* onPorts(registerClient({ client_name: "App", redirect_uris: ["https://app.example/cb"] }))
      const connect = Effect.gen(function* () {
        const form = new URLSearchParams({
          grant_type: "authorization_code",
          code: yield* onPorts(authorizationCode(client.clientId, account.id)),
          client_id: client.clientId,
          code_verifier: pkceExample.verifier
        })
        const issued = yield* answer(yield* post("/oauth/token", form.toString()))
        assert.strictEqual(issued.status, 200)
        return issued.body as { access_token: string; refresh_token: string }
      })
      const works = (token: string) =>
        onPorts(
          Effect.match(authenticateMcpCaller(token, "http://localhost/mcp"), {
            onFailure: () => false,
            onSuccess: () => true
          })
        )
      const revoke = (form: Record<string, string>) => post("/oauth/revoke", new URLSearchParams(form).toString())

      const tokens = yield* connect
      // Another client's token: 200, and left alone.
      const foreign = yield* revoke({ token: tokens.refresh_token, client_id: "tc_another" })
      assert.deepStrictEqual(yield* answer(foreign), { status: 200, body: null })
      assert.isTrue(yield* works(tokens.access_token))
      const revoked = yield* revoke({
        token: tokens.refresh_token,
        token_type_hint: "refresh_token",
        client_id: client.clientId
      })
      assert.deepStrictEqual(yield* answer(revoked), { status: 200, body: null })
      assert.strictEqual(revoked.headers.get("cache-control"), "no-store")
      assert.strictEqual(revoked.headers.get("access-control-allow-origin"), "*")
      assert.isFalse(yield* works(tokens.access_token))
      const refreshed = yield* post(
        "/oauth/token",
        new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: tokens.refresh_token,
          client_id: client.clientId
        }).toString()
      )
      assert.strictEqual(((yield* answer(refreshed)).body as { error: string }).error, "invalid_grant")
      // Revoked already, unknown: 200 as well (RFC 7009 §2.2).
      for (const token of [tokens.refresh_token, "mcp_rt_unknown"]) {
        assert.strictEqual((yield* revoke({ token, client_id: client.clientId })).status, 200)
      }
      // By the access token.
      const second = yield* connect
      assert.strictEqual((yield* revoke({ token: second.access_token, client_id: client.clientId })).status, 200)
      assert.isFalse(yield* works(second.access_token))
    })
  )

  it.effect(
    "refuses a malformed revocation with 400 invalid_request, a large one with 413; answers its preflight",
    () =>
      Effect.gen(function* () {
        const { send, post } = yield* makeOAuth
        for (const body of [
          "client_id=a",
          "token=x",
          "token=x&token=y&client_id=a",
          "token=x&client_id=a&client_id=b",
          ""
        ]) {
          const refused = yield* answer(yield* post("/oauth/revoke", body))
          assert.strictEqual(refused.status, 400, body)
          assert.strictEqual((refused.body as { error: string }).error, "invalid_request", body)
        }
        const twice = yield* answer(yield* post("/oauth/revoke", "token=x&token=y&client_id=a"))
        assert.deepStrictEqual(twice.body, {
          error: "invalid_request",
          error_description: "token given more than once"
        })
        const large = yield* post("/oauth/revoke", `client_id=a&token=${"x".repeat(70 * 1024)}`)
        assert.deepStrictEqual(yield* answer(large), {
          status: 413,
          body: { error: "invalid_request", error_description: "the body is too large" }
        })
        const preflight = yield* send("/oauth/revoke", {
          method: "OPTIONS",
          headers: { origin: "https://inspector.example", "access-control-request-method": "POST" }
        })
        assert.strictEqual(preflight.status, 204)
        assert.strictEqual(preflight.headers.get("access-control-allow-origin"), "*")
        assert.include(preflight.headers.get("access-control-allow-methods") ?? "", "POST")
        assert.isNull(preflight.headers.get("access-control-allow-credentials"))
      })
  )
})
