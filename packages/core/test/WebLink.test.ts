import { assert, describe, it } from "@effect/vitest"
import { isWebLink, linkedUrl } from "../src/index.ts"

describe("isWebLink", () => {
  it("links http and https addresses that parse, in any case, and nothing else", () => {
    for (const url of ["https://ted.europa.eu/x?a=1&b=2", "http://example.test", "HTTPS://EXAMPLE.TEST/"]) {
      assert.isTrue(isWebLink(url), url)
    }
    for (const url of ["javascript:alert(1)", "data:text/html,x", "ftp://example.test", "https://", "//example.test"]) {
      assert.isFalse(isWebLink(url), url)
    }
  })

  it("shows a URL as a link to itself only when it is a web address, escaped either way", () => {
    assert.strictEqual(
      linkedUrl("https://a.test/?x=1&y=2").markup,
      '<a href="https://a.test/?x=1&amp;y=2">https://a.test/?x=1&amp;y=2</a>'
    )
    assert.strictEqual(linkedUrl('javascript:alert("x")').markup, "javascript:alert(&quot;x&quot;)")
  })
})
