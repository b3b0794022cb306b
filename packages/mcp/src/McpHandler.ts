import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport
} from "@modelcontextprotocol/server"
import { callQuotaOf, credentialOf } from "./AuthInfo.ts"
import { maxMcpBodyBytes } from "./JsonRpc.ts"
import { type McpRunner, makeMcpServer } from "./Server.ts"

/** A web-standard MCP endpoint: one fresh server and transport per HTTP request, no sessions. */
export interface McpFetchHandler {
  readonly fetch: (request: Request, authInfo: AuthInfo) => Promise<Response>
  readonly close: () => Promise<void>
}

const methodNotAllowed = () =>
  Response.json(
    {
      jsonrpc: "2.0",
      error: { code: -32000, message: "Method not allowed: this endpoint is stateless; POST JSON-RPC messages." },
      id: null
    },
    { status: 405, headers: { allow: "POST" } }
  )

/**
 * Serves both protocol eras statelessly with JSON responses: 2026-07-28 requests (per-request `_meta`
 * envelope) through the SDK's `createMcpHandler`, 2025-era requests (the `initialize` handshake, versions
 * 2025-11-25 back to 2024-10-07) through a stateless Streamable HTTP transport built per request, as the
 * SDK documents for hand-wired compositions. `authInfo.token` is the caller's already verified token, and
 * `authInfo` carries where a tool call records the quota it left ({@link callQuotaOf}).
 */
export const makeMcpFetchHandler = (run: McpRunner, onError: (error: Error) => void): McpFetchHandler => {
  const modern = createMcpHandler(
    (context) => makeMcpServer(run, credentialOf(context.authInfo), callQuotaOf(context.authInfo)),
    { legacy: "reject", maxRequestBodySize: maxMcpBodyBytes, onerror: onError }
  )
  const legacy = async (request: Request, authInfo: AuthInfo): Promise<Response> => {
    if (request.method !== "POST") return methodNotAllowed()
    const server = makeMcpServer(run, credentialOf(authInfo), callQuotaOf(authInfo))
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: maxMcpBodyBytes
    })
    await server.connect(transport)
    return transport.handleRequest(request, { authInfo }).finally(() => server.close())
  }
  return {
    fetch: async (request, authInfo) =>
      (await isLegacyRequest(request, undefined, { maxRequestBodySize: maxMcpBodyBytes }))
        ? legacy(request, authInfo)
        : modern.fetch(request, { authInfo }),
    close: () => modern.close()
  }
}
