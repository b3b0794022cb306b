import { Schema } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"

/** Reads a JSON table of this folder and decodes it; a table that does not fit fails with its file name. */
export const readTable = <S extends Schema.ConstraintDecoder<unknown>>(file: string, schema: S): S["Type"] => {
  const path = join(import.meta.dirname, file)
  const result = Schema.decodeUnknownResult(schema)(JSON.parse(readFileSync(path, "utf8")))
  if (result._tag === "Failure") throw new Error(`${path}: ${result.failure.message}`)
  return result.success
}

/** The entry of a table for a key another table names; an unknown key fails. */
export const lookup = <V>(table: Readonly<Record<string, V>>, key: string, what: string): V => {
  const value = table[key]
  if (value === undefined) throw new Error(`unknown ${what} "${key}"`)
  return value
}

/** `[lowest, highest]` of a value range. */
export const Range = Schema.Tuple([Schema.Number, Schema.Number])

/** Topic -> relative weight, per buyer type. */
export const TopicWeights = Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Number))

/** A lot a notice may be split into: its title and classification code. */
export const LotTemplate = Schema.Tuple([Schema.String, Schema.String])

/** Topics that recur in every source (double weight), so that searches find them in all three languages. */
const sharedTopics: ReadonlySet<string> = new Set(["road", "school", "medicines", "it", "cleaning", "fuel"])

/** The topic weights of a buyer type, shared topics counted twice. */
export const topicWeights = (weights: Readonly<Record<string, number>>): Array<readonly [string, number]> =>
  Object.entries(weights).map(([topic, w]) => [topic, sharedTopics.has(topic) ? w * 2 : w])

/** English CPV labels as TED prints them in its notice titles (`Country – CPV label – title`). */
export const cpvLabels = readTable("cpv-labels.json", Schema.Record(Schema.String, Schema.String))
