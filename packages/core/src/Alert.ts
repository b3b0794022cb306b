import { Schema } from "effect"
import { TenderCard } from "./Tender.ts"
import { UtcTimestamp } from "./Time.ts"

/** Why an alert was raised. */
export const AlertReason = Schema.Literals(["new", "deadline-24h", "amended"])
export type AlertReason = typeof AlertReason.Type

/** An open alert (spec "Alert"). */
export const Alert = Schema.Struct({
  watchlistId: Schema.String.check(Schema.isUUID()),
  watchlistName: Schema.String,
  reason: AlertReason,
  createdAt: UtcTimestamp,
  tender: TenderCard
}).annotate({ identifier: "Alert" })
export type Alert = typeof Alert.Type

/** The body of `GET /v1/alerts`. */
export const AlertsResponse = Schema.Struct({
  alerts: Schema.Array(Alert).check(Schema.isMaxLength(50)),
  hint: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "AlertsResponse" })
export type AlertsResponse = typeof AlertsResponse.Type
