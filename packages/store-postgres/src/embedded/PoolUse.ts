import type { PoolUsage } from "@tenders/core"
import { Effect, Predicate } from "effect"
import type * as Net from "node:net"

/** The key under which a client of the embedded store tells its pool's use (`PgStorePool` reads it). */
export const poolUsageKey: unique symbol = Symbol.for("@tenders/store-postgres/poolUsage")

/** A client that tells its pool's use. */
export interface WithPoolUsage {
  readonly [poolUsageKey]: () => PoolUsage
}

/** True when `client` tells its pool's use (the embedded store's client does; a plain PostgreSQL pool does not). */
export const hasPoolUsage = (client: unknown): client is WithPoolUsage => Predicate.hasProperty(client, poolUsageKey)

/**
 * This process's connections to the embedded store's socket: those open, and the statements and transactions running
 * (each holds one of them, or waits for one when all are taken).
 */
export class PoolUse {
  private readonly sockets = new Set<Net.Socket>()
  private running = 0

  /** Counts `socket` as open until it closes. */
  track(socket: Net.Socket): Net.Socket {
    this.sockets.add(socket)
    socket.once("close", () => this.sockets.delete(socket))
    return socket
  }

  /** Counts `self` as running while it runs. */
  count<A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> {
    return Effect.suspend(() => {
      this.running++
      return Effect.ensuring(
        self,
        Effect.sync(() => this.running--)
      )
    })
  }

  usage(): PoolUsage {
    const open = this.sockets.size
    const inUse = Math.min(this.running, open)
    return { inUse, idle: open - inUse }
  }
}
