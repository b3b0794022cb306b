import { Context } from "effect"

/**
 * Browser origins allowed to call `/mcp` besides loopback ones: web origins (`https://app.example.com`,
 * matched exactly) or bare hostnames (`app.example.com`, any scheme and port). Empty by default.
 */
export const McpAllowedOrigins = Context.Reference<ReadonlyArray<string>>("@tenders/mcp/McpAllowedOrigins", {
  defaultValue: () => []
})

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/**
 * DNS-rebinding protection: a request without `Origin` (agents, CLIs, servers) passes; a browser request
 * passes only from a loopback origin (http or https, any port) or an allowed one. An unparseable or
 * opaque (`null`) origin is refused.
 */
export const originAllowed = (origin: string | undefined, allowed: ReadonlyArray<string>): boolean => {
  if (origin === undefined || origin.length === 0) return true
  const url = URL.parse(origin)
  if (url === null || (url.protocol !== "http:" && url.protocol !== "https:")) return false
  if (loopbackHosts.has(url.hostname)) return true
  return allowed.some((entry) =>
    entry.includes("://") ? URL.parse(entry)?.origin === url.origin : entry.toLowerCase() === url.hostname
  )
}

/** CORS headers for an allowed browser origin, so browser-based MCP clients can read the answers. */
export const corsHeaders = (origin: string | undefined): Record<string, string> =>
  origin === undefined || origin.length === 0
    ? {}
    : {
        "access-control-allow-origin": origin,
        "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate",
        vary: "origin"
      }

/** The answer to a CORS preflight from an allowed origin. */
export const preflightHeaders: Record<string, string> = {
  "access-control-allow-methods": "POST, OPTIONS",
  "access-control-allow-headers":
    "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id",
  "access-control-max-age": "600"
}
