import type {
  AccountStore,
  AlertStore,
  ClassificationStore,
  DeliveryStore,
  Notifier,
  Rates,
  SearchText,
  SignInMailer,
  SignInStore,
  SourceStatusStore,
  TenderStore,
  WatchlistStore
} from "@tenders/core"
import type { RateLimiter } from "effect/persistence"

/**
 * The core ports the dashboard's pages use (the server's store, its rate-limit buckets, rates, text analysis, the
 * notifier and the background sender of sign-in mails).
 */
export type DashboardPorts =
  | AccountStore
  | SignInStore
  | SignInMailer
  | ClassificationStore
  | RateLimiter.RateLimiter
  | Notifier
  | WatchlistStore
  | AlertStore
  | DeliveryStore
  | TenderStore
  | Rates
  | SearchText
  | SourceStatusStore
