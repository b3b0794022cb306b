// OAuth 2.1 for /mcp against `tenders serve`, on both stores: the official MCP client discovers the authorization
// server from the 401, identifies itself by a Client ID Metadata Document (served over HTTPS on loopback, allowed
// like a webhook target) or registers (DCR), the person allows it on the consent page with their dashboard
// session, and the client lists and calls tools; then the refusals: wrong resource, PKCE mismatch, a code used
// twice, a spent refresh token, a foreign redirect_uri, a token of a revoked grant. An access token's expiry is
// tested on TestClock (core's OAuth.test.ts, mcp's mcp.test.ts), without waiting for it here.
import {
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError
} from "@modelcontextprotocol/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser } from "playwright-core"
import { createHash, randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:https"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { loopbackCertificate } from "../../adapters-notify/test/loopbackCertificate.ts"
import { inspect, launchChromium, linkFor, mailsTo } from "./browser.ts"
import { e2eBackends, suiteServer } from "./cli.ts"

const dir = mkdtempSync(join(tmpdir(), "toa-"))
const certificate = loopbackCertificate(dir)
const redirectUri = "http://127.0.0.1:33418/callback"
let metadataPort = 0
const metadataServer = createServer({ key: certificate.key, cert: certificate.cert }, (request, response) => {
  const clientId = `https://127.0.0.1:${metadataPort}/client.json`
  if (request.url !== "/client.json") return void response.writeHead(404).end()
  response.writeHead(200, { "content-type": "application/json" }).end(
    JSON.stringify({
      client_id: clientId,
      client_name: "Metadata Agent",
      redirect_uris: [redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none"
    })
  )
})
let browser: Browser | undefined
beforeAll(async () => {
  await new Promise<void>((resolve) => metadataServer.listen(0, "127.0.0.1", resolve))
  metadataPort = (metadataServer.address() as AddressInfo).port
  browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  metadataServer.closeAllConnections()
  await new Promise((resolve) => metadataServer.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const form = (values: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(values).toString()
})
const hiddenFields = (page: string) =>
  Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/gu)].map((m) => [
      m[1] ?? "",
      (m[2] ?? "")
        .replaceAll("&amp;", "&")
        .replaceAll("&quot;", '"')
        .replaceAll("&#39;", "'")
        .replaceAll("&lt;", "<")
        .replaceAll("&gt;", ">")
    ])
  )
const pkce = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

for (const backend of e2eBackends) {
  describe(`OAuth for /mcp on the ${backend}`, () => {
    const suite = suiteServer(
      backend,
      "toa-",
      async () => undefined,
      () => ({
        TENDERS_WEBHOOK_ALLOW_HOSTS: `127.0.0.1:${metadataPort}`,
        TENDERS_WEBHOOK_CA_FILE: certificate.caFile
      })
    )
    const base = () => suite.base()
    const resource = () => `${base()}/mcp`
    /** A `tools/list` on /mcp with an access token (its HTTP status says whether the token works). */
    const mcpCall = (accessToken: string) =>
      fetch(resource(), {
        method: "POST",
        headers: {
          authorization: `Bearer ${accessToken}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18"
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
      })

    /** Signs a person in through the dashboard (the link from the outbox); their session cookie. */
    const signIn = async (email: string) => {
      const headers = { origin: base(), "content-type": "application/x-www-form-urlencoded" }
      const outbox = join(suite.dataDir, "outbox")
      const before = mailsTo(outbox, email).length
      await fetch(`${base()}/dashboard/sign-in`, {
        method: "POST",
        headers,
        body: new URLSearchParams({ email }).toString()
      })
      // The server sends the mail in the background, after it answered the form.
      const token = new URL(await linkFor(outbox, email, before + 1)).searchParams.get("token") ?? ""
      const signedIn = await fetch(`${base()}/dashboard/sign-in/link`, {
        method: "POST",
        headers,
        body: new URLSearchParams({ token }).toString(),
        redirect: "manual"
      })
      const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith("tenders_session="))
      return (cookie ?? "").split(";")[0] ?? ""
    }

    /** Opens an authorization URL as the signed-in person and answers the consent page; the redirect's URL. */
    const consent = async (url: URL | string, cookie: string, decision: "allow" | "deny" = "allow") => {
      const page = await fetch(url, { headers: { cookie }, redirect: "manual" })
      if (page.status !== 200)
        return { status: page.status, location: page.headers.get("location"), text: await page.text() }
      const text = await page.text()
      const answered = await fetch(url, {
        ...form({ ...hiddenFields(text), decision }),
        headers: { cookie, origin: base(), "content-type": "application/x-www-form-urlencoded" },
        redirect: "manual"
      })
      return { status: answered.status, location: answered.headers.get("location"), text }
    }

    /**
     * The same in Chromium: with the session's cookie, or signing in first as `email` (the authorization URL comes
     * back after the sign-in link); the person clicks Allow. The URL the browser is sent to, and the page's text.
     */
    const consentInBrowser = async (url: URL, as: { cookie: string } | { email: string }, shot: string) => {
      const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await context.newPage()
      // Nothing listens at the client's redirect URI: the request is caught and answered here.
      let sentTo: string | undefined
      await page.route(`${redirectUri}**`, async (route) => {
        sentTo = route.request().url()
        await route.fulfill({ status: 200, contentType: "text/plain", body: "ok" })
      })
      if ("cookie" in as) {
        const [name = "", value = ""] = as.cookie.split("=")
        await context.addCookies([{ name, value, url: base() }])
        await page.goto(url.href)
      } else {
        await page.goto(url.href)
        expect(new URL(page.url()).pathname).toBe("/dashboard/sign-in")
        const outbox = join(suite.dataDir, "outbox")
        const before = mailsTo(outbox, as.email).length
        await page.fill('[data-testid="sign-in"] input[name=email]', as.email)
        await page.click('[data-testid="sign-in"] button[type="submit"]')
        await page.waitForLoadState()
        await page.goto(await linkFor(outbox, as.email, before + 1))
        await page.click('[data-testid="confirm-sign-in"]')
        await page.waitForURL((at) => at.pathname === "/dashboard/oauth/authorize")
      }
      const text = (await page.textContent("main")) ?? ""
      await inspect(page, `oauth-consent-${shot}`)
      await page.click("button[name=decision][value=allow]")
      await page.waitForURL(`${redirectUri}**`)
      await context.close()
      return { location: sentTo ?? null, text }
    }

    const provider = (cookie: string, useMetadataDocument: boolean, inBrowser?: { email: string } | "cookie") => {
      const store: Record<string, unknown> = {}
      let callback: URL | undefined
      let consentPage = ""
      const p: OAuthClientProvider & {
        callback: () => URL | undefined
        consentPage: () => string
        store: typeof store
      } = {
        ...(useMetadataDocument ? { clientMetadataUrl: `https://127.0.0.1:${metadataPort}/client.json` } : {}),
        get redirectUrl() {
          return redirectUri
        },
        get clientMetadata() {
          return {
            client_name: "Registered Agent",
            redirect_uris: [redirectUri],
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"],
            token_endpoint_auth_method: "none"
          }
        },
        state: () => (store["state"] = randomBytes(8).toString("hex")) as string,
        clientInformation: () => store["client"] as never,
        saveClientInformation: (info) => void (store["client"] = info),
        tokens: () => store["tokens"] as never,
        saveTokens: (tokens) => void (store["tokens"] = tokens),
        saveCodeVerifier: (verifier) => void (store["verifier"] = verifier),
        codeVerifier: () => store["verifier"] as string,
        saveDiscoveryState: (state) => void (store["discovery"] = state),
        discoveryState: () => store["discovery"] as never,
        redirectToAuthorization: async (url) => {
          const shot = useMetadataDocument ? "document" : "registered"
          const answer =
            inBrowser === undefined
              ? await consent(url, cookie)
              : await consentInBrowser(url, inBrowser === "cookie" ? { cookie } : inBrowser, shot)
          consentPage = answer.text
          callback = new URL(answer.location ?? "")
        },
        callback: () => callback,
        consentPage: () => consentPage,
        store
      }
      return p
    }

    /** The whole flow with the official client: 401, discovery, authorization, token, then tools. */
    const connectWithOAuth = async (
      cookie: string,
      useMetadataDocument: boolean,
      inBrowser?: { email: string } | "cookie"
    ) => {
      const auth = provider(cookie, useMetadataDocument, inBrowser)
      const first = new Client({ name: "oauth-test", version: "1.0.0" })
      const refused = await first
        .connect(new StreamableHTTPClientTransport(new URL(resource()), { authProvider: auth }))
        .then(
          () => undefined,
          (error: unknown) => error
        )
      expect(refused).toBeInstanceOf(UnauthorizedError)
      const callback = auth.callback()
      expect(callback?.searchParams.get("state")).toBe(auth.store["state"])
      expect(callback?.searchParams.get("iss")).toBe(base())
      const transport = new StreamableHTTPClientTransport(new URL(resource()), { authProvider: auth })
      await transport.finishAuth(callback?.searchParams ?? new URLSearchParams())
      const client = new Client({ name: "oauth-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(resource()), { authProvider: auth }))
      return { client, auth }
    }

    it("answers 401 with the resource metadata, and publishes both metadata documents", async () => {
      const refused = await fetch(resource(), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}"
      })
      expect(refused.status).toBe(401)
      const challenge = refused.headers.get("www-authenticate") ?? ""
      expect(challenge).toContain(`resource_metadata="${base()}/.well-known/oauth-protected-resource/mcp"`)
      const metadata = (await (await fetch(`${base()}/.well-known/oauth-protected-resource/mcp`)).json()) as {
        resource: string
        authorization_servers: Array<string>
      }
      expect(metadata.resource).toBe(resource())
      expect(metadata.authorization_servers).toEqual([base()])
      const server = (await (await fetch(`${base()}/.well-known/oauth-authorization-server`)).json()) as Record<
        string,
        unknown
      >
      expect(server["issuer"]).toBe(base())
      expect(server["code_challenge_methods_supported"]).toEqual(["S256"])
      expect(server["client_id_metadata_document_supported"]).toBe(true)
      expect(server["revocation_endpoint"]).toBe(`${base()}/oauth/revoke`)
    })

    it("connects the official MCP client by metadata document and by DCR, consent given in Chromium", async () => {
      const email = `oauth-${Date.now()}@example.com`
      const cookie = await signIn(email)
      for (const byDocument of [true, false]) {
        // By document, the person is not signed in in the browser yet: the sign-in brings them back to the consent.
        const { client, auth } = await connectWithOAuth(cookie, byDocument, byDocument ? { email } : "cookie")
        expect(auth.consentPage()).toContain(byDocument ? "Metadata Agent" : "Registered Agent")
        expect(auth.consentPage()).toContain("127.0.0.1:33418")
        // By document, the client id is the document's URL (and the name on the page came from the document).
        const clientId = (auth.store["client"] as { client_id?: string } | undefined)?.client_id
        if (byDocument) expect(clientId).toBe(`https://127.0.0.1:${metadataPort}/client.json`)
        else expect(clientId).toMatch(/^tc_/u)
        const tools = await client.listTools()
        expect(tools.tools.map((t) => t.name)).toContain("search_tenders")
        const result = await client.callTool({ name: "search_tenders", arguments: { q: "road" } })
        expect(result.isError).not.toBe(true)
        await client.close()
      }
      const context = await browser!.newContext({ viewport: { width: 1280, height: 900 } })
      const [name = "", value = ""] = cookie.split("=")
      await context.addCookies([{ name, value, url: base() }])
      const page = await context.newPage()
      await page.goto(`${base()}/dashboard/apps`)
      expect(await page.locator('[data-testid="app-row"]').count()).toBe(2)
      await inspect(page, "oauth-apps")
      await context.close()
    }, 60_000)

    it("refuses a wrong resource, a foreign redirect_uri, a PKCE mismatch, a code used twice", async () => {
      const cookie = await signIn(`refusals-${Date.now()}@example.com`)
      const registered = (await (
        await fetch(`${base()}/oauth/register`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ client_name: "Raw", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" })
        })
      ).json()) as { client_id: string }
      const authorize = (params: Record<string, string>) => {
        const url = new URL(`${base()}/dashboard/oauth/authorize`)
        for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
        return url
      }
      const { verifier, challenge } = pkce()
      const request = {
        response_type: "code",
        client_id: registered.client_id,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state: "s1",
        resource: resource()
      }
      const wrongResource = await consent(authorize({ ...request, resource: "https://elsewhere.example/mcp" }), cookie)
      // Refused on the page, with a link back to the app carrying the error (followed only by a click).
      expect(wrongResource.status).toBe(400)
      expect(wrongResource.location).toBeNull()
      const back = /href="([^"]+)"\s+data-testid="return-to-app"/u.exec(wrongResource.text)
      const backTo = new URL((back?.[1] ?? "").replaceAll("&amp;", "&"))
      expect(backTo.searchParams.get("error")).toBe("invalid_target")
      expect(`${backTo.origin}${backTo.pathname}`).toBe(redirectUri)
      const foreign = await consent(authorize({ ...request, redirect_uri: "https://attacker.example/cb" }), cookie)
      expect(foreign.status).toBe(400) // shown, never redirected to an address the client did not register
      expect(foreign.location).toBeNull()
      const doubled = authorize(request)
      doubled.searchParams.append("resource", "https://elsewhere.example/mcp")
      const twice = await consent(doubled, cookie)
      expect(twice.status).toBe(400) // a parameter given twice is refused, not read as absent
      expect(twice.text).toContain("resource given more than once")

      const token = (values: Record<string, string>) =>
        fetch(`${base()}/oauth/token`, form({ client_id: registered.client_id, redirect_uri: redirectUri, ...values }))
      const codeOf = async () =>
        new URL((await consent(authorize(request), cookie)).location ?? "").searchParams.get("code") ?? ""
      const mismatched = await token({
        grant_type: "authorization_code",
        code: await codeOf(),
        code_verifier: pkce().verifier
      })
      expect(mismatched.status).toBe(400)
      expect(((await mismatched.json()) as { error: string }).error).toBe("invalid_grant")

      const code = await codeOf()
      const issued = await token({
        grant_type: "authorization_code",
        code,
        code_verifier: verifier,
        resource: resource()
      })
      expect(issued.status).toBe(200)
      const tokens = (await issued.json()) as { access_token: string; refresh_token: string }
      expect((await mcpCall(tokens.access_token)).status).toBe(200)
      const again = await token({ grant_type: "authorization_code", code, code_verifier: verifier })
      expect(((await again.json()) as { error: string }).error).toBe("invalid_grant")
      expect((await mcpCall(tokens.access_token)).status).toBe(401) // the code's grant is revoked
    })

    it("answers a body over the server's limit with 413, in the token endpoint's and the dashboard's words", async () => {
      const large = "x".repeat(70 * 1024)
      const tokenRequest = await fetch(`${base()}/oauth/token`, form({ grant_type: "refresh_token", padding: large }))
      expect(tokenRequest.status).toBe(413)
      expect(await tokenRequest.json()).toEqual({
        error: "invalid_request",
        error_description: "the body is too large"
      })
      const cookie = await signIn(`large-${Date.now()}@example.com`)
      const keyForm = await fetch(`${base()}/dashboard/keys`, {
        method: "POST",
        headers: {
          cookie,
          origin: base(),
          "accept-language": "ru",
          "content-type": "application/x-www-form-urlencoded"
        },
        body: new URLSearchParams({ kind: "rest", note: large }).toString()
      })
      // Not read as an empty form (whose missing form token would say "expired", 403): too large, in Russian.
      expect(keyForm.status).toBe(413)
      expect(await keyForm.text()).toContain("Форма слишком большая")
    })

    it("rotates refresh tokens, revokes the grant on reuse, ends revoked grants", async () => {
      const cookie = await signIn(`refresh-${Date.now()}@example.com`)
      const { client, auth } = await connectWithOAuth(cookie, false)
      await client.close()
      const clientId = (auth.store["client"] as { client_id: string }).client_id
      const first = auth.store["tokens"] as { access_token: string; refresh_token: string }
      const refresh = (refreshToken: string) =>
        fetch(
          `${base()}/oauth/token`,
          form({ grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId })
        )
      const rotated = (await (await refresh(first.refresh_token)).json()) as {
        access_token: string
        refresh_token: string
      }
      expect(rotated.refresh_token).not.toBe(first.refresh_token)
      expect((await mcpCall(rotated.access_token)).status).toBe(200)
      const reused = await refresh(first.refresh_token)
      expect(((await reused.json()) as { error: string }).error).toBe("invalid_grant")
      expect((await mcpCall(rotated.access_token)).status).toBe(401) // the whole grant is revoked

      // Revoked from the dashboard: the grant's tokens stop working at once.
      const second = await connectWithOAuth(cookie, false)
      await second.client.close()
      const current = (second.auth.store["tokens"] as { access_token: string }).access_token
      const apps = await (await fetch(`${base()}/dashboard/apps`, { headers: { cookie } })).text()
      const csrf = hiddenFields(apps)["csrf"] ?? ""
      const revokePath = [...apps.matchAll(/action="(\/dashboard\/apps\/[^"]+\/revoke)"/gu)].at(0)?.[1] ?? ""
      const revoked = await fetch(`${base()}${revokePath}`, {
        ...form({ csrf }),
        headers: { cookie, origin: base(), "content-type": "application/x-www-form-urlencoded" },
        redirect: "manual"
      })
      expect(revoked.status).toBe(303)
      expect((await mcpCall(current)).status).toBe(401)
      // Revoked already: the dashboard's own 404 page, not the API's JSON error.
      const again = await fetch(`${base()}${revokePath}`, {
        ...form({ csrf }),
        headers: { cookie, origin: base(), "content-type": "application/x-www-form-urlencoded" },
        redirect: "manual"
      })
      expect(again.status).toBe(404)
      expect(again.headers.get("content-type")).toMatch(/^text\/html/u)

      // Revoked by the client (RFC 7009): its refresh token ends the grant, the access token with it.
      const third = await connectWithOAuth(cookie, false)
      await third.client.close()
      const ended = third.auth.store["tokens"] as { access_token: string; refresh_token: string }
      const thirdClient = (third.auth.store["client"] as { client_id: string }).client_id
      expect((await mcpCall(ended.access_token)).status).toBe(200)
      const revocation = await fetch(
        `${base()}/oauth/revoke`,
        form({ token: ended.refresh_token, token_type_hint: "refresh_token", client_id: thirdClient })
      )
      expect(revocation.status).toBe(200)
      expect((await mcpCall(ended.access_token)).status).toBe(401)
    }, 60_000)
  })
}
