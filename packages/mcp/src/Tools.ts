import {
  AlertsResponse,
  createWatchlist,
  FullTender,
  getTender,
  listAlerts,
  SearchRequest,
  SearchResponse,
  searchTenders,
  WatchlistCreated,
  WatchlistInput
} from "@tenders/core"
import { Schema } from "effect"
import { defineTool } from "./Tool.ts"

/** The arguments of `get_tender`: the path parameter of GET /v1/tenders/{id}. */
export const GetTenderInput = Schema.Struct({ id: Schema.String })

/** The arguments of `get_deadline_alerts`: GET /v1/alerts takes none, so any property is unknown. */
export const NoInput = Schema.Record(Schema.String, Schema.Never.annotate({ message: "Unexpected key" }))

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

/** `search_tenders`: POST /v1/tenders/search. */
export const searchTendersTool = defineTool({
  name: "search_tenders",
  title: "Search open tenders",
  description: [
    "Search public procurement tenders that are still open for bids, from TED (EU), gnumner/ARMEPS (Armenia) and zakupki.gov.ru (Russia/EAEU), in one index.",
    "Use it to find calls for bids matching a need. `q` (required, at most 500 characters) is free text in English, Russian or Armenian.",
    "Returns at most `limit` tender cards (1 to 20, default 10), best match first, then nearest deadline; `hint` suggests how to broaden a query with few results and `degradedSources` lists sources whose data may be stale.",
    "Structured filters need the Pro or Business plan (on the Free plan any of them fails with plan_required, so search with q alone): `countries` (ISO 3166-1 alpha-2 codes), `cpv` (CPV codes or prefixes such as 45233), `minBudget`/`maxBudget` (budgets are compared in each tender's own currency unless `budgetCurrency` is set, which converts them at fixed quarterly reference rates and skips tenders in other currencies), `deadlineAfter` (YYYY-MM-DD or a date-time with Z or an offset).",
    "Call get_tender with a result's id for the full card. Each call counts against the monthly quota."
  ].join(" "),
  annotations: readOnly,
  input: SearchRequest,
  output: SearchResponse,
  run: (request, caller) => searchTenders(request, caller.account.plan)
})

/** `get_tender`: GET /v1/tenders/{id}. */
export const getTenderTool = defineTool({
  name: "get_tender",
  title: "Get one tender in full",
  description: [
    "Get the full card of one tender by its `id`, exactly as given in search_tenders results or alerts, in any status (open, amended, cancelled, closed).",
    "Use it before advising on a tender: it adds the status, publication and update dates, region and number of lots to the search card,",
    "and on the Pro and Business plans the CPV and OKPD2 codes, the lots and the document links (omitted on the Free plan).",
    "An unknown id fails with not_found. Each call counts against the monthly quota."
  ].join(" "),
  annotations: readOnly,
  input: GetTenderInput,
  output: FullTender,
  run: ({ id }, caller) => getTender(id, caller.account.plan)
})

/** `add_to_watchlist`: POST /v1/watchlists. */
export const addToWatchlistTool = defineTool({
  name: "add_to_watchlist",
  title: "Save filters as a watchlist",
  description: [
    "Save search filters as a named watchlist so the user is alerted when a tender newly matches, is amended, or enters its last 24 hours before the deadline.",
    "Use it when the user wants to follow a kind of tender over time, not for a one-off search (use search_tenders for that).",
    "`name` is 1 to 100 characters; `filters` takes the fields of search_tenders except `limit`, all optional, but filters that match everything (no word in q and no structured filter) fail with invalid_input.",
    "Alerts go by e-mail unless `channels.email` is false, optionally to an HTTPS `channels.webhook` as signed JSON, and are listed by get_deadline_alerts.",
    "Structured filters and webhooks need the Pro or Business plan (plan_required on Free); each plan allows a limited number of watchlists (limit_reached).",
    "Returns the watchlist id and how many open tenders match today. Each call counts against the monthly quota."
  ].join(" "),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: WatchlistInput,
  output: WatchlistCreated,
  run: (input, caller) => createWatchlist(input, caller.account)
})

/** `get_deadline_alerts`: GET /v1/alerts. */
export const getDeadlineAlertsTool = defineTool({
  name: "get_deadline_alerts",
  title: "List open alerts",
  description: [
    "List the open alerts raised from the user's watchlists, nearest tender deadline first, at most 50:",
    "tenders that newly match a watchlist (reason new), were amended (amended) or close within 24 hours (deadline-24h).",
    "Use it to see which tenders need attention now; create watchlists with add_to_watchlist first. Takes no arguments.",
    "Each call counts against the monthly quota."
  ].join(" "),
  annotations: readOnly,
  input: NoInput,
  output: AlertsResponse,
  run: (_input, caller) => listAlerts(caller.account.id)
})

/** The four tools, in the order `tools/list` shows them. */
export const tools = [searchTendersTool, getTenderTool, addToWatchlistTool, getDeadlineAlertsTool] as const
