import { Effect, Layer, type Scope } from "effect"
import { type FindMyWay, HttpEffect, HttpRouter, HttpServer, type HttpServerRequest } from "effect/http"

/**
 * A router app as a fetch function that runs in the test's own runtime: built in the test's scope, each request run
 * with the test's services, `TestClock` among them (`HttpRouter.toWebHandler` runs a runtime of its own, on the real
 * clock). `HttpEffect.toWebHandlerWith` answers as the server does: pre-response handlers (CORS) applied, failures the
 * app left unhandled turned into responses.
 */
export const webHandlerInTest = <A, E>(
  app: Layer.Layer<
    A,
    E,
    | HttpRouter.HttpRouter
    | HttpRouter.Request<"Error" | "GlobalError", unknown>
    | Layer.Success<typeof HttpServer.layerServices>
  >,
  routerConfig: Partial<FindMyWay.RouterConfig> = {}
) =>
  Effect.gen(function* () {
    const httpEffect = yield* HttpRouter.toHttpEffect(app.pipe(Layer.provide(HttpServer.layerServices)))
    const context = yield* Effect.context<never>()
    const handler = HttpEffect.toWebHandlerWith<never, HttpServerRequest.HttpServerRequest | Scope.Scope>(context)(
      httpEffect
    )
    return (request: Request) => handler(request)
  }).pipe(Effect.provideService(HttpRouter.RouterConfig, routerConfig))
