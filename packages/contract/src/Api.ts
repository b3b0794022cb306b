import {
  AlertsResponse,
  FullTender,
  HealthReport,
  SearchRequest,
  SearchResponse,
  TenderId,
  WatchlistCreated,
  WatchlistInput
} from "@tenders/core"
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  alertsDescription,
  apiDescription,
  createWatchlistDescription,
  getTenderDescription,
  openApiDescription,
  searchDescription
} from "./ApiDescriptions.ts"
import { Authorization, ReadsBesideAuthorization } from "./Authorization.ts"
import { InternalError, InvalidInputError, LimitReachedError, NotFoundError, PlanRequiredError } from "./ErrorBody.ts"
import { CountsAgainstQuota } from "./RateLimit.ts"

const common = [InvalidInputError, PlanRequiredError, LimitReachedError, InternalError] as const

/** Tender search and lookup. */
export class TendersGroup extends HttpApiGroup.make("tenders")
  .add(
    HttpApiEndpoint.post("search", "/v1/tenders/search", {
      payload: SearchRequest,
      success: SearchResponse,
      error: common
    })
      .annotate(OpenApi.Summary, "Search open tenders")
      .annotate(OpenApi.Description, searchDescription),
    HttpApiEndpoint.get("get", "/v1/tenders/:id", {
      params: { id: TenderId },
      success: FullTender,
      error: [...common, NotFoundError]
    })
      .annotate(OpenApi.Summary, "Get the full card of one tender")
      .annotate(OpenApi.Description, getTenderDescription)
      .annotate(ReadsBesideAuthorization, true)
  )
  .middleware(Authorization)
  .annotateMerge(
    OpenApi.annotations({
      title: "Tenders",
      description: "Search open tenders from all three sources and read one tender in full."
    })
  ) {}

/** Saved filters that raise alerts. */
export class WatchlistsGroup extends HttpApiGroup.make("watchlists")
  .add(
    HttpApiEndpoint.post("create", "/v1/watchlists", {
      payload: WatchlistInput,
      success: WatchlistCreated.pipe(HttpApiSchema.status(201)),
      error: common
    })
      .annotate(OpenApi.Summary, "Save filters as a watchlist")
      .annotate(OpenApi.Description, createWatchlistDescription),
    HttpApiEndpoint.get("alerts", "/v1/alerts", { success: AlertsResponse, error: common })
      .annotate(OpenApi.Summary, "List open alerts from your watchlists, nearest deadline first")
      .annotate(OpenApi.Description, alertsDescription)
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Watchlists", description: "Saved filters and their alerts." })) {}

/** The machine-readable description, behind a key like every endpoint but /health, and not counted. */
export class MetaGroup extends HttpApiGroup.make("meta")
  .add(
    HttpApiEndpoint.get("openapi", "/v1/openapi.json", {
      success: Schema.Record(Schema.String, Schema.Json),
      error: common
    })
      .annotate(OpenApi.Summary, "This OpenAPI 3.1 document (needs a key, does not count against the quota)")
      .annotate(OpenApi.Description, openApiDescription)
      .annotate(CountsAgainstQuota, false)
  )
  .middleware(Authorization)
  .annotateMerge(
    OpenApi.annotations({ title: "Description", description: "The machine-readable description of this interface." })
  ) {}

/** Service and source health, for uptime monitors; no authentication. */
export class SystemGroup extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", { success: HealthReport, error: InternalError }).annotate(
      OpenApi.Summary,
      "Service and data-source health (200 for ok and degraded)"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "System", description: "Health for uptime monitors; no key needed." })) {}

/** The Tenders REST interface, version 1.2.0. */
export class TendersApi extends HttpApi.make("tenders")
  .add(TendersGroup)
  .add(WatchlistsGroup)
  .add(MetaGroup)
  .add(SystemGroup)
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotateMerge(OpenApi.annotations({ title: "Tenders API", version: "1.2.0", description: apiDescription })) {}
