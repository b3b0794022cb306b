import { isLoopbackHost } from "@tenders/core"
import { Context, Schema } from "effect"
import { HttpServerResponse } from "effect/http"

/**
 * Browser origins allowed to call `/mcp` besides loopback ones: web origins (`https://app.example.com`,
 * matched exactly) or bare hostnames (`app.example.com`, any scheme and port). Empty by default.
 */
export const McpAllowedOrigins = Context.Reference<ReadonlyArray<string>>("@tenders/mcp/McpAllowedOrigins", {
  defaultValue: () => []
})

/**
 * DNS-rebinding protection: a request without `Origin` (agents, CLIs, servers) passes; a browser request
 * passes only from a loopback origin (http or https, any port) or an allowed one. An unparseable or
 * opaque (`null`) origin is refused.
 */
export const originAllowed = (origin: string | undefined, allowed: ReadonlyArray<string>): boolean => {
  if (origin === undefined || origin.length === 0) return true
  const url = URL.parse(origin)
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return false
  if (isLoopbackHost(url.hostname)) return true
  return allowed.some((entry) =>
    entry.includes("://") ? URL.parse(entry)?.origin === url.origin : entry.toLowerCase() === url.hostname
  )
}

/**
 * `{ "error": { "code": "forbidden", "message" } }`: the body of `/mcp`'s 403 to a browser origin it does not allow.
 * `forbidden` is the MCP transport's code, answered before any tool runs; it is not one of the REST contract's seven.
 */
export const OriginRefused = Schema.Struct({
  error: Schema.Struct({ code: Schema.Literal("forbidden"), message: Schema.String })
}).annotate({ identifier: "McpOriginRefused" })
export type OriginRefused = typeof OriginRefused.Type

/** The 403 answer to a browser `origin` that may not call the MCP endpoint at `path`. */
export const originRefusal = (origin: string | undefined, path: string): HttpServerResponse.HttpServerResponse => {
  const message = [
    `Origin ${origin ?? ""} may not call ${path}:`,
    "only loopback origins and those in TENDERS_MCP_ALLOWED_ORIGINS are allowed."
  ].join(" ")
  const body: OriginRefused = { error: { code: "forbidden", message } }
  return HttpServerResponse.jsonUnsafe(body, { status: 403 })
}

/**
 * CORS headers for an allowed browser origin, so browser-based MCP clients can read the answers; the origin is
 * written back as WHATWG URL serializes it, never as the request's text.
 */
export const corsHeaders = (origin: string | undefined): Record<string, string> => {
  const allowed = origin === undefined ? undefined : URL.parse(origin)?.origin
  return allowed === undefined || allowed === "null"
    ? {}
    : {
        "access-control-allow-origin": allowed,
        "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
        vary: "origin"
      }
}

/** The answer to a CORS preflight from an allowed origin. */
export const preflightHeaders: Record<string, string> = {
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers":
    "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id",
  "access-control-max-age": "600"
}
