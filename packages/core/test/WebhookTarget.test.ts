import { assert, describe, it } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Result } from "effect"
import {
  addressProblem,
  normalWebhookUrl,
  parseWebhookTarget,
  WebhookAllowHosts,
  webhookAllowHostsConfig,
  webhookAllowHostsLayer,
  webhookProblem
} from "../src/index.ts"
import { refusedWebhookProbes } from "../src/testing/index.ts"

/** Every probe of issue 9 defect 3, then one address of each range of the IANA registries, in URL form. */
const refusedUrls = [
  ...refusedWebhookProbes,
  "https://0.0.0.0/",
  "https://10.1.2.3/",
  "https://100.64.0.1/",
  "https://100.100.100.200/latest/meta-data",
  "https://127.8.0.1/",
  "https://169.254.169.254/latest/meta-data",
  "https://172.31.255.254/",
  "https://192.0.0.9/",
  "https://192.88.99.1/",
  "https://192.168.1.1/",
  "https://198.19.255.255/",
  "https://198.51.100.7/",
  "https://203.0.113.7/",
  "https://224.0.0.1/",
  "https://239.255.255.250/",
  "https://240.0.0.1/",
  "https://255.255.255.255/",
  "https://[::]/",
  "https://[::1]/",
  "https://[::ffff:127.0.0.1]/",
  "https://[::ffff:a9fe:a9fe]/",
  "https://[::ffff:10.0.0.1]/",
  "https://[::8.8.8.8]/",
  "https://[64:ff9b::10.0.0.1]/",
  "https://[64:ff9b:1::5db8:d70e]/",
  "https://[100::1]/",
  "https://[2001::1]/",
  "https://[2001:2::1]/",
  "https://[2001:db8::1]/",
  "https://[2002:a9fe:a9fe::]/",
  "https://[2002:c0a8:101::1]/",
  "https://[3fff::1]/",
  "https://[5f00::1]/",
  "https://[fc00::1]/",
  "https://[fd00:ec2::254]/",
  "https://[fe80::1]/",
  "https://[feb0::1]/",
  "https://[ff02::1]/",
  "https://[4000::1]/",
  "https://[1::1]/",
  // IPv4 forms WHATWG URL normalises to a dotted quad: decimal, hex, octal, short.
  "https://2130706433/",
  "https://0x7f000001/",
  "https://0x7f.0.0.1/",
  "https://0177.0.0.1/",
  "https://127.1/",
  "https://10.1/",
  "https://127.0.0.1./",
  // Names: localhost in every spelling, local-only suffixes, cloud metadata.
  "https://localhost/",
  "https://LOCALHOST:8443/",
  "https://api.localhost/",
  "https://api.localhost./",
  "https://printer.local/",
  "https://metadata.google.internal/computeMetadata/v1/",
  "https://metadata/",
  "https://instance-data/latest/",
  "https://router.home.arpa/"
]

const acceptedUrls = [
  "https://93.184.215.14/",
  "https://8.8.8.8/x",
  "https://100.128.0.1/",
  "https://172.32.0.1/",
  "https://[2606:2800:21f:cb07:6820:80da:af6b:8b2e]/",
  "https://[2606:4700:4700::1111]:8443/hook",
  "https://[::ffff:93.184.215.14]/",
  "https://[::ffff:5db8:d70e]/",
  "https://[64:ff9b::93.184.215.14]/",
  "https://[2002:5db8:d70e::1]/",
  "https://example.com/",
  "https://hooks.example.com/tenders?x=1",
  "https://xn--bcher-kva.example/",
  "https://localhost.example.com/"
]

describe("the webhook URL check", () => {
  it("refuses every probe, non-public range and local name at creation", () => {
    for (const url of refusedUrls) {
      assert.match(webhookProblem(url) ?? "", /^channels\.webhook must not point to a (non-public|local)/u, url)
    }
  })

  it("accepts public addresses in every form and public names", () => {
    for (const url of acceptedUrls) assert.isUndefined(webhookProblem(url), url)
  })

  it("checks the raw string with the text rule: CR, LF, tab and NUL are refused, not stripped", () => {
    for (const url of [
      "https://hooks.example.com/a\r\nX-Injected: 1",
      "https://hooks.example.com/\n",
      "https://hooks.\texample.com/",
      "https://hooks.example.com/\u0000",
      "https://hooks.example.com/\ud800"
    ]) {
      assert.match(webhookProblem(url) ?? "", /^channels\.webhook must not contain/u, JSON.stringify(url))
    }
    assert.match(webhookProblem(" https://hooks.example.com/") ?? "", /space/u)
  })

  it("requires an absolute https URL without credentials and a host without a trailing dot", () => {
    const cases: ReadonlyArray<readonly [string, RegExp]> = [
      ["http://hooks.example.com/x", /https/u],
      ["ftp://example.com", /https/u],
      ["nonsense", /absolute URL/u],
      ["https://user:pw@example.com/x", /credentials/u],
      ["https://user@example.com/x", /credentials/u],
      ["https://example.com./", /dot/u],
      ["https:///x", /host after \/\//u],
      ["https:x.example.com/hook", /host after \/\//u],
      ["https:/x.example.com/hook", /host after \/\//u],
      ["https://x/", /single label/u],
      ["https://intranet/hook", /single label/u],
      ["https://a;sandbox.example.com/", /not a host name/u],
      ["https://a,b.example.com/", /not a host name/u],
      ["https://*.example.com/", /not a host name/u],
      [`https://${"a".repeat(64)}.example.com/`, /not a host name/u],
      [`https://${Array.from({ length: 60 }, () => "abcd").join(".")}.com/`, /not a host name/u]
    ]
    for (const [url, problem] of cases) assert.match(webhookProblem(url) ?? "", problem, url)
  })

  it("keeps the normalised URL, the form delivery reads", () => {
    const target = parseWebhookTarget("https://Hooks.Example.COM:443/a/../b?x=1", [])
    assert.strictEqual(Result.isSuccess(target) ? target.success.url.href : "", "https://hooks.example.com/b?x=1")
    assert.strictEqual(normalWebhookUrl("https://BÜCHER.example/h"), "https://xn--bcher-kva.example/h")
  })

  it("exempts exactly the allow-listed host:port from the host and address rules, never from https", () => {
    const allow = ["127.0.0.1:8443", "[::1]:443", "hooks.internal:443"]
    assert.isUndefined(webhookProblem("https://127.0.0.1:8443/x", allow))
    assert.isUndefined(webhookProblem("https://[::1]/", allow))
    assert.isUndefined(webhookProblem("https://HOOKS.internal/", allow))
    // An operator's one-label host (a service name on a private network) is a host only when allow-listed.
    assert.isUndefined(webhookProblem("https://receiver:8443/", ["receiver:8443"]))
    assert.isDefined(webhookProblem("https://receiver:8443/", []))
    assert.isDefined(webhookProblem("https://127.0.0.1:8444/", allow))
    assert.isDefined(webhookProblem("https://127.0.0.1/", allow))
    assert.isDefined(webhookProblem("https://[::1]:8443/", allow))
    assert.isDefined(webhookProblem("http://127.0.0.1:8443/", allow))
    const target = parseWebhookTarget("https://127.0.0.1:8443/x", allow)
    assert.isTrue(Result.isSuccess(target) && target.success.allowListed && target.success.port === 8443)
  })
})

describe("the address policy", () => {
  it("refuses every refused URL's address form and decodes IPv4 inside IPv6", () => {
    assert.match(addressProblem("64:ff9b::7f00:1") ?? "", /embeds 127\.0\.0\.1 \(NAT64\)/u)
    assert.match(addressProblem("2002:7f00:1::") ?? "", /embeds 127\.0\.0\.1 \(6to4\)/u)
    assert.match(addressProblem("::ffff:169.254.169.254") ?? "", /embeds 169\.254\.169\.254/u)
    assert.match(addressProblem("::127.0.0.1") ?? "", /embeds 127\.0\.0\.1/u)
    assert.match(addressProblem("fe80::1%eth0") ?? "", /link-local/u)
    for (const garbage of [
      "",
      "localhost",
      "1.2.3",
      "1.2.3.256",
      "01.2.3.4",
      "1::2::3",
      "1.2.3.4::",
      "::1.2.3",
      "12345::"
    ]) {
      assert.match(addressProblem(garbage) ?? "", /is not an IP address/u, garbage)
    }
  })

  it("accepts public unicast addresses as a resolver returns them", () => {
    for (const address of ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111", "::ffff:1.1.1.1", "64:ff9b::101:101"]) {
      assert.isUndefined(addressProblem(address), address)
    }
  })
})

describe("TENDERS_WEBHOOK_ALLOW_HOSTS", () => {
  const parse = (value: string) =>
    webhookAllowHostsConfig.parse(ConfigProvider.fromEnvRecord({ TENDERS_WEBHOOK_ALLOW_HOSTS: value }))

  it.effect("is parsed once into host:port entries in the form the URL check matches", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* parse(" 127.0.0.1:8443 , ,HOOKS.Internal:443,[::1]:8443,0x7f.1:9000"), [
        "127.0.0.1:8443",
        "hooks.internal:443",
        "[::1]:8443",
        "127.0.0.1:9000"
      ])
      assert.deepStrictEqual(yield* webhookAllowHostsConfig.parse(ConfigProvider.fromEnvRecord({})), [])
      const provided = yield* WebhookAllowHosts.pipe(
        Effect.provide(
          webhookAllowHostsLayer.pipe(
            Layer.provide(
              ConfigProvider.layer(ConfigProvider.fromEnvRecord({ TENDERS_WEBHOOK_ALLOW_HOSTS: "a.test:1" }))
            )
          )
        )
      )
      assert.deepStrictEqual(provided, ["a.test:1"])
    })
  )

  it.effect("refuses an entry that is not host:port", () =>
    Effect.gen(function* () {
      for (const value of [
        "hooks.internal",
        "https://hooks.internal:443",
        "user@h:1",
        "h:1/x",
        "::1:443",
        "h:port",
        "a;b:443",
        "*.example.com:443"
      ]) {
        const error = yield* parse(value).pipe(Effect.flip)
        assert.match(error.message, /TENDERS_WEBHOOK_ALLOW_HOSTS: .* is not host:port/u, value)
      }
    })
  )
})
