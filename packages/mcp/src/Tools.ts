import {
  AlertsResponse,
  createWatchlist,
  FullTender,
  getTender,
  listAlerts,
  SearchRequest,
  SearchResponse,
  searchTenders,
  TenderId,
  WatchlistCreated,
  WatchlistInput
} from "@tenders/core"
import { Effect, Schema } from "effect"
import { defineTool } from "./Tool.ts"
import {
  addToWatchlistDescription,
  getDeadlineAlertsDescription,
  getTenderDescription,
  searchTendersDescription
} from "./ToolDescriptions.ts"

/** The arguments of `get_tender`: the path parameter of GET /v1/tenders/{id}, decoded by the same rule. */
export const GetTenderInput = Schema.Struct({ id: TenderId })

/** The arguments of `get_deadline_alerts`: GET /v1/alerts takes none, so any property is unknown. */
export const NoInput = Schema.Record(Schema.String, Schema.Never)

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }

/** `search_tenders`: POST /v1/tenders/search. */
export const searchTendersTool = defineTool({
  name: "search_tenders",
  title: "Search open tenders",
  description: searchTendersDescription,
  annotations: readOnly,
  input: SearchRequest,
  output: SearchResponse,
  run: (request, caller) => searchTenders(request, caller.account.plan)
})

/** `get_tender`: GET /v1/tenders/{id}. */
export const getTenderTool = defineTool({
  name: "get_tender",
  title: "Get one tender in full",
  description: getTenderDescription,
  annotations: readOnly,
  input: GetTenderInput,
  output: FullTender,
  run: ({ id }, caller) => getTender(id, Effect.succeed(caller.account.plan))
})

/** `add_to_watchlist`: POST /v1/watchlists. */
export const addToWatchlistTool = defineTool({
  name: "add_to_watchlist",
  title: "Save filters as a watchlist",
  description: addToWatchlistDescription,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  input: WatchlistInput,
  output: WatchlistCreated,
  run: (input, caller) => createWatchlist(input, caller.account)
})

/** `get_deadline_alerts`: GET /v1/alerts. */
export const getDeadlineAlertsTool = defineTool({
  name: "get_deadline_alerts",
  title: "List open alerts",
  description: getDeadlineAlertsDescription,
  annotations: readOnly,
  input: NoInput,
  output: AlertsResponse,
  run: (_input, caller) => listAlerts(caller.account.id)
})

/** The four tools, in the order `tools/list` shows them. */
export const tools = [searchTendersTool, getTenderTool, addToWatchlistTool, getDeadlineAlertsTool] as const
