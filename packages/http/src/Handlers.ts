import { CurrentCaller, TendersApi } from "@tenders/contract"
import { getTender, searchTenders, sourceHealth } from "@tenders/core"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder, OpenApi } from "effect/http-api"

/** Search and get-tender: thin over the use cases. */
export const TendersHandlers = HttpApiBuilder.group(TendersApi, "tenders", (handlers) =>
  handlers
    .handle("search", ({ payload }) =>
      Effect.flatMap(CurrentCaller, (caller) => searchTenders(payload, caller.account.plan)))
    .handle("get", ({ params }) =>
      Effect.flatMap(CurrentCaller, (caller) => getTender(params.id, caller.account.plan))))

/** The OpenAPI document, generated from the contract. */
export const MetaHandlers = HttpApiBuilder.group(TendersApi, "meta", (handlers) =>
  handlers.handle("openapi", () => Effect.succeed(HttpServerResponse.jsonUnsafe(openApiDocument()))))

/** The health probe. */
export const SystemHandlers = HttpApiBuilder.group(TendersApi, "system", (handlers) =>
  handlers.handle("health", () => sourceHealth))

/** The OpenAPI 3.1 document of the REST interface. */
export const openApiDocument = (): Record<string, unknown> => ({ ...OpenApi.fromApi(TendersApi) })
