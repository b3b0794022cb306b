import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"

/** One request as the fake server saw it. */
export interface SeenRequest {
  readonly method: string
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

/** How the fake server answers one request. */
export type Reply = (res: ServerResponse, req: SeenRequest) => void

/** Answers with a JSON body. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (res) => {
    res.writeHead(status, { "content-type": "application/json", ...headers })
    res.end(JSON.stringify(body))
  }

/** Answers with the contract's error body. */
export const errorBody = (status: number, code: string, message: string, headers: Record<string, string> = {}): Reply =>
  json(status, { error: { code, message } }, headers)

/** Drops the connection without an answer (a network error for the client). */
export const hangUp: Reply = (res) => {
  res.socket?.destroy()
}

/** Never answers (until the client gives up or the server closes). */
export const silence: Reply = () => undefined

/**
 * A local HTTP server that answers each request with the next queued reply (404 once the queue is empty) and
 * records what it received.
 */
export const startFakeServer = async () => {
  const replies: Array<Reply> = []
  const requests: Array<SeenRequest> = []
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (chunk) => (body += String(chunk)))
    req.on("end", () => {
      const seen: SeenRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body }
      requests.push(seen)
      const reply = replies.shift() ?? errorBody(404, "not_found", "no reply queued")
      reply(res, seen)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    base: `http://127.0.0.1:${port}`,
    requests,
    /** Queues replies for the next requests, in order. */
    reply: (...next: ReadonlyArray<Reply>) => {
      replies.push(...next)
    },
    reset: () => {
      replies.length = 0
      requests.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
