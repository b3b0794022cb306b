import type {
  AccountStore,
  AlertStore,
  DeliveryStore,
  Notifier,
  Rates,
  SearchText,
  SignInStore,
  SourceStatusStore,
  TenderStore,
  WatchlistStore
} from "@tenders/core"
import type { makeWeb, ReadThrottle, Route as WebRoute } from "./Web.ts"

/** The core ports the dashboard's pages use (the server's store, rates, text analysis and notifier). */
export type DashboardPorts =
  | AccountStore
  | SignInStore
  | Notifier
  | WatchlistStore
  | AlertStore
  | DeliveryStore
  | TenderStore
  | Rates
  | SearchText
  | SourceStatusStore

/** The page helpers of `makeWeb`, and the throttle of searches and live counts. */
export type Web = ReturnType<typeof makeWeb> & { readonly throttleReads: ReadThrottle }

/** One route of the dashboard's pages. */
export type Route = WebRoute<DashboardPorts>
