import { Effect, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, UrlParams } from "effect/http"

/** The posted form of a request; an empty one when it has none (an unreadable one is answered before: PageEdge). */
export const formOf = (request: HttpServerRequest.HttpServerRequest) =>
  request.urlParamsBody.pipe(Effect.orElseSucceed(() => UrlParams.empty))

/** A form's first value of `name`, or "". */
export const field = (form: UrlParams.UrlParams, name: string): string =>
  Option.getOrElse(UrlParams.getFirst(form, name), () => "")

/** The query of a request's URL (empty when its URL cannot be read). */
export const queryOf = (request: HttpServerRequest.HttpServerRequest): URLSearchParams =>
  Option.match(HttpServerRequest.toURL(request), {
    onNone: () => new URLSearchParams(),
    onSome: (url) => url.searchParams
  })

/** The address a request comes from: the server applied its trusted proxies' `X-Forwarded-For` already. */
export const clientAddress = (request: HttpServerRequest.HttpServerRequest) =>
  Option.getOrElse(request.remoteAddress, () => "unknown")

/** The ids in a request's path, decoded by `schema`; nothing when one is not what it must be (no such page). */
export const pathParams = <A, I extends Readonly<Record<string, string | undefined>>, RD>(
  schema: Schema.ConstraintCodec<A, I, RD, unknown>
) => Effect.option(HttpRouter.schemaPathParams(schema))
