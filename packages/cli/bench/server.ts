// What the benchmarks that load a real `tenders serve` share: a free port, and a Business key to call it with.
import { AccountStore, maxMonthlyLimit, saveAccount } from "@tenders/core"
import { Effect } from "effect"
import { createServer } from "node:net"

/** A Business account of its own with the highest monthly limit, and a REST key of it. */
export const benchKey = Effect.gen(function* () {
  const account = yield* saveAccount({
    email: `bench-${Date.now()}@example.org`,
    plan: "business",
    monthlyLimit: maxMonthlyLimit
  })
  return (yield* (yield* AccountStore).createKey(account.id, "rest")).key
})

/** A TCP port free on loopback now. */
export const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })
