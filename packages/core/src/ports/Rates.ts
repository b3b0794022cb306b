import { Context, Duration, Effect, Layer, Schema } from "effect"
import bundled from "../data/reference-rates.json" with { type: "json" }
import { BudgetCurrency } from "../Currency.ts"
import { type RatesInUse, ratesInUseOf, RatesTable } from "../Rates.ts"
import { RatesStore } from "./RatesStore.ts"

/** How long a replica reuses the rates it read from the store before reading them again. */
export const ratesCacheTtl = Duration.minutes(1)

/** The reference rates in force. */
export class Rates extends Context.Service<Rates, { readonly current: Effect.Effect<RatesInUse> }>()(
  "@tenders/core/Rates"
) {
  /** A layer over a table decoded from `input` (an operator's file, or tests); fails on an invalid table. */
  static readonly fromTable = (input: unknown, origin = "the rates file") =>
    Layer.effect(
      Rates,
      Effect.map(Schema.decodeUnknownEffect(RatesTable)(input), (table) =>
        Rates.of({ current: Effect.succeed(ratesInUseOf(table, origin)) })
      )
    )

  /** The table bundled with this release (docs/reference-rates.md): the fallback of a machine with no network. */
  static readonly bundledRates: Effect.Effect<RatesInUse> = Schema.decodeUnknownEffect(RatesTable)(bundled).pipe(
    Effect.map((table) => ratesInUseOf(table, "the bundled table")),
    Effect.orDie
  )

  /** The bundled table alone. */
  static readonly bundled = Layer.effect(
    Rates,
    Effect.map(Rates.bundledRates, (rates) => Rates.of({ current: Effect.succeed(rates) }))
  )

  /**
   * The newest quarter imported into the store (per currency its newest figure), read again after `ratesCacheTtl`;
   * `fallback` while nothing was imported.
   */
  static readonly fromStore = (fallback: Effect.Effect<RatesInUse>) =>
    Layer.effect(
      Rates,
      Effect.gen(function* () {
        const store = yield* RatesStore
        const read = Effect.flatMap(store.latest, (figures) => {
          if (figures.length === 0) return fallback
          const quarter = figures.reduce((q, f) => (f.quarter > q ? f.quarter : q), "")
          const order = (currency: BudgetCurrency) => BudgetCurrency.literals.indexOf(currency)
          const sorted = figures.toSorted((a, b) => order(a.currency) - order(b.currency))
          const inUse: RatesInUse = { quarter, fallback: null, figures: sorted }
          return Effect.succeed(inUse)
        })
        const current = yield* Effect.cachedWithTTL(read, ratesCacheTtl)
        return Rates.of({ current })
      })
    )
}
