import { httpRequestDuration, httpRequests, seriesOf } from "@tenders/core"
import { Clock, Context, Effect, Exit } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"

/** The route label of a request no route matched: one series for every unknown path. */
const unmatched = "unmatched"

/** Methods labelled as they are; any other method a client sends is `other` (the label set stays bounded). */
const methods = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])

/** The series of one (route, method, status), made once each (`seriesOf`): a request only looks them up. */
const labels = ["route", "method", "status"]
const countOf = seriesOf(httpRequests, labels)
const durationOf = seriesOf(httpRequestDuration, labels)

/** Wraps the router's handler so that the route it matched is known once it answered. */
export type RouteProbe = <A, E, R>(routed: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>

/**
 * Counts a request and records its latency by route pattern (never the raw path), method and status, once its
 * response is made. `handle` answers the request, passing the router's handler through the probe it is given (the
 * route is known inside the handler only); the status is the one `handle` answers with, errors mapped. Applied by
 * the router's error mapping around every route (REST, MCP, dashboard). A request that ends without a response
 * (the client went away) is not counted.
 */
export const observeRequest = <E, R>(
  handle: (probe: RouteProbe) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
): Effect.Effect<HttpServerResponse.HttpServerResponse, E, R> =>
  Effect.withFiber((fiber) => {
    const clock = fiber.getRef(Clock.Clock)
    const start = clock.currentTimeNanosUnsafe()
    let route = unmatched
    const probe: RouteProbe = (routed) =>
      Effect.onExit(routed, () =>
        Effect.withFiber((inner) => {
          route = Context.getOrUndefined(inner.context, HttpRouter.RouteContext)?.route.path ?? unmatched
          return Effect.void
        })
      )
    return Effect.onExit(handle(probe), (exit) =>
      Effect.withFiber((after) => {
        if (Exit.isFailure(exit)) return Effect.void
        const request = Context.getOrUndefined(after.context, HttpServerRequest.HttpServerRequest)
        const method = request !== undefined && methods.has(request.method) ? request.method : "other"
        const status = String(exit.value.status)
        const seconds = Number(clock.currentTimeNanosUnsafe() - start) / 1e9
        countOf(route, method, status).updateUnsafe(1, after.context)
        durationOf(route, method, status).updateUnsafe(seconds, after.context)
        return Effect.void
      })
    )
  })
