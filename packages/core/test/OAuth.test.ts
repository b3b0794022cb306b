import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import {
  AccountStore,
  approveAuthorization,
  checkAuthorization,
  ClientMetadataDocuments,
  exchangeToken,
  OAuthError,
  OAuthSettings,
  oauthSettingsFor,
  pkceMatches,
  redirectUriProblem,
  registerClient
} from "../src/index.ts"
import { world } from "./support.ts"

const documents = Layer.succeed(ClientMetadataDocuments, {
  fetch: (url) =>
    url === "https://agent.example/client.json"
      ? Effect.succeed({ client_id: url, client_name: "Agent", redirect_uris: ["https://agent.example/cb"] })
      : url === "https://liar.example/client.json"
        ? Effect.succeed({ client_id: "https://other.example/client.json", redirect_uris: ["https://liar.example/cb"] })
        : Effect.fail(new OAuthError({ error: "invalid_client", description: "cannot fetch it" }))
})
const oauthWorld = Layer.mergeAll(
  world(),
  documents,
  Layer.succeed(OAuthSettings, oauthSettingsFor(new URL("https://tenders.example")))
)
const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" // RFC 7636, appendix B
const request = (client: string, extra: Record<string, string> = {}) => ({
  response_type: "code",
  client_id: client,
  redirect_uri: "https://agent.example/cb",
  code_challenge: challenge,
  code_challenge_method: "S256",
  state: "xyz",
  resource: "https://tenders.example/mcp",
  ...extra
})

describe("OAuth rules", () => {
  it.effect("PKCE S256: the verifier of RFC 7636's example matches its challenge, another does not", () =>
    Effect.gen(function* () {
      assert.isTrue(yield* pkceMatches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", challenge))
      assert.isFalse(yield* pkceMatches("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXl", challenge))
      assert.isFalse(yield* pkceMatches("short", challenge))
    })
  )

  it("accepts https, loopback http and private-scheme redirect URIs only", () => {
    assert.isUndefined(redirectUriProblem("https://claude.ai/api/mcp/auth_callback"))
    assert.isUndefined(redirectUriProblem("http://127.0.0.1:33418/callback"))
    assert.isUndefined(redirectUriProblem("com.example.app:/oauth"))
    assert.isDefined(redirectUriProblem("http://evil.example/cb"))
    assert.isDefined(redirectUriProblem("https://agent.example/cb#x"))
    assert.isDefined(redirectUriProblem("javascript:alert(1)"))
  })

  it.effect("registers public clients only, and checks their metadata", () =>
    Effect.gen(function* () {
      const ok = yield* registerClient({ client_name: "Agent", redirect_uris: ["https://agent.example/cb"] })
      assert.match(ok.clientId, /^tc_/u)
      const refused = (metadata: unknown) => Effect.map(Effect.flip(registerClient(metadata)), (e) => e.error)
      assert.strictEqual(yield* refused({ redirect_uris: [] }), "invalid_redirect_uri")
      assert.strictEqual(yield* refused({ redirect_uris: ["http://evil.example/cb"] }), "invalid_redirect_uri")
      assert.strictEqual(
        yield* refused({ redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "client_secret_basic" }),
        "invalid_client_metadata"
      )
      assert.strictEqual(
        yield* refused({ redirect_uris: ["https://a.example/cb"], grant_types: ["client_credentials"] }),
        "invalid_client_metadata"
      )
      assert.strictEqual(yield* refused("not an object"), "invalid_client_metadata")
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("a registration forgets the clients registered over 30 days before it that nobody authorized", () =>
    Effect.gen(function* () {
      const account = yield* (yield* AccountStore).saveAccount({
        email: "forget@example.com",
        plan: "pro",
        monthlyLimit: null
      })
      const unused = yield* registerClient({ client_name: "Unused", redirect_uris: ["https://agent.example/cb"] })
      const used = yield* registerClient({ client_name: "Used", redirect_uris: ["https://agent.example/cb"] })
      const checked = yield* checkAuthorization(request(used.clientId))
      assert.strictEqual(checked._tag, "Valid")
      if (checked._tag === "Valid") yield* approveAuthorization(checked.request, account.id)
      const known = (clientId: string) => Effect.map(checkAuthorization(request(clientId)), (c) => c._tag)
      yield* TestClock.adjust(Duration.days(30))
      yield* registerClient({ client_name: "Later", redirect_uris: ["https://later.example/cb"] })
      assert.strictEqual(yield* known(unused.clientId), "Valid") // 30 days old: not over 30
      yield* TestClock.adjust(Duration.seconds(1))
      yield* registerClient({ client_name: "Later", redirect_uris: ["https://later.example/cb"] })
      assert.strictEqual(yield* known(unused.clientId), "Invalid") // unknown client_id now
      assert.strictEqual(yield* known(used.clientId), "Valid")
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("checks an authorization request: shown, redirected with an error, or valid", () =>
    Effect.gen(function* () {
      const document = "https://agent.example/client.json"
      const valid = yield* checkAuthorization(request(document))
      assert.strictEqual(valid._tag, "Valid")
      if (valid._tag === "Valid") assert.strictEqual(valid.request.client.clientName, "Agent")
      // Never redirected: an unknown client, a document naming another id, a redirect URI not registered.
      assert.strictEqual((yield* checkAuthorization(request("nobody")))._tag, "Invalid")
      assert.strictEqual((yield* checkAuthorization(request("https://liar.example/client.json")))._tag, "Invalid")
      assert.strictEqual(
        (yield* checkAuthorization(request(document, { redirect_uri: "https://evil.example/cb" })))._tag,
        "Invalid"
      )
      // Redirected with an error: no PKCE, plain PKCE, another resource, another scope, another response type.
      const errorOf = (extra: Record<string, string>) =>
        Effect.map(checkAuthorization(request(document, extra)), (checked) =>
          checked._tag === "Redirect" ? new URL(checked.url).searchParams.get("error") : checked._tag
        )
      assert.strictEqual(yield* errorOf({ code_challenge_method: "plain" }), "invalid_request")
      assert.strictEqual(yield* errorOf({ code_challenge: "" }), "invalid_request")
      assert.strictEqual(yield* errorOf({ resource: "https://elsewhere.example/mcp" }), "invalid_target")
      assert.strictEqual(yield* errorOf({ scope: "admin" }), "invalid_scope")
      assert.strictEqual(yield* errorOf({ response_type: "token" }), "unsupported_response_type")
      const redirected = yield* checkAuthorization(request(document, { resource: "https://elsewhere.example/mcp" }))
      if (redirected._tag === "Redirect") {
        const url = new URL(redirected.url)
        assert.strictEqual(url.searchParams.get("state"), "xyz")
        assert.strictEqual(url.searchParams.get("iss"), "https://tenders.example")
      }
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("refuses parameters and metadata that are not text (NUL, a lone surrogate) as a client error", () =>
    Effect.gen(function* () {
      const document = "https://agent.example/client.json"
      const shown = yield* checkAuthorization(request(document, { state: "a\u0000b" }))
      assert.strictEqual(shown._tag, "Invalid")
      assert.strictEqual((yield* checkAuthorization(request("\u0000")))._tag, "Invalid")
      const tokenError = (form: Record<string, string>) => Effect.map(Effect.flip(exchangeToken(form)), (e) => e.error)
      const refresh = { grant_type: "refresh_token", client_id: "\u0000", refresh_token: "x" }
      assert.strictEqual(yield* tokenError(refresh), "invalid_request")
      assert.strictEqual(yield* tokenError({ ...refresh, client_id: "c", refresh_token: "\ud800" }), "invalid_request")
      const registered = (metadata: unknown) => Effect.map(Effect.flip(registerClient(metadata)), (e) => e.error)
      const uris = ["https://a.example/cb"]
      assert.strictEqual(yield* registered({ client_name: "a\u0000", redirect_uris: uris }), "invalid_client_metadata")
      assert.strictEqual(
        yield* registered({ redirect_uris: ["https://a.example/cb\u0000x"] }),
        "invalid_client_metadata"
      )
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("the token request names the redirect URI when the authorization request did, and may omit it else", () =>
    Effect.gen(function* () {
      const account = yield* (yield* AccountStore).saveAccount({
        email: "uri@example.com",
        plan: "pro",
        monthlyLimit: null
      })
      const client = yield* registerClient({ client_name: "One", redirect_uris: ["https://one.example/cb"] })
      const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk" // RFC 7636's example for `challenge`
      const codeFor = Effect.fnUntraced(function* (params: Record<string, string>) {
        const checked = yield* checkAuthorization(params)
        assert.strictEqual(checked._tag, "Valid")
        if (checked._tag !== "Valid") return ""
        return new URL(yield* approveAuthorization(checked.request, account.id)).searchParams.get("code") ?? ""
      })
      const base = request(client.clientId, { redirect_uri: "https://one.example/cb" })
      const token = (code: string, extra: Record<string, string> = {}) =>
        exchangeToken({
          grant_type: "authorization_code",
          code,
          client_id: client.clientId,
          code_verifier: verifier,
          ...extra
        })
      // Named at authorization: the token request must name it.
      const named = yield* Effect.flip(token(yield* codeFor(base)))
      assert.strictEqual(named.error, "invalid_grant")
      const ok = yield* token(yield* codeFor(base), { redirect_uri: "https://one.example/cb" })
      assert.match(ok.access_token, /^mcp_at_/u)
      // Left out at authorization (the client has one redirect URI): the token request may leave it out too.
      const { redirect_uri: _, ...withoutUri } = base
      const omitted = yield* token(yield* codeFor(withoutUri))
      assert.match(omitted.access_token, /^mcp_at_/u)
      // ...but if it names one, it must be the one.
      const wrong = yield* Effect.flip(token(yield* codeFor(withoutUri), { redirect_uri: "https://one.example/x" }))
      assert.strictEqual(wrong.error, "invalid_grant")
    }).pipe(Effect.provide(oauthWorld))
  )
})
