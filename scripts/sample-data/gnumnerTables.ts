import { Schema } from "effect"
import { LotTemplate, Range, readTable, TopicWeights } from "./tables.ts"

const Strings = Schema.Array(Schema.String)

/** Procurement kind: the subject part of an Armenian procurement code. */
export const ProcurementKind = Schema.Literals(["goods", "services", "works"])

const Topic = Schema.Struct({
  kind: ProcurementKind,
  cpv: Schema.String,
  /** Value range in AMD. */
  amd: Range,
  /** Armenian titles (see templates.ts). */
  titles: Strings,
  lots: Schema.optionalKey(Schema.Array(LotTemplate))
})

const Buyer = Schema.Struct({
  name: Schema.String,
  /** The buyer part of its procurement codes (`ՀՀ ՖՆ`) and what separates it from the rest. */
  code: Schema.String,
  codeSeparator: Schema.String,
  /** Marz, null for nationwide bodies. */
  region: Schema.NullOr(Schema.String),
  type: Schema.String,
  weight: Schema.Number,
  /** Share of its notices in USD (loan-financed projects). */
  usdShare: Schema.optionalKey(Schema.Number),
  cityGen: Schema.optionalKey(Schema.String),
  streetGen: Schema.optionalKey(Strings),
  schoolGen: Schema.optionalKey(Strings),
  kgGen: Schema.optionalKey(Strings)
})
export type GnumnerBuyer = typeof Buyer.Type

/** A notice placed first, so that a title the documentation quotes is always in the sample. */
const PinnedNotice = Schema.Struct({ code: Schema.String, topic: Schema.String, titleContains: Schema.String })

export const gnumnerTopics = readTable("gnumner/topics.json", Schema.Record(Schema.String, Topic))
export const gnumnerBuyerTypes = readTable("gnumner/buyer-types.json", TopicWeights)
export const gnumnerBuyers = readTable("gnumner/buyers.json", Schema.Array(Buyer))
/** Interstate (`Մ-`) roads, for road-works titles of the roads bodies. */
export const gnumnerMainRoads = readTable("gnumner/main-roads.json", Strings)
export const gnumnerDeadlineTimes = readTable("gnumner/deadline-times.json", Strings)
export const gnumnerPinned = readTable("gnumner/pinned-notices.json", Schema.Array(PinnedNotice))
