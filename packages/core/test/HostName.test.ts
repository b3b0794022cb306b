import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import * as fc from "fast-check"
import { authorityProblem, hostNameProblem, isLoopbackHost, parseHostName } from "../src/index.ts"

const parsed = (host: string, singleLabel = false) => Result.getOrUndefined(parseHostName(host, { singleLabel }))

describe("the host rule (webhooks, redirect URIs, metadata documents, e-mail domains, the public URL)", () => {
  it("gives only hosts that are safe in a header and a CSP source, in a form it accepts again unchanged", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.domain(),
          fc.ipV4(),
          fc.ipV6().map((ip) => `[${ip}]`),
          fc.webUrl()
        ),
        (h) => {
          const host = parsed(h, true)
          if (host === undefined) return
          assert.match(host, /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])$/u)
          assert.isAtMost(host.length, 253 + 2)
          assert.isFalse(host.endsWith("."))
          assert.strictEqual(parsed(host, true), host)
          // What WHATWG URL makes of it is the same host.
          assert.strictEqual(new URL(`https://${host}/`).hostname, host)
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("refuses what WHATWG URL lets through as a host but names no machine", () => {
    for (const host of ["a;sandbox", "a,b", "*", "a b", "a'b", 'a"b', "_x.example", "a.example.", "", "x".repeat(64)]) {
      assert.isDefined(hostNameProblem(host, { singleLabel: true }), host)
    }
    assert.isDefined(hostNameProblem(`${"a.".repeat(127)}com`, { singleLabel: true }))
    assert.match(hostNameProblem("intranet", { singleLabel: false }) ?? "", /single label/u)
    assert.isUndefined(hostNameProblem("intranet", { singleLabel: true }))
    assert.strictEqual(parsed("BÜCHER.example"), "xn--bcher-kva.example")
    assert.strictEqual(parsed("[0:0:0:0:0:0:0:1]"), "[::1]")
  })

  it("wants the host after // in the raw URL", () => {
    assert.isUndefined(authorityProblem("https://hooks.example.com/x"))
    for (const raw of ["https:///x", "https:x", "https:/x", "https://\\\\x"])
      assert.isDefined(authorityProblem(raw), raw)
  })

  it("knows the loopback hosts: localhost, 127.0.0.0/8 and ::1", () => {
    for (const host of ["localhost", "127.0.0.1", "127.8.9.10", "[::1]"]) assert.isTrue(isLoopbackHost(host), host)
    for (const host of ["localhost.example", "128.0.0.1", "[::2]", "10.0.0.1", "[::ffff:127.0.0.1]x"]) {
      assert.isFalse(isLoopbackHost(host), host)
    }
  })
})
