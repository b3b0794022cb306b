import { Context, Effect } from "effect"

/**
 * The services a group's layer was built with (the `ports`, and any reference such as `WebhookAllowHosts`), as a
 * function that provides them to a handler: the use cases are functions over the ports. The API's builder already
 * runs each handler in the context its group was built in (its own `provideContext` per request), which a handler's
 * type cannot say; so a handler whose context holds these very ports runs in it as it is, and only a context without
 * them gets the group's merged in. Merging it again copied every service of the server per request (a twelfth of a
 * get-tender's allocations).
 */
export const withPorts = <const Ports extends ReadonlyArray<Context.Key<unknown, unknown>>>(...ports: Ports) =>
  Effect.map(Effect.context<Context.Service.Identifier<Ports[number]>>(), (built) => {
    const held = <S>(current: Context.Context<S>) =>
      ports.every((port) => Context.getOrUndefined(current, port) === Context.getOrUndefined(built, port))
    return <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.updateContext(effect, (current: Context.Context<Exclude<R, Context.Service.Identifier<Ports[number]>>>) =>
        held(current) ? (current as Context.Context<R>) : (Context.merge(current, built) as Context.Context<R>)
      )
  })
