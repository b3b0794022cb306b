// The loopback stand-ins of the fleet test (fleet.test.ts): a TED feed that serves recorded notices page by page and
// holds a page while the test says so, and an HTTPS webhook receiver that holds calls while the test says so.
import { readFileSync } from "node:fs"
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from "node:http"
import { createServer as createHttpsServer } from "node:https"
import type { AddressInfo } from "node:net"
import { join } from "node:path"

const recorded = JSON.parse(
  readFileSync(
    join(
      import.meta.dirname,
      "..",
      "..",
      "adapters-sources",
      "test",
      "fixtures",
      "ted",
      "search-response-es-links-per-language.json"
    ),
    "utf8"
  )
) as { notices: Array<Record<string, unknown>> }

/** The recorded notice as page `page` (1-based) carries it: its own publication number, its dates near today. */
const noticeOfPage = (page: number) => {
  const deadline = new Date(Date.now() + 10 * 86_400_000).toISOString()
  return {
    ...recorded.notices[0],
    "publication-number": `${910_000 + page}-2026`,
    "publication-date": `${new Date().toISOString().slice(0, 10)}+00:00`,
    "deadline-receipt-tender-date-lot": [`${deadline.slice(0, 10)}+00:00`],
    "deadline-receipt-tender-time-lot": [`${deadline.slice(11, 19)}+00:00`]
  }
}

/** The tender id of page `page`'s notice. */
export const tenderOfPage = (page: number) => `ted-${910_000 + page}-2026`

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
    req.on("end", () => resolve(body))
  })

const listen = async (
  server: { listen: (port: number, host: string, cb: () => void) => unknown },
  address: () => unknown
) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return (address() as AddressInfo).port
}

/** One request of a page: the replica that asked (from its base URL's `/r<i>`), the token, and what happened. */
export interface PageRequest {
  readonly replica: number
  readonly token: string | null
  /** The page served (1-based), 0 for an empty page; null while held. */
  served: number | null
  /** The asking connection went away before an answer (its replica was killed). */
  dropped: boolean
}

/**
 * TED's Search API on loopback, in ITERATION mode: `pages` pages of one recorded notice each, chained by the tokens
 * `t2` ... `t<pages>`. Until `open()`, and after the last page, a run's first request gets an empty page (a run
 * with nothing new). A request waits while `hold(request)` answers a promise; the test releases it, or kills its
 * replica. The other two sources get nothing new (an empty RSS; gnumner answers 404).
 */
export const tedFeed = async (pages: number, hold: (request: PageRequest) => Promise<void> | undefined) => {
  const requests: Array<PageRequest> = []
  let opened = false
  let firstServed = false
  const page = (n: number) => ({
    notices: n === 0 ? [] : [noticeOfPage(n)],
    totalNoticeCount: n === 0 ? 0 : 1,
    timedOut: false,
    iterationNextToken: n === 0 || n === pages ? null : `t${n + 1}`
  })
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    void readBody(req).then(async (body) => {
      const ted = /^\/r(\d+)\/v3\/notices\/search/u.exec(req.url ?? "")
      if (ted === null) {
        if ((req.url ?? "").includes("rss")) {
          res.writeHead(200, { "content-type": "application/rss+xml" })
          res.end(
            `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>EIS</title></channel></rss>`
          )
        } else res.writeHead(404).end()
        return
      }
      const token = (JSON.parse(body) as { iterationNextToken?: string }).iterationNextToken ?? null
      const request: PageRequest = { replica: Number(ted[1]), token, served: null, dropped: false }
      requests.push(request)
      req.socket.once("close", () => (request.dropped = request.served === null))
      const wait = hold(request)
      if (wait !== undefined) await wait
      if (request.dropped) return
      const n = token === null ? (opened && !firstServed ? 1 : 0) : Number(token.slice(1))
      if (n === 1) firstServed = true
      request.served = n
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(page(n)))
    })
  })
  const port = await listen(server, () => server.address())
  return {
    /** The base URL replica `i` reads TED from. */
    baseFor: (i: number) => `http://127.0.0.1:${port}/r${i}`,
    base: `http://127.0.0.1:${port}`,
    requests,
    /** From now on a run's first request gets the first page. */
    open: () => (opened = true),
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    }
  }
}

/** A webhook call as the receiver saw it. */
export interface HookCall {
  readonly id: string
  readonly path: string
  readonly body: string
  readonly headers: Record<string, string>
  answered: boolean
  /** The sender went away before an answer (its replica was killed). */
  dropped: boolean
}

/**
 * An HTTPS webhook receiver on loopback. While holding (the start), calls get no answer; `answerAll()` answers the
 * held calls whose sender is still there with 204, and every later call at once.
 */
export const webhookReceiver = async (certificate: { readonly key: Buffer; readonly cert: Buffer }) => {
  const calls: Array<HookCall> = []
  const waiting = new Map<HookCall, ServerResponse>()
  let holding = true
  const answer = (call: HookCall, res: ServerResponse) => {
    call.answered = true
    res.writeHead(204).end()
  }
  const server = createHttpsServer(certificate, (req, res) => {
    void readBody(req).then((body) => {
      const headers: Record<string, string> = {}
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v
      const call: HookCall = {
        id: headers["webhook-id"] ?? "",
        path: req.url ?? "",
        body,
        headers,
        answered: false,
        dropped: false
      }
      calls.push(call)
      if (!holding) return answer(call, res)
      waiting.set(call, res)
      req.socket.once("close", () => {
        if (!call.answered) call.dropped = true
        waiting.delete(call)
      })
    })
  })
  const port = await listen(server, () => server.address())
  return {
    port,
    calls,
    /** Calls waiting for an answer from a sender still connected. */
    held: () => calls.filter((c) => !c.answered && !c.dropped).length,
    answerAll: () => {
      holding = false
      for (const [call, res] of waiting) answer(call, res)
      waiting.clear()
    },
    close: () => {
      server.closeAllConnections()
      return new Promise((resolve) => server.close(resolve))
    }
  }
}
