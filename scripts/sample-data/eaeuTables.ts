import { Schema } from "effect"
import type { Random } from "./random.ts"
import { lookup, LotTemplate, Range, readTable, TopicWeights } from "./tables.ts"

const Strings = Schema.Array(Schema.String)

const Drug = Schema.Struct({ mnn: Schema.String, okpd2: Schema.String, form: Schema.String })

const Topic = Schema.Struct({
  /** Value range in RUB. */
  rub: Range,
  /** Russian titles (see templates.ts): codes are OKPD2. */
  titles: Strings,
  lots: Schema.optionalKey(Schema.Array(LotTemplate))
})

const Buyer = Schema.Struct({
  name: Schema.String,
  /** Federal subject in Russian, or city abroad. */
  region: Schema.String,
  /** EIS region code and level (1 federal, 2 regional, 3 municipal): parts of the registry number. */
  regionCode: Schema.String,
  level: Schema.String,
  law: Schema.Literals([44, 223]),
  /** Hours ahead of UTC. */
  utcOffset: Schema.Number,
  type: Schema.String,
  weight: Schema.Number,
  country: Schema.String,
  currency: Schema.String,
  placeIn: Schema.optionalKey(Schema.String),
  roadNames: Schema.optionalKey(Strings),
  okrugs: Schema.optionalKey(Strings),
  schools: Schema.optionalKey(Strings),
  site: Schema.optionalKey(Schema.String)
})

/** A customer with its EIS registry number, the first digits of its 44-FZ purchase numbers. */
export type EaeuBuyer = typeof Buyer.Type & { readonly registryNumber: string }

const PinnedNotice = Schema.Struct({ buyerContains: Schema.String, topic: Schema.String, titleContains: Schema.String })

/** Titles whose scope is smaller than their topic's, with a narrower value range in RUB. */
const TitleRange = Schema.Struct({ titleContains: Schema.String, rub: Range })

export const eaeuDrugs = readTable("eaeu/drugs.json", Schema.Array(Drug))
const topics = readTable("eaeu/topics.json", Schema.Record(Schema.String, Topic))
/** The topics; the lots of a medicines purchase are the drugs. */
export const eaeuTopics: typeof topics = {
  ...topics,
  medicines: {
    ...lookup(topics, "medicines", "topic"),
    lots: eaeuDrugs.map(({ mnn, okpd2, form }) => [`${mnn}, ${form}`, okpd2])
  }
}
export const eaeuBuyerTypes = readTable("eaeu/buyer-types.json", TopicWeights)
export const eaeuStreets = readTable("eaeu/streets.json", Strings)
/** Schools of city customers that name none of their own. */
export const eaeuSchools = readTable("eaeu/schools.json", Strings)
export const eaeuTitleRanges = readTable("eaeu/title-ranges.json", Schema.Array(TitleRange))
/** Units of each currency per RUB, to size purchases of the missions abroad. */
export const eaeuSizeRates = readTable("eaeu/size-rates.json", Schema.Record(Schema.String, Schema.Number))
export const eaeuDeadlineTimes = readTable("eaeu/deadline-times.json", Strings)
export const eaeuPinned = readTable("eaeu/pinned-notices.json", Schema.Array(PinnedNotice))

const registrySerial = (random: Random) => String(random.int(1, 999999)).padStart(6, "0")

/** The customers, each given a registry number (drawn before anything else, so the data depends on this order). */
export const eaeuBuyers = (random: Random): Array<EaeuBuyer> =>
  readTable("eaeu/buyers.json", Schema.Array(Buyer)).map((buyer) => ({
    ...buyer,
    registryNumber: `0${random.pick(["1", "3", "3", "8"])}${buyer.regionCode}${buyer.level}${registrySerial(random)}`
  }))
