import type { FeedPage, FeedStart, ParsedNotice, SourceFeed, SourceUnavailable } from "@tenders/core"
import { DateTime, Effect, Option, Ref, Stream } from "effect"
import { defaultFeedHttpPolicy, type FeedHttpPolicy } from "../http/FeedHttpPolicy.ts"
import { decodeCursor, encodeCursor, laterIso } from "./feedCursor.ts"
import type { SectionCursor } from "./feedCursor.ts"
import { readDetails, readInvitationLots } from "./feedDetails.ts"
import { makePageFetcher, type PageFetcher } from "./feedHttp.ts"
import { parseGnumnerListing } from "./listing.ts"
import { ARMENIAN_TENDER_SECTIONS, RUSSIAN_TENDER_SECTIONS, sectionMeaning } from "./notice.ts"

export { gnumnerHttpClientLayer } from "./feedTls.ts"

/** Settings of the gnumner listing feed. */
export interface GnumnerFeedConfig extends FeedHttpPolicy {
  readonly baseUrl: string
  readonly language: "hy" | "ru"
  /** Listing section slugs, read in this order. */
  readonly sections: ReadonlyArray<string>
  readonly maxPagesPerSection: number
  /** Follow the ARMEPS / eAuction links of new items (buyer, CPV, richer title) and read their invitation DOCX lots. */
  readonly fetchDetails: boolean
  /** TENDERS_GNUMNER_INSECURE_TLS_HOSTS; the feed only names it in errors, `gnumnerHttpClientLayer` applies it. */
  readonly insecureTlsHosts: ReadonlyArray<string>
  readonly lookbackDays: number
}

const CHANGES_FAILED_CONTRACTS: ReadonlyArray<string> = [
  "hraverum_katarvats_popokhutyunner",
  "chkayacats_gnman_yntacakargi_masin_haytararutyunner",
  "paymanagir_knqelu_masin_haytararutyun",
  "knqvats_paymanagri_masin_haytararutyun"
]

/** The tender, changes, failed and contract sections the listing parser knows, for a UI language. */
export const defaultGnumnerSections = (language: "hy" | "ru"): ReadonlyArray<string> => [
  ...(language === "ru" ? RUSSIAN_TENDER_SECTIONS : ARMENIAN_TENDER_SECTIONS),
  ...CHANGES_FAILED_CONTRACTS
]

/** The defaults of every setting (sections follow the language): one request every 2 s, 4 attempts. */
export const gnumnerFeedDefaults = (config: Partial<GnumnerFeedConfig> = {}): GnumnerFeedConfig => {
  const language = config.language ?? "hy"
  return {
    ...defaultFeedHttpPolicy,
    minIntervalMs: 2000,
    maxAttempts: 4,
    baseUrl: "https://gnumner.minfin.am",
    sections: defaultGnumnerSections(language),
    maxPagesPerSection: 5,
    fetchDetails: true,
    insecureTlsHosts: [],
    lookbackDays: 7,
    ...config,
    language
  }
}

/** A listing notice newer than the section's floor (undated notices always count as new). */
const isNew = (notice: ParsedNotice, floor: DateTime.Utc): boolean =>
  notice.record.publishedAt === null ||
  Option.exists(DateTime.make(notice.record.publishedAt), (published) => DateTime.isGreaterThan(published, floor))

interface SectionState {
  readonly page: number
  /** Newest publication time read in this section so far (committed to the cursor when the section ends). */
  readonly newest: string | null
}

interface RunState {
  readonly config: GnumnerFeedConfig
  readonly fetch: PageFetcher
  readonly floorOf: (slug: string) => DateTime.Utc
  /** Cursor sections, updated when a section is read to its end. */
  readonly committed: Ref.Ref<SectionCursor>
  /** The cursor of the last emitted page (a section end emits an empty page only when the cursor moved). */
  readonly lastCursor: Ref.Ref<string>
}

const pageUrlOf = (config: GnumnerFeedConfig, slug: string, page: number): string => {
  const base = `${config.baseUrl.replace(/\/+$/u, "")}/${config.language}/page/${slug}/`
  return page === 1 ? base : `${base}${page}`
}

/** One section as pages: page 1, 2, ... until an empty page, a 404, a page with nothing new, or the page limit. */
const sectionPages = (run: RunState, slug: string): Stream.Stream<FeedPage, SourceUnavailable> =>
  Stream.paginate<SectionState, FeedPage, SourceUnavailable>(
    { page: 1, newest: null },
    Effect.fnUntraced(function* (state) {
      const { config } = run
      const pageUrl = pageUrlOf(config, slug, state.page)
      const fetched = yield* run.fetch(pageUrl)
      const listing =
        fetched._tag === "page"
          ? parseGnumnerListing(fetched.html, { section: slug, pageUrl })
          : { notices: [], rejected: [] }
      const floor = run.floorOf(slug)
      const fresh = listing.notices.filter((n) => isNew(n, floor))
      const stop =
        fetched._tag === "notFound" ||
        listing.notices.length + listing.rejected.length === 0 ||
        (listing.notices.length > 0 && fresh.length === 0)
      const newest = fresh.reduce<string | null>((acc, n) => laterIso(acc, n.record.publishedAt), state.newest)
      const last = stop || state.page >= Math.max(1, config.maxPagesPerSection)
      if (last && newest !== null) {
        yield* Ref.update(run.committed, (c) => ({ ...c, [slug]: laterIso(c[slug] ?? null, newest) ?? newest }))
      }
      const cursor = encodeCursor(yield* Ref.get(run.committed))
      const moved = cursor !== (yield* Ref.getAndSet(run.lastCursor, cursor))
      if (stop) return [moved ? [{ results: [], cursor }] : [], Option.none()] as const
      const lots = config.fetchDetails ? yield* readInvitationLots(run.fetch, fresh) : { notices: fresh, rejected: [] }
      const details = config.fetchDetails ? yield* readDetails(run.fetch, fresh) : []
      const listed = { notices: lots.notices, rejected: [...listing.rejected, ...lots.rejected] }
      const page: FeedPage = { results: [listed, ...details], cursor }
      return [[page], last ? Option.none() : Option.some({ page: state.page + 1, newest })] as const
    })
  )

/** Clarification sections yield nothing and are not read; an unknown slug is one rejection, not a crawl. */
const knownSectionPages = (run: RunState, slug: string): Stream.Stream<FeedPage, SourceUnavailable> => {
  const meaning = sectionMeaning(slug)
  if (meaning === "skip") return Stream.empty
  if (meaning !== "unknown") return sectionPages(run, slug)
  return Stream.fromEffect(
    Effect.map(Ref.get(run.lastCursor), (cursor): FeedPage => ({
      results: [
        {
          notices: [],
          rejected: [{ where: pageUrlOf(run.config, slug, 1), reason: `unknown gnumner section "${slug}"` }]
        }
      ],
      cursor
    }))
  )
}

/**
 * The gnumner.minfin.am listing feed (plus ARMEPS / eAuction detail pages and invitation DOCX lots),
 * resumable per section.
 */
export const makeGnumnerFeed = Effect.fn("makeGnumnerFeed")(function* (config: Partial<GnumnerFeedConfig> = {}) {
  const settings = gnumnerFeedDefaults(config)
  const fetch = yield* makePageFetcher(settings, settings.insecureTlsHosts)
  const startRun = Effect.fnUntraced(function* (start: FeedStart) {
    const incoming = decodeCursor(start.cursor)
    const fallback = start.since ?? DateTime.subtract(yield* DateTime.now, { days: settings.lookbackDays })
    const run: RunState = {
      config: settings,
      fetch,
      floorOf: (slug) => {
        const saved = incoming[slug]
        return saved === undefined ? fallback : DateTime.makeUnsafe(saved)
      },
      committed: yield* Ref.make(incoming),
      lastCursor: yield* Ref.make(encodeCursor(incoming))
    }
    return Stream.fromIterable([...new Set(settings.sections)]).pipe(
      Stream.flatMap((slug) => knownSectionPages(run, slug))
    )
  })
  const feed: SourceFeed = { source: "gnumner", pages: (start) => Stream.unwrap(startRun(start)) }
  return feed
})
