// Properties of the OAuth rules that guard headers and redirects: the redirect-URI rule, the loopback port rule, and
// "each parameter once" (RFC 6749 §3.1).
import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Result, Schema } from "effect"
import { UrlParams } from "effect/http"
import {
  decodeOAuthParams,
  parseHostName,
  redirectOrigin,
  redirectUriMatches,
  redirectUriProblem,
  textProblem
} from "../src/index.ts"

const Port = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 65535 }))
// Hosts that pass the host rule, and ones that only WHATWG URL lets through, with any text besides.
const Host = Schema.Union([
  Schema.Literals(["agent.example", "xn--bcher-kva.example", "localhost", "127.0.0.1", "[::1]", "sub.agent.example"]),
  Schema.Literals([
    "a;sandbox",
    "a,b",
    "*",
    "intranet",
    "a b",
    "a'b",
    'a"b',
    "a.example.",
    "_x.example",
    "%61.example"
  ]),
  Schema.String
])
const Path = Schema.Union([Schema.Literals(["cb", "a/b?x=1", "cb#", "cb#x", "c b", ""]), Schema.String])
const Uri = Schema.Struct({
  scheme: Schema.Literals(["https", "http", "com.example.app", "javascript", "HTTPS"]),
  slashes: Schema.Literals(["//", "/", "///", ""]),
  host: Host,
  port: Schema.UndefinedOr(Port),
  path: Path
})
const uriOf = (u: typeof Uri.Type) =>
  `${u.scheme}:${u.slashes}${u.host}${u.port === undefined ? "" : `:${u.port}`}/${u.path}`

describe("OAuth rules, by property", () => {
  it.effect.prop(
    "an accepted redirect URI has a host by the host rule, no fragment, and a CSP source without ; , space or quote",
    [Uri],
    ([parts]) =>
      Effect.sync(() => {
        const uri = uriOf(parts)
        if (redirectUriProblem(uri) !== undefined) return
        const url = new URL(uri)
        assert.notInclude(uri, "#")
        if (url.hostname !== "") {
          assert.isTrue(Result.isSuccess(parseHostName(url.hostname, { singleLabel: url.protocol !== "https:" })), uri)
        } else {
          assert.match(url.protocol, /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/u, uri)
        }
        const source = Result.getOrThrow(redirectOrigin(uri))
        assert.notMatch(source, /[;,\s'"]/u, uri)
        assert.match(source, /^[a-z][a-z0-9+.-]*:(?:\/\/[a-z0-9.[\]:-]+)?$/u, uri)
      }),
    { arbitrary: { runs: 1000 } }
  )

  it.effect.prop(
    "an http loopback redirect URI matches at any port; any other only as written",
    [
      Schema.Literals(["localhost", "127.0.0.1", "[::1]"]),
      Schema.UndefinedOr(Port),
      Port,
      Schema.Literals(["cb", "callback?x=1", "a/b"])
    ],
    ([host, registeredPort, requestedPort, path]) =>
      Effect.sync(() => {
        const at = (scheme: string, name: string, port: number | undefined, tail: string = path) =>
          `${scheme}://${name}${port === undefined ? "" : `:${port}`}/${tail}`
        const registered = at("http", host, registeredPort)
        assert.isTrue(redirectUriMatches(registered, at("http", host, requestedPort)))
        assert.isFalse(redirectUriMatches(registered, at("http", host, requestedPort, `${path}x`)))
        assert.isFalse(redirectUriMatches(registered, at("https", host, requestedPort)))
        const other = host === "localhost" ? "127.0.0.1" : "localhost"
        assert.isFalse(redirectUriMatches(registered, at("http", other, requestedPort)))
        const web = at("https", "agent.example", registeredPort)
        assert.strictEqual(
          redirectUriMatches(web, at("https", "agent.example", requestedPort)),
          registeredPort === requestedPort
        )
      })
  )

  const Params = Schema.Struct({
    a: Schema.optionalKey(Schema.String.check(Schema.makeFilter((t: string) => textProblem(t) ?? true))),
    b: Schema.optionalKey(Schema.String.check(Schema.makeFilter((t: string) => textProblem(t) ?? true))),
    c: Schema.optionalKey(Schema.String.check(Schema.makeFilter((t: string) => textProblem(t) ?? true)))
  })

  it.effect.prop(
    "parameters are decoded when none is given twice, each to its one value; else refused as invalid_request",
    [Schema.Array(Schema.Tuple([Schema.Literals(["a", "b", "c", "other"]), Schema.String]))],
    ([pairs]) =>
      Effect.gen(function* () {
        const decoded = yield* Effect.exit(decodeOAuthParams(Params)(UrlParams.fromInput(pairs)))
        const named = pairs.filter(([name]) => name !== "other")
        const names = named.map(([name]) => name)
        const once = new Set(names).size === names.length
        const text = named.every(([, value]) => textProblem(value) === undefined)
        if (Exit.isSuccess(decoded)) {
          assert.isTrue(once && text)
          assert.deepStrictEqual(decoded.value, Object.fromEntries(named))
        } else {
          assert.isFalse(once && text)
          const error = yield* Effect.flip(decodeOAuthParams(Params)(UrlParams.fromInput(pairs)))
          assert.strictEqual(error.error, "invalid_request")
          if (!once) assert.match(error.description, /given more than once$/u)
        }
      })
  )
})
