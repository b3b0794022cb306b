import { Context, Effect, Layer, Schema } from "effect"
import bundled from "../data/reference-rates.json" with { type: "json" }
import { RatesTable } from "../Rates.ts"

/** The reference-rate table in force. */
export class Rates extends Context.Service<Rates, { readonly table: RatesTable }>()("@tenders/core/Rates") {
  /** A layer over a table decoded from `input` (an operator's replacement, or tests); fails on an invalid table. */
  static readonly fromTable = (input: unknown) =>
    Layer.effect(
      Rates,
      Effect.map(Schema.decodeUnknownEffect(RatesTable)(input), (table) => Rates.of({ table }))
    )

  /** The table bundled with this release (docs/reference-rates.md). */
  static readonly bundled = Rates.fromTable(bundled).pipe(Layer.orDie)
}
