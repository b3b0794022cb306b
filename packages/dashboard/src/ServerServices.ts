import { Context, Effect, Layer, Scope } from "effect"
import { HttpRouter } from "effect/http"

/**
 * Gives the routes of a layer, on each request, the services `R` the server built the layer with (its ports and
 * settings, without the layer's scope), as HttpApiBuilder's groups do with their handlers' services.
 */
export const withServerServices = <R>() =>
  HttpRouter.provideRequest(Layer.effectContext(Effect.map(Effect.context<R>(), Context.omit(Scope.Scope))))
