import { PgClient } from "@effect/sql-pg"
import { type Context, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"

/**
 * On PostgreSQL, a pool of its own for the statements that need session settings the main pool's sessions lack, sent
 * in each connection's startup packet (so that no statement waits for a round trip to set them): up to 4 connections
 * (its statements are few at a time), `minConnections` of them kept open, statements multiplexed as on the main pool.
 */
export const sessionPool = <I>(
  service: Context.Key<I, PgClient.PgClient>,
  options: {
    readonly url: string
    readonly applicationName: string
    readonly minConnections: number
    readonly settings: Readonly<Record<string, string>>
  }
) =>
  Layer.effect(
    service,
    PgClient.make({
      url: Redacted.make(options.url),
      maxConnections: 4,
      minConnections: options.minConnections,
      startupParameters: options.settings,
      applicationName: options.applicationName,
      multiplex: true
    })
  ).pipe(Layer.provide(Reactivity.layer))
