// The OAuth consent page (the authorization endpoint) over in-memory ports, driven through web Requests: the headers
// it builds from a client's redirect URI, what it shows of a client, and the account a metadata document is fetched
// for.
import { assert, describe, it } from "@effect/vitest"
import {
  type AccountId,
  AccountStore,
  ClientMetadataDocuments,
  OAuthSettings,
  OAuthError,
  oauthSettingsFor,
  OAuthStore,
  registerClient,
  SignInStore,
  unusableMetadataDocument
} from "@tenders/core"
import { memoryStore } from "@tenders/core/testing"
import { DateTime, Duration, Effect, Layer } from "effect"
import { DashboardSettings, OAuthConsentApp } from "../src/index.ts"
import { base, hiddenValue, webAppOf } from "./support.ts"

const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
const pageOf = (path: string) => new URL(path, base)
/** A metadata document the fetcher refuses by its limit per account. */
const busy = "https://busy.example/client.json"

/** The consent page over in-memory ports, with these metadata documents; a signed-in person's requests. */
const makeConsent = (documents: Readonly<Record<string, unknown>>) =>
  Effect.gen(function* () {
    const fetchedFor: Array<readonly [string, AccountId]> = []
    const ports = yield* Layer.build(
      Layer.mergeAll(
        memoryStore,
        Layer.succeed(DashboardSettings, { publicUrl: new URL(base), signUp: "open" }),
        Layer.succeed(OAuthSettings, oauthSettingsFor(new URL(base))),
        Layer.succeed(ClientMetadataDocuments, {
          fetch: (url, account) => {
            fetchedFor.push([url, account])
            return url in documents
              ? Effect.succeed(documents[url])
              : url === busy
                ? Effect.fail(
                    new OAuthError({ error: "temporarily_unavailable", description: "too many", retryAfter: 60 })
                  )
                : Effect.fail(unusableMetadataDocument())
          }
        })
      )
    )
    const app = yield* webAppOf(OAuthConsentApp.pipe(Layer.provide(Layer.succeedContext(ports))))
    const onPorts = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, ports)
    const account = yield* onPorts(
      Effect.flatMap(AccountStore, (store) =>
        store.saveAccount({ email: "consent@example.com", plan: "free", monthlyLimit: null })
      )
    )
    const session = "consent-test-session"
    const now = yield* DateTime.now
    yield* onPorts(
      Effect.flatMap(SignInStore, (store) =>
        store.createSession({
          token: session,
          accountId: account.id,
          createdAt: now,
          expiresAt: DateTime.addDuration(now, Duration.days(1))
        })
      )
    )
    const send = (url: URL, init: RequestInit = {}) =>
      app(
        new Request(url, {
          redirect: "manual",
          ...init,
          headers: { host: "localhost", cookie: `tenders_session=${session}`, ...init.headers }
        })
      )
    /** The authorization page for these parameters, as a signed-in person opens it. */
    const authorize = (params: Record<string, string>) => {
      const url = pageOf("/dashboard/oauth/authorize")
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
      return send(url)
    }
    return { authorize, send, onPorts, account, fetchedFor }
  })

const requestFor = (clientId: string, redirectUri: string) => ({
  response_type: "code",
  client_id: clientId,
  redirect_uri: redirectUri,
  code_challenge: challenge,
  code_challenge_method: "S256",
  state: "s1"
})

describe("the OAuth consent page", () => {
  it.effect("lets the form go on only to the redirect URI's checked origin: a;sandbox adds no directive", () =>
    Effect.gen(function* () {
      const sandbox = "https://sandbox.example/client.json"
      const consent = yield* makeConsent({
        [sandbox]: { client_id: sandbox, client_name: "Sandbox", redirect_uris: ["https://a;sandbox/cb"] }
      })
      const refused = yield* consent.authorize(requestFor(sandbox, "https://a;sandbox/cb"))
      assert.strictEqual(refused.status, 400)
      const policy = refused.headers.get("content-security-policy") ?? ""
      assert.notInclude(policy, "sandbox")
      assert.include(policy, "form-action 'self';")
      // A client registered with such a redirect URI before the rule: refused on the page too.
      const createdAt = yield* DateTime.now
      yield* consent.onPorts(
        Effect.flatMap(OAuthStore, (store) =>
          store.saveClient({
            clientId: "tc_before_the_rule",
            clientName: "Old",
            redirectUris: ["https://a;sandbox/cb"],
            createdAt
          })
        )
      )
      const old = yield* consent.authorize(requestFor("tc_before_the_rule", "https://a;sandbox/cb"))
      assert.strictEqual(old.status, 400)
      assert.notInclude(old.headers.get("content-security-policy") ?? "", "sandbox")

      const native = yield* consent.onPorts(
        registerClient({ client_name: "Native", redirect_uris: ["http://127.0.0.1/callback"] })
      )
      // A loopback redirect URI at another port (RFC 8252 §7.3): the form may go on to that port.
      const page = yield* consent.authorize(requestFor(native.clientId, "http://127.0.0.1:5678/callback"))
      assert.strictEqual(page.status, 200)
      const directives = (page.headers.get("content-security-policy") ?? "").split(";").map((d) => d.trim())
      assert.include(directives, "form-action 'self' http://127.0.0.1:5678")
      assert.strictEqual(directives.filter((d) => d.startsWith("form-action")).length, 1)
      assert.include(page.text, "127.0.0.1:5678")
      const allowed = yield* consent.send(pageOf("/dashboard/oauth/authorize"), {
        method: "POST",
        headers: { origin: base, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          ...requestFor(native.clientId, "http://127.0.0.1:5678/callback"),
          csrf: hiddenValue(page.text, "csrf"),
          decision: "allow"
        }).toString()
      })
      assert.strictEqual(allowed.status, 303)
      const back = new URL(allowed.headers.get("location") ?? "")
      assert.strictEqual(`${back.origin}${back.pathname}`, "http://127.0.0.1:5678/callback")
      assert.isNotNull(back.searchParams.get("code"))
    })
  )

  it.effect("does not show a client name with a bidi override (U+202E), nor the document's reasons for refusal", () =>
    Effect.gen(function* () {
      const spoof = "https://spoof.example/client.json"
      const broken = "https://broken.example/client.json"
      const consent = yield* makeConsent({
        [spoof]: {
          client_id: spoof,
          client_name: "Trusted \u202Egro.elpmaxe",
          redirect_uris: ["https://spoof.example/cb"]
        },
        [broken]: { client_id: "https://internal.corp/secret.json", redirect_uris: ["https://broken.example/cb"] }
      })
      const refused = yield* consent.authorize(requestFor(spoof, "https://spoof.example/cb"))
      assert.strictEqual(refused.status, 400)
      assert.notInclude(refused.text, "\u202E")
      assert.notInclude(refused.text, "Trusted")
      const wrong = yield* consent.authorize(requestFor(broken, "https://broken.example/cb"))
      assert.strictEqual(wrong.status, 400)
      assert.include(wrong.text, "the client metadata document could not be used")
      assert.notInclude(wrong.text, "internal.corp")
    })
  )

  it.effect("fetches a metadata document for the signed-in account that opened the page; a limit answers 429", () =>
    Effect.gen(function* () {
      const agent = "https://agent.example/client.json"
      const consent = yield* makeConsent({
        [agent]: { client_id: agent, client_name: "Agent", redirect_uris: ["https://agent.example/cb"] }
      })
      const page = yield* consent.authorize(requestFor(agent, "https://agent.example/cb"))
      assert.strictEqual(page.status, 200)
      assert.include(page.text, "Agent")
      assert.deepStrictEqual(consent.fetchedFor, [[agent, consent.account.id]])
      // Refused by the limit per account: 429, with the wait.
      const limited = yield* consent.authorize(requestFor(busy, "https://busy.example/cb"))
      assert.strictEqual(limited.status, 429)
      assert.strictEqual(limited.headers.get("retry-after"), "60")
    })
  )
})
