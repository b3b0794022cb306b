import { Layer } from "effect"
import { AccountRoutes } from "./AccountRoutes.ts"
import { AssetRoutes } from "./AssetRoutes.ts"
import type { DashboardPorts } from "./DashboardPorts.ts"
import type { DashboardSettings } from "./DashboardSettings.ts"
import { KeyRoutes } from "./KeyRoutes.ts"
import { NoPage } from "./NoPage.ts"
import { OverviewRoutes } from "./OverviewRoutes.ts"
import { PageEdge } from "./PageEdge.ts"
import { SearchRoutes } from "./SearchRoutes.ts"
import { withServerServices } from "./ServerServices.ts"
import { SignInRoutes } from "./SignInRoutes.ts"
import { WatchlistRoutes } from "./WatchlistRoutes.ts"

/**
 * The dashboard at `/dashboard`, as a router layer to serve next to the REST routes: e-mail sign-in, the overview
 * (with the calls per day), search and full tenders, watchlists, alerts, deliveries, keys and the webhook signing
 * secret, in English, Russian and Armenian. Server-rendered pages; every change is a POST with the session's form
 * token, refused from another site. Needs the core ports of `DashboardPorts` and DashboardSettings.
 */
export const DashboardApp = Layer.mergeAll(
  SignInRoutes,
  OverviewRoutes,
  SearchRoutes,
  WatchlistRoutes,
  AccountRoutes,
  KeyRoutes,
  AssetRoutes,
  NoPage
).pipe(Layer.provide(PageEdge), withServerServices<DashboardPorts | DashboardSettings>())
