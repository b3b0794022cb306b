import { Schema } from "effect"
import type { Random } from "./random.ts"
import { lookup, LotTemplate, Range, readTable, TopicWeights } from "./tables.ts"

const Strings = Schema.Array(Schema.String)

const Country = Schema.Struct({
  /** English name, as TED's notice titles start. */
  name: Schema.String,
  zone: Schema.Literals(["WET", "CET", "EET", "ATL"]),
  currency: Schema.String,
  vat: Schema.Number,
  /** How many of the TED records have a buyer in this country. */
  notices: Schema.Number
})

const Topic = Schema.Struct({ cpv: Schema.String, eur: Range })

const Buyer = Schema.Struct({
  country: Schema.String,
  language: Schema.String,
  type: Schema.String,
  name: Schema.String,
  city: Schema.String,
  nuts: Schema.String,
  platform: Schema.String,
  platformHost: Schema.optionalKey(Schema.String),
  districts: Schema.optionalKey(Strings),
  short: Schema.optionalKey(Schema.String),
  places: Schema.optionalKey(Strings),
  roads: Schema.optionalKey(Strings),
  urban: Schema.optionalKey(Schema.Boolean),
  site: Schema.optionalKey(Schema.String),
  autobahn: Schema.optionalKey(Schema.Boolean),
  roadNums: Schema.optionalKey(Schema.Array(Schema.Union([Schema.Number, Schema.String]))),
  meisterei: Schema.optionalKey(Schema.Boolean)
})
export type TedBuyer = typeof Buyer.Type

const Language = Schema.Struct({
  /** Prefix of a lot title, `{i}` is the lot number. */
  lot: Schema.String,
  streets: Strings,
  schools: Strings,
  /** Procedure titles per topic (see templates.ts). */
  topics: Schema.Record(Schema.String, Strings),
  lots: Schema.Record(Schema.String, Schema.Array(LotTemplate))
})
export type TedLanguage = typeof Language.Type

export const tedCountries = readTable("ted/countries.json", Schema.Record(Schema.String, Country))
/** Rough units of each currency per EUR, only to size budgets (not the reference rates). */
export const tedSizeRates = readTable("ted/size-rates.json", Schema.Record(Schema.String, Schema.Number))
/** Main CPV code and value range in EUR of each topic. */
export const tedTopics = readTable("ted/topics.json", Schema.Record(Schema.String, Topic))
export const tedBuyerTypes = readTable("ted/buyer-types.json", TopicWeights)
export const tedBuyers = readTable("ted/buyers.json", Schema.Array(Buyer))
const tedPlatforms = readTable("ted/platforms.json", Schema.Record(Schema.String, Schema.String))
export const tedDeadlineTimes = readTable("ted/deadline-times.json", Strings)

const languages = new Map<string, TedLanguage>()
/** The titles, street and school names of one language. */
export const tedLanguage = (code: string): TedLanguage => {
  let language = languages.get(code)
  if (language === undefined) {
    language = readTable(`ted/languages/${code}.json`, Language)
    languages.set(code, language)
  }
  return language
}

// The alphabets of {upper:N} (no I or O), {lower:N} and {mixed:N}.
const upperAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"
const lowerAlphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
const mixedAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

/**
 * A document link on the buyer's platform: the platform's URL with `{int:LO-HI}`, `{upper:N}`, `{lower:N}`,
 * `{mixed:N}` (N letters and digits), `{hex:N}`, `{uuid}` and `{host}` (the buyer's platform host) filled in.
 */
export const platformUrl = (random: Random, buyer: TedBuyer) =>
  lookup(tedPlatforms, buyer.platform, "platform").replace(/\{(\w+)(?::([^}]*))?\}/gu, (_, kind: string, arg = "") => {
    const [lo = 0, hi = 0] = arg.split("-").map(Number)
    switch (kind) {
      case "int":
        return String(random.int(lo, hi))
      case "upper":
        return random.alnum(lo, upperAlphabet)
      case "lower":
        return random.alnum(lo, lowerAlphabet)
      case "mixed":
        return random.alnum(lo, mixedAlphabet)
      case "hex":
        return random.hex(lo)
      case "uuid":
        return random.uuid()
      case "host":
        if (buyer.platformHost === undefined) throw new Error(`${buyer.name}: no platformHost`)
        return buyer.platformHost
      default:
        throw new Error(`unknown placeholder {${kind}} of platform ${buyer.platform}`)
    }
  })
