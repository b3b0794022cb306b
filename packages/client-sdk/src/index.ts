export {
  type CreateTendersClientOptions,
  createTendersClient,
  type RequestOptions,
  type TendersPromiseClient
} from "./createTendersClient.ts"
export {
  type ErrorCode,
  isTendersApiError,
  TendersApiError,
  TendersError,
  TendersNetworkError,
  TendersResponseError,
  TendersWebhookError
} from "./Errors.ts"
export { type TendersClientOptions } from "./Calls.ts"
export { parseRetryAfter, type RetryOptions, withRetries } from "./Retry.ts"
export { makeTendersClient, type TendersCallError, TendersClient, type TendersClientService } from "./TendersClient.ts"
export { verifyWebhook, WebhookEvent, type WebhookHeaders } from "./verifyWebhook.ts"

// The contract, for Effect users who build on it (schemas and error classes are shared with the server).
export {
  ErrorResponse,
  InternalError,
  InvalidInputError,
  LimitReachedError,
  NotFoundError,
  PlanRequiredError,
  QuotaExceededError,
  TendersApi,
  UnauthorizedError
} from "@tenders/contract"
export {
  Alert,
  AlertReason,
  AlertsResponse,
  BudgetCurrency,
  Channels,
  Filters,
  FullTender,
  HealthReport,
  Internal,
  InvalidInput,
  LimitReached,
  Lot,
  NotFound,
  PlanRequired,
  QuotaExceeded,
  SearchRequest,
  SearchResponse,
  SourceCode,
  SourceHealthStatus,
  TenderCard,
  TenderStatus,
  Unauthorized,
  WatchlistCreated,
  WatchlistInput
} from "@tenders/core"
