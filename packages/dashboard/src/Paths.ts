import { oauthAuthorizationPath } from "@tenders/core"
import type { HttpRouter } from "effect/http"

/** A page of one thing (a key, a tender): the router's pattern, and the link to the thing with its id. */
export interface PathOfOne {
  readonly pattern: HttpRouter.PathInput
  readonly of: (id: string | number) => string
}

// The id goes where the pattern's `:name` is, encoded (ids are UUIDs and URL-safe tender ids: they stay as they are).
const pathOfOne = (pattern: `/dashboard/${string}`): PathOfOne => ({
  pattern,
  of: (id) => pattern.replace(/:[A-Za-z]+/u, encodeURIComponent(String(id)))
})

/** The dashboard's paths, each written once: what the router matches and what the pages link to. */
export const paths = {
  home: "/dashboard",
  signIn: "/dashboard/sign-in",
  link: "/dashboard/sign-in/link",
  signOut: "/dashboard/sign-out",
  signOutEverywhere: "/dashboard/sign-out/everywhere",
  keys: "/dashboard/keys",
  revoke: pathOfOne("/dashboard/keys/:keyId/revoke"),
  search: "/dashboard/search",
  tender: pathOfOne("/dashboard/tenders/:tenderId"),
  watchlists: "/dashboard/watchlists",
  watchlistCount: "/dashboard/watchlists/count",
  deleteWatchlist: pathOfOne("/dashboard/watchlists/:watchlistId/delete"),
  alerts: "/dashboard/alerts",
  deliveries: "/dashboard/deliveries",
  retryDelivery: pathOfOne("/dashboard/deliveries/:deliveryId/retry"),
  settings: "/dashboard/settings",
  authorize: oauthAuthorizationPath,
  apps: "/dashboard/apps",
  revokeApp: pathOfOne("/dashboard/apps/:grantId/revoke"),
  webhookSecret: "/dashboard/settings/webhook-secret",
  style: "/dashboard/assets/app.css",
  script: "/dashboard/assets/app.js",
  /** Any other dashboard address, which has no page. */
  elsewhere: "/dashboard/:page/*"
} as const
