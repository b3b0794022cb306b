import { assert, describe, it } from "@effect/vitest"
import { Context, Effect } from "effect"
import { withPorts } from "../src/HandlerPorts.ts"

class Port extends Context.Service<Port, { readonly name: string }>()("test/Port") {}
class Other extends Context.Service<Other, { readonly name: string }>()("test/Other") {}

const port = { name: "the group's" }
const other = { name: "other" }

describe("the ports a group's handlers run with", () => {
  it.effect("runs a handler in its own context when that holds the group's ports: no copy of it", () =>
    Effect.gen(function* () {
      const provide = yield* withPorts(Port)
      const outer = yield* Effect.context<never>()
      const inner = yield* provide(Effect.context<never>())
      assert.strictEqual(inner, outer)
    }).pipe(Effect.provideService(Port, port), Effect.provideService(Other, other))
  )

  it.effect("gives the group's context to a handler whose context lacks the ports, or holds others", () =>
    Effect.gen(function* () {
      const provide = yield* withPorts(Port).pipe(
        Effect.provideService(Port, port),
        Effect.provideService(Other, other)
      )
      assert.strictEqual((yield* provide(Port)).name, "the group's")
      const replaced = provide(Effect.all([Port, Other])).pipe(Effect.provideService(Port, { name: "another" }))
      assert.deepStrictEqual(
        (yield* replaced).map((service) => service.name),
        ["the group's", "other"]
      )
    }).pipe(Effect.provideService(Other, { name: "the handler's" }))
  )
})
