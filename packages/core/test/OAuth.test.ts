import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { UrlParams } from "effect/http"
import { TestClock } from "effect/testing"
import {
  AccountId,
  AccountStore,
  approveAuthorization,
  AuthorizationCheck,
  authenticateMcpCaller,
  checkAuthorization,
  ClientMetadataDocuments,
  exchangeToken,
  isMetadataDocumentId,
  OAuthError,
  OAuthSettings,
  oauthSettingsFor,
  pkceMatches,
  redirectUriProblem,
  registerClient,
  revokeToken,
  unusableMetadataDocument
} from "../src/index.ts"
import { world } from "./support.ts"

/** The documents fetched, with the account each was fetched for. */
const fetched: Array<readonly [string, AccountId]> = []
const documents = Layer.succeed(ClientMetadataDocuments, {
  fetch: (url, account) => {
    fetched.push([url, account])
    return url === "https://agent.example/client.json"
      ? Effect.succeed({ client_id: url, client_name: "Agent", redirect_uris: ["https://agent.example/cb"] })
      : url === "https://liar.example/client.json"
        ? Effect.succeed({ client_id: "https://other.example/client.json", redirect_uris: ["https://liar.example/cb"] })
        : url === "https://bidi.example/client.json"
          ? Effect.succeed({
              client_id: url,
              client_name: "Agent\u202Eexample.com",
              redirect_uris: ["https://bidi.example/cb"]
            })
          : url === "https://sandbox.example/client.json"
            ? Effect.succeed({ client_id: url, client_name: "Sandbox", redirect_uris: ["https://a;sandbox/cb"] })
            : url === "https://busy.example/client.json"
              ? Effect.fail(
                  new OAuthError({ error: "temporarily_unavailable", description: "too many", retryAfter: 60 })
                )
              : Effect.fail(unusableMetadataDocument())
  }
})
const oauthWorld = Layer.mergeAll(
  world(),
  documents,
  Layer.succeed(OAuthSettings, oauthSettingsFor(new URL("https://tenders.example")))
)
const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" // RFC 7636, appendix B
const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk" // RFC 7636's example for `challenge`
const someone = AccountId.make("00000000-0000-4000-8000-00000000000a")
/** Checks an authorization request given as a query, for `account`. */
const check = (params: Record<string, string>, account: AccountId = someone) =>
  checkAuthorization(UrlParams.fromInput(params), account)
/** Sends a token request's form. */
const exchange = (form: Record<string, string>) => exchangeToken(UrlParams.fromInput(form))
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
/** A new account on the Pro plan. */
const proAccount = (email: string) =>
  Effect.flatMap(AccountStore, (store) => store.saveAccount({ email, plan: "pro", monthlyLimit: null }))
/** Tokens for a client, as `account` allowed its request to `redirectUri`: the code, exchanged with its verifier. */
const tokensFor = Effect.fnUntraced(function* (clientId: string, redirectUri: string, account: AccountId) {
  const checked = yield* check(request(clientId, { redirect_uri: redirectUri }))
  if (checked._tag !== "Valid") return assert.fail(checked._tag)
  const code = new URL(yield* approveAuthorization(checked.request, account)).searchParams.get("code") ?? ""
  return yield* exchange({
    grant_type: "authorization_code",
    code,
    client_id: clientId,
    code_verifier: verifier,
    redirect_uri: redirectUri
  })
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
      const account = yield* proAccount("forget@example.com")
      const unused = yield* registerClient({ client_name: "Unused", redirect_uris: ["https://agent.example/cb"] })
      const used = yield* registerClient({ client_name: "Used", redirect_uris: ["https://agent.example/cb"] })
      const checked = yield* check(request(used.clientId))
      assert.strictEqual(checked._tag, "Valid")
      if (checked._tag === "Valid") yield* approveAuthorization(checked.request, account.id)
      const known = (clientId: string) => Effect.map(check(request(clientId)), (c) => c._tag)
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
      const valid = yield* check(request(document))
      assert.strictEqual(valid._tag, "Valid")
      if (valid._tag === "Valid") assert.strictEqual(valid.request.client.clientName, "Agent")
      // Never redirected: an unknown client, a document naming another id, a redirect URI not registered.
      assert.strictEqual((yield* check(request("nobody")))._tag, "Invalid")
      assert.strictEqual((yield* check(request("https://liar.example/client.json")))._tag, "Invalid")
      assert.strictEqual((yield* check(request(document, { redirect_uri: "https://evil.example/cb" })))._tag, "Invalid")
      // Redirected with an error: no PKCE, plain PKCE, another resource, another scope, another response type.
      const errorOf = (extra: Record<string, string>) =>
        Effect.map(check(request(document, extra)), (checked) =>
          checked._tag === "Redirect" ? new URL(checked.url).searchParams.get("error") : checked._tag
        )
      assert.strictEqual(yield* errorOf({ code_challenge_method: "plain" }), "invalid_request")
      assert.strictEqual(yield* errorOf({ code_challenge: "" }), "invalid_request")
      assert.strictEqual(yield* errorOf({ resource: "https://elsewhere.example/mcp" }), "invalid_target")
      assert.strictEqual(yield* errorOf({ scope: "admin" }), "invalid_scope")
      assert.strictEqual(yield* errorOf({ response_type: "token" }), "unsupported_response_type")
      const redirected = yield* check(request(document, { resource: "https://elsewhere.example/mcp" }))
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
      const shown = yield* check(request(document, { state: "a\u0000b" }))
      assert.strictEqual(shown._tag, "Invalid")
      assert.strictEqual((yield* check(request("\u0000")))._tag, "Invalid")
      const tokenError = (form: Record<string, string>) => Effect.map(Effect.flip(exchange(form)), (e) => e.error)
      const refresh = { grant_type: "refresh_token", client_id: "\u0000", refresh_token: "x" }
      assert.strictEqual(yield* tokenError(refresh), "invalid_request")
      assert.strictEqual(yield* tokenError({ ...refresh, client_id: "c", refresh_token: "\ud800" }), "invalid_request")
      const registered = (metadata: unknown) => Effect.map(Effect.flip(registerClient(metadata)), (e) => e.error)
      const uris = ["https://a.example/cb"]
      assert.strictEqual(yield* registered({ client_name: "a\u0000", redirect_uris: uris }), "invalid_client_metadata")
      // A redirect URI that is not text is an invalid redirect URI (RFC 7591 §3.2.2), as any other fault of one.
      assert.strictEqual(yield* registered({ redirect_uris: ["https://a.example/cb\u0000x"] }), "invalid_redirect_uri")
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("the token request names the redirect URI when the authorization request did, and may omit it else", () =>
    Effect.gen(function* () {
      const account = yield* proAccount("uri@example.com")
      const client = yield* registerClient({ client_name: "One", redirect_uris: ["https://one.example/cb"] })
      const codeFor = Effect.fnUntraced(function* (params: Record<string, string>) {
        const checked = yield* check(params)
        assert.strictEqual(checked._tag, "Valid")
        if (checked._tag !== "Valid") return ""
        return new URL(yield* approveAuthorization(checked.request, account.id)).searchParams.get("code") ?? ""
      })
      const base = request(client.clientId, { redirect_uri: "https://one.example/cb" })
      const token = (code: string, extra: Record<string, string> = {}) =>
        exchange({
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

  it.effect(
    "refuses redirect URIs whose host is no host name (a;sandbox, a,b, *, 60,000 characters) or one label",
    () =>
      Effect.gen(function* () {
        const refused = [
          "https://a;sandbox/cb",
          "https://a,b/cb",
          "https://*/cb",
          `https://${"a.".repeat(30_000)}example/cb`,
          "https://intranet/cb",
          "https:///agent.example/cb",
          "https:agent.example/cb",
          "https://user:secret@agent.example/cb",
          "https://agent.example/cb#",
          "https://agent.example/c b",
          "com.example.app://a;sandbox/cb"
        ]
        for (const uri of refused) {
          assert.isDefined(redirectUriProblem(uri), uri)
          const error = yield* Effect.flip(registerClient({ redirect_uris: [uri] }))
          assert.strictEqual(error.error, "invalid_redirect_uri", uri)
          assert.isAtMost(error.description.length, 300, uri)
        }
        for (const uri of ["http://localhost:8080/cb", "http://[::1]/cb", "https://xn--bcher-kva.example/cb"]) {
          assert.isUndefined(redirectUriProblem(uri), uri)
        }
        // A metadata document naming such a redirect URI is refused on the page (so no header is built from it).
        assert.strictEqual((yield* check(request("https://sandbox.example/client.json")))._tag, "Invalid")
      }).pipe(Effect.provide(oauthWorld))
  )

  it("a metadata document's client_id is an https URL whose host passes the host rule", () => {
    assert.isTrue(isMetadataDocumentId("https://agent.example/client.json"))
    assert.isTrue(isMetadataDocumentId("https://127.0.0.1:8443/client.json"))
    for (const id of [
      "https://a;sandbox/client.json",
      "https://a,b/client.json",
      "https://*/client.json",
      "https://intranet/client.json",
      "https:///agent.example/client.json",
      "https://agent.example/",
      "https://agent.example/client.json#",
      "http://agent.example/client.json"
    ]) {
      assert.isFalse(isMetadataDocumentId(id), id)
    }
  })

  it.effect("a loopback redirect URI matches at any port (RFC 8252 §7.3), and the code goes to the port asked", () =>
    Effect.gen(function* () {
      const account = yield* proAccount("loopback@example.com")
      const native = yield* registerClient({
        client_name: "Native",
        redirect_uris: ["http://127.0.0.1/cb", "http://localhost:1234/cb"]
      })
      const asked = (redirectUri: string) => check(request(native.clientId, { redirect_uri: redirectUri }), account.id)
      const valid = yield* asked("http://127.0.0.1:5678/cb")
      assert.strictEqual(valid._tag, "Valid")
      if (valid._tag === "Valid") {
        assert.strictEqual(valid.request.redirectUri, "http://127.0.0.1:5678/cb")
        const back = new URL(yield* approveAuthorization(valid.request, account.id))
        assert.strictEqual(`${back.origin}${back.pathname}`, "http://127.0.0.1:5678/cb")
      }
      assert.strictEqual((yield* asked("http://localhost:40000/cb"))._tag, "Valid")
      assert.strictEqual((yield* asked("http://127.0.0.1/cb"))._tag, "Valid")
      // Another path, host or scheme is another redirect URI.
      for (const other of ["http://127.0.0.1:5678/other", "http://[::1]:5678/cb", "https://127.0.0.1:5678/cb"]) {
        assert.strictEqual((yield* asked(other))._tag, "Invalid", other)
      }
      // Any other redirect URI still matches exactly: no other port.
      const web = yield* registerClient({ client_name: "Web", redirect_uris: ["https://agent.example/cb"] })
      const port = yield* check(request(web.clientId, { redirect_uri: "https://agent.example:8443/cb" }))
      assert.strictEqual(port._tag, "Invalid")
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("refuses client names with format characters (U+202E, U+200B, U+2028): registered or by document", () =>
    Effect.gen(function* () {
      for (const name of ["Agent\u202Eexample.com", "Agent\u200B", "Agent\u2028line", "Agent\u2066x"]) {
        const error = yield* Effect.flip(
          registerClient({ client_name: name, redirect_uris: ["https://agent.example/cb"] })
        )
        assert.strictEqual(error.error, "invalid_client_metadata", JSON.stringify(name))
      }
      const byDocument = yield* check(
        request("https://bidi.example/client.json", { redirect_uri: "https://bidi.example/cb" })
      )
      assert.strictEqual(byDocument._tag, "Invalid")
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("fetches a metadata document for the account that asked; what was wrong with one is not told", () =>
    Effect.gen(function* () {
      const asker = AccountId.make("00000000-0000-4000-8000-00000000000b")
      fetched.length = 0
      assert.strictEqual((yield* check(request("https://agent.example/client.json"), asker))._tag, "Valid")
      assert.deepStrictEqual(fetched, [["https://agent.example/client.json", asker]])
      // A document that names another client_id, one that cannot be fetched: the same words, nothing of the document.
      for (const document of ["https://liar.example/client.json", "https://gone.example/client.json"]) {
        const refused = yield* check(request(document, { redirect_uri: "https://liar.example/cb" }))
        assert.deepStrictEqual(refused, AuthorizationCheckInvalid(unusableMetadataDocument().description), document)
      }
      // Refused by a limit: shown, with the wait.
      const busy = yield* check(request("https://busy.example/client.json"))
      assert.deepStrictEqual(busy, AuthorizationCheckInvalid("too many", 60))
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("a parameter given twice is refused on the page (RFC 6749 §3.1) and at the token endpoint", () =>
    Effect.gen(function* () {
      const query = UrlParams.fromInput([
        ...Object.entries(request("https://agent.example/client.json")),
        ["resource", "https://elsewhere.example/mcp"]
      ])
      assert.deepStrictEqual(
        yield* checkAuthorization(query, someone),
        AuthorizationCheckInvalid("resource given more than once")
      )
      const form = UrlParams.fromInput([
        ["grant_type", "refresh_token"],
        ["client_id", "c"],
        ["refresh_token", "x"],
        ["refresh_token", "y"]
      ])
      const error = yield* Effect.flip(exchangeToken(form))
      assert.deepStrictEqual(
        [error.error, error.description],
        ["invalid_request", "refresh_token given more than once"]
      )
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("an access token authenticates a /mcp caller for its lifetime, then is refused as expired", () =>
    Effect.gen(function* () {
      const account = yield* proAccount("expiry@example.com")
      const client = yield* registerClient({ client_name: "Expiring", redirect_uris: ["https://expiring.example/cb"] })
      const tokens = yield* tokensFor(client.clientId, "https://expiring.example/cb", account.id)
      const { accessTokenTtl } = yield* OAuthSettings
      assert.strictEqual(tokens.expires_in, Duration.toSeconds(accessTokenTtl))
      const caller = (token: string) => authenticateMcpCaller(token, "https://tenders.example/mcp")
      assert.strictEqual((yield* caller(tokens.access_token)).id, account.id)
      yield* TestClock.adjust(Duration.subtract(accessTokenTtl, Duration.seconds(1)))
      assert.strictEqual((yield* caller(tokens.access_token)).id, account.id)
      yield* TestClock.adjust(Duration.seconds(2))
      const expired = yield* Effect.flip(caller(tokens.access_token))
      assert.strictEqual(expired._tag, "Unauthorized")
      assert.strictEqual(expired.message, "Invalid, expired or revoked access token.")
    }).pipe(Effect.provide(oauthWorld))
  )

  it.effect("revokes a grant by its refresh or access token, for its own client only; anything else is no error", () =>
    Effect.gen(function* () {
      const account = yield* proAccount("revoke@example.com")
      const client = yield* registerClient({ client_name: "Revoker", redirect_uris: ["https://revoker.example/cb"] })
      const connect = tokensFor(client.clientId, "https://revoker.example/cb", account.id)
      const revoke = (form: Record<string, string>) => revokeToken(UrlParams.fromInput(form))
      const works = (token: string) =>
        Effect.match(authenticateMcpCaller(token, "https://tenders.example/mcp"), {
          onFailure: () => false,
          onSuccess: () => true
        })

      const first = yield* connect
      // Another client's: left alone.
      assert.isFalse(yield* revoke({ token: first.refresh_token, client_id: "tc_someone_else" }))
      assert.isTrue(yield* works(first.access_token))
      assert.isTrue(yield* revoke({ token: first.refresh_token, client_id: client.clientId }))
      assert.isFalse(yield* works(first.access_token))
      assert.isFalse(yield* revoke({ token: first.refresh_token, client_id: client.clientId })) // revoked already
      const refreshed = yield* Effect.flip(
        exchange({ grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: client.clientId })
      )
      assert.strictEqual(refreshed.error, "invalid_grant")

      // By its access token, whatever the hint says.
      const second = yield* connect
      assert.isTrue(
        yield* revoke({ token: second.access_token, token_type_hint: "refresh_token", client_id: client.clientId })
      )
      assert.isFalse(yield* works(second.access_token))
      assert.isFalse(yield* revoke({ token: "mcp_rt_unknown", client_id: client.clientId }))

      // An expired token revokes nothing.
      const third = yield* connect
      yield* TestClock.adjust(Duration.minutes(16))
      assert.isFalse(yield* revoke({ token: third.access_token, client_id: client.clientId }))
      assert.isTrue(yield* revoke({ token: third.refresh_token, client_id: client.clientId }))

      // Malformed: no token, no client, a parameter twice, not text.
      const malformed = [
        UrlParams.fromInput({ client_id: client.clientId }),
        UrlParams.fromInput({ token: first.refresh_token }),
        UrlParams.fromInput({ token: "", client_id: client.clientId }),
        UrlParams.fromInput([
          ["token", first.refresh_token],
          ["token", second.refresh_token],
          ["client_id", client.clientId]
        ]),
        UrlParams.fromInput({ token: "a\u0000", client_id: client.clientId })
      ]
      for (const form of malformed) {
        assert.strictEqual((yield* Effect.flip(revokeToken(form))).error, "invalid_request")
      }
    }).pipe(Effect.provide(oauthWorld))
  )
})

/** What the page shows for a refused request. */
const AuthorizationCheckInvalid = (message: string, retryAfter?: number) =>
  AuthorizationCheck.Invalid({ message, retryAfter })
