import { randomUUID } from "node:crypto"
import type { FeedPage, FeedStart, SourceFeed, SourceUnavailable } from "@tenders/core"
import { DateTime, Effect, Stream } from "effect"
import { HttpClientRequest } from "effect/http"
import { type FeedFetch, makeFeedFetch } from "../http/FeedHttp.ts"
import { defaultFeedHttpPolicy, type FeedHttpPolicy } from "../http/FeedHttpPolicy.ts"
import { addDays, moscowDay, readCursor, writeCursor } from "./feedCursor.ts"
import type { EisCursor } from "./feedCursor.ts"
import { readRssReply, rssParams } from "./feedRss.ts"
import { readArchiveReply, readSoapReply, soapEnvelope } from "./feedSoap.ts"

/** Settings of the EIS (zakupki.gov.ru) feed. */
export interface EisFeedConfig extends FeedHttpPolicy {
  /** TENDERS_EAEU_TOKEN (getDocsIP personal token); null → the public search RSS. */
  readonly token: string | null
  readonly soapUrl: string
  readonly rssUrl: string
  /** 2-digit `orgRegion` codes queried by the token service. */
  readonly regions: ReadonlyArray<string>
  /** `documentType44` values queried by the token service. */
  readonly documentTypes: ReadonlyArray<string>
  /** Days back from today when there is neither a cursor nor `since`. */
  readonly lookbackDays: number
  /** Maximum RSS pages read per run. */
  readonly rssPages: number
}

/** Defaults: one request a second; Moscow, St Petersburg and Moscow oblast; e-auctions and their lifecycle. */
export const defaultEisFeedConfig: EisFeedConfig = {
  ...defaultFeedHttpPolicy,
  backoffBaseMs: 1000,
  token: null,
  soapUrl: "https://int44.zakupki.gov.ru/eis-integration/services/getDocsIP",
  rssUrl: "https://zakupki.gov.ru/epz/order/extendedsearch/rss.html",
  regions: ["77", "78", "50"],
  documentTypes: ["epNotificationEF2020", "epNotificationCancel", "epProtocolEF2020Final"],
  lookbackDays: 3,
  rssPages: 10
}

const TOKEN_HEADER = "individualPerson_token"

/** The first day to read: the cursor's day, else `since`, else today minus the lookback; never after today. */
const firstDay = (config: EisFeedConfig, start: FeedStart, cursorDay: string | undefined, today: string): string => {
  const day = cursorDay ?? (start.since === null ? addDays(today, -config.lookbackDays) : moscowDay(start.since))
  return day > today ? today : day
}

const cursorDay = (cursor: EisCursor | undefined): string | undefined =>
  cursor === undefined ? undefined : cursor.mode === "token" ? cursor.day : cursor.updatedFrom

interface Position {
  readonly day: string
  readonly index: number
}

const tokenPages = (config: EisFeedConfig, token: string, fetch: FeedFetch, start: FeedStart) =>
  Stream.unwrap(
    Effect.gen(function* () {
      const today = moscowDay(yield* DateTime.now)
      const units = config.regions.flatMap((region) =>
        config.documentTypes.map((documentType) => ({ region, documentType }))
      )
      const saved = readCursor(start.cursor)
      const day = firstDay(config, start, cursorDay(saved), today)
      const done =
        saved?.mode === "token" && saved.day === day
          ? units.findIndex((u) => u.region === saved.region && u.documentType === saved.documentType)
          : -1
      // A finished day moves on, except today: its archives keep growing until midnight, so today is re-read.
      const advance = (p: Position): Position =>
        p.index + 1 < units.length ? { day: p.day, index: p.index + 1 } : { day: addDays(p.day, 1), index: 0 }
      const resumeAt = advance({ day, index: done })
      const initial = resumeAt.day > today ? { day: today, index: 0 } : resumeAt
      const cursorAfter = (p: Position): string => {
        const unit = units[p.index]
        if (unit !== undefined && p.index + 1 < units.length) return writeCursor({ mode: "token", day: p.day, ...unit })
        const next = p.day < today ? addDays(p.day, 1) : today
        return writeCursor({ mode: "token", day: next, region: null, documentType: null })
      }
      const readUnit = Effect.fnUntraced(function* (p: Position, region: string, documentType: string) {
        const envelope = soapEnvelope({
          token,
          requestId: randomUUID(),
          createDateTime: DateTime.formatIso(DateTime.add(yield* DateTime.now, { hours: 3 })).slice(0, 19),
          region,
          documentType,
          day: p.day
        })
        const request = HttpClientRequest.post(config.soapUrl).pipe(
          HttpClientRequest.setHeaders({ SOAPAction: '""', [TOKEN_HEADER]: token }),
          HttpClientRequest.bodyText(envelope, "text/xml; charset=utf-8")
        )
        const urls = yield* fetch(`getDocsIP ${region}/${documentType}/${p.day}`, request, readSoapReply)
        const archives = yield* Effect.forEach(urls, (url) =>
          fetch(
            `archive ${url}`,
            HttpClientRequest.get(url).pipe(HttpClientRequest.setHeader(TOKEN_HEADER, token)),
            readArchiveReply
          )
        )
        return archives.flat()
      })
      return Stream.unfold(
        initial,
        (p): Effect.Effect<readonly [FeedPage, Position] | undefined, SourceUnavailable> => {
          const unit = units[p.index]
          if (unit === undefined || p.day > today) return Effect.succeed(undefined)
          return Effect.map(
            readUnit(p, unit.region, unit.documentType),
            (results) => [{ results, cursor: cursorAfter(p) }, advance(p)] as const
          )
        }
      )
    })
  )

const rssPages = (config: EisFeedConfig, fetch: FeedFetch, start: FeedStart) =>
  Stream.unwrap(
    Effect.gen(function* () {
      const today = moscowDay(yield* DateTime.now)
      const from = firstDay(config, start, cursorDay(readCursor(start.cursor)), today)
      type State = { readonly page: number; readonly latest: string }
      return Stream.unfold({ page: 1, latest: from }, (s: State) => {
        if (s.page > config.rssPages) return Effect.succeed(undefined)
        const request = HttpClientRequest.get(config.rssUrl).pipe(
          HttpClientRequest.appendUrlParams(rssParams(from, s.page)),
          HttpClientRequest.setHeader("Accept", "application/rss+xml, application/xml;q=0.9, */*;q=0.1")
        )
        return Effect.map(fetch(`RSS page ${s.page}`, request, readRssReply), (rss) => {
          if (rss.items === 0) return undefined
          const latest = rss.latest !== undefined && rss.latest > s.latest ? rss.latest : s.latest
          const page: FeedPage = { results: [rss.result], cursor: writeCursor({ mode: "rss", updatedFrom: latest }) }
          return [page, { page: s.page + 1, latest }] as const
        })
      })
    })
  )

/** The EIS feed: the getDocsIP token service (region × type × day ZIP archives) with a token, else the public RSS. */
export const makeEisFeed = Effect.fn("makeEisFeed")(function* (config: Partial<EisFeedConfig> = {}) {
  const settings: EisFeedConfig = { ...defaultEisFeedConfig, ...config }
  const fetch = yield* makeFeedFetch("eaeu", settings)
  const token = settings.token === null || settings.token.trim() === "" ? null : settings.token.trim()
  const feed: SourceFeed = {
    source: "eaeu",
    pages: (start) => (token === null ? rssPages(settings, fetch, start) : tokenPages(settings, token, fetch, start))
  }
  return feed
})
