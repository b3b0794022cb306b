import {
  AlertsResponse,
  FullTender,
  HealthReport,
  SearchRequest,
  SearchResponse,
  WatchlistCreated,
  WatchlistInput
} from "@tenders/core"
import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Authorization } from "./Authorization.ts"
import { InternalError, InvalidInputError, LimitReachedError, NotFoundError, PlanRequiredError } from "./ErrorBody.ts"

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
      .annotate(
        OpenApi.Description,
        "Free text in English, Russian or Armenian plus structured filters (paid plans). Returns open tenders only, best match first, then nearest deadline."
      ),
    HttpApiEndpoint.get("get", "/v1/tenders/:id", {
      params: { id: Schema.String },
      success: FullTender,
      error: [...common, NotFoundError]
    })
      .annotate(OpenApi.Summary, "Get the full card of one tender")
      .annotate(OpenApi.Description, "Any status. On the Free plan cpvCodes, okpd2Codes, lots and docsUrl are omitted.")
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
      .annotate(
        OpenApi.Description,
        "Alerts (new, deadline-24h, amended) come by e-mail (default), signed webhook (paid plans) and GET /v1/alerts. A filter set that matches everything is refused; structured filters and webhooks need a paid plan; the plan limits the number of watchlists."
      ),
    HttpApiEndpoint.get("alerts", "/v1/alerts", { success: AlertsResponse, error: common })
      .annotate(OpenApi.Summary, "List open alerts from your watchlists, nearest deadline first")
      .annotate(
        OpenApi.Description,
        "Alerts whose tender is still open: new matches, amendments, and deadlines within 24 hours; at most 50, nearest deadline first (none last), then newest."
      )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Watchlists", description: "Saved filters and their alerts." })) {}

/** The machine-readable description, behind a key like every endpoint but /health. */
export class MetaGroup extends HttpApiGroup.make("meta")
  .add(
    HttpApiEndpoint.get("openapi", "/v1/openapi.json", {
      success: Schema.Record(Schema.String, Schema.Json),
      error: common
    }).annotate(OpenApi.Summary, "This OpenAPI 3.1 document (needs a key, does not count against the quota)")
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
  .annotateMerge(
    OpenApi.annotations({
      title: "Tenders API",
      version: "1.2.0",
      description:
        "Public procurement notices from TED (EU), gnumner/ARMEPS (Armenia) and zakupki.gov.ru (Russia/EAEU) in one schema."
    })
  ) {}
