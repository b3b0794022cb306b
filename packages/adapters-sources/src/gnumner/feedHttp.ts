import type { SourceUnavailable } from "@tenders/core"
import { Effect, Predicate, Result } from "effect"
import { type HttpClientError, HttpClientRequest } from "effect/http"
import { type AttemptFailure, type Reply, statusFailure } from "../http/AttemptFailure.ts"
import { makeFeedFetch } from "../http/FeedHttp.ts"
import type { FeedHttpPolicy } from "../http/FeedHttpPolicy.ts"

/**
 * A resource read: its bytes and their UTF-8 text (HTML pages, DOCX invitations), or the host said it does not exist
 * (404 / 410).
 */
export type Fetched =
  { readonly _tag: "page"; readonly html: string; readonly bytes: Uint8Array } | { readonly _tag: "notFound" }

/** Reads pages one at a time; fails with SourceUnavailable only when retries cannot help. */
export type PageFetcher = (url: string) => Effect.Effect<Fetched, SourceUnavailable>

const utf8 = new TextDecoder("utf-8")

const TLS_CODE = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/u

/** `code` and `message` of an error and its `cause` chain. */
const causeChain = (
  error: unknown
): ReadonlyArray<{ readonly code: string | null; readonly message: string | null }> => {
  const chain: Array<{ readonly code: string | null; readonly message: string | null }> = []
  let current: unknown = error
  for (let depth = 0; depth < 8 && Predicate.isObject(current); depth++) {
    const code = Predicate.hasProperty(current, "code") && Predicate.isString(current.code) ? current.code : null
    const message =
      Predicate.hasProperty(current, "message") && Predicate.isString(current.message) ? current.message : null
    chain.push({ code, message })
    current = Predicate.hasProperty(current, "cause") ? current.cause : undefined
  }
  return chain
}

const hostOf = (url: string): string => (URL.canParse(url) ? new URL(url).hostname : url)

/** The reason of a request without response, naming the TLS switch when the certificate was refused. */
const describeFailure =
  (insecureTlsHosts: ReadonlyArray<string>) =>
  (error: HttpClientError.HttpClientError): string => {
    const transport = error.reason
    const chain = causeChain(Predicate.hasProperty(transport, "cause") ? transport.cause : transport)
    const tls = chain.find((c) => c.code !== null && TLS_CODE.test(c.code))
    const detail = chain.at(-1)?.message ?? chain.at(0)?.message ?? error.message
    if (tls !== undefined) {
      const host = hostOf(error.request.url)
      const hint = insecureTlsHosts.includes(host)
        ? `${host} is already in TENDERS_GNUMNER_INSECURE_TLS_HOSTS`
        : `if the site's certificate is known to be broken, add "${host}" to TENDERS_GNUMNER_INSECURE_TLS_HOSTS`
      return `TLS error (${tls.code}: ${tls.message ?? detail}); ${hint}`
    }
    const code = chain.find((c) => c.code !== null)?.code
    return `request failed: ${detail}${code === undefined ? "" : ` (${code})`}`
  }

/** A page or document, a 404 / 410 as "not found", else what the status says (retry 5xx and 408, fail on the rest). */
const readPage = (reply: Reply): Result.Result<Fetched, AttemptFailure> => {
  const status = reply.response.status
  if (status === 404 || status === 410) return Result.succeed({ _tag: "notFound" })
  const byStatus = statusFailure(reply)
  return byStatus === undefined
    ? Result.succeed({ _tag: "page", html: utf8.decode(reply.body), bytes: reply.body })
    : Result.fail(byStatus)
}

const ACCEPT = [
  "text/html",
  "application/xhtml+xml",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document;q=0.9",
  "*/*;q=0.8"
].join(",")

/** The gnumner hosts through the feed HTTP policy: GET, paced, retried, TLS failures named. */
export const makePageFetcher = Effect.fn("makePageFetcher")(function* (
  policy: FeedHttpPolicy,
  insecureTlsHosts: ReadonlyArray<string>
) {
  const fetch = yield* makeFeedFetch("gnumner", policy, describeFailure(insecureTlsHosts))
  const fetchPage: PageFetcher = (url) =>
    fetch(`GET ${url}`, HttpClientRequest.get(url, { headers: { accept: ACCEPT } }), readPage)
  return fetchPage
})
