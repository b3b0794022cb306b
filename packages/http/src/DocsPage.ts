// `/docs`'s page, Scalar's reference of the API, in a module of its own: HttpApp imports it when the page is first
// asked for, so that the server's bundle loads Scalar's script (3.2 MB of JavaScript, a string in Effect's module)
// then, from a chunk of its own (scripts/bundle.mjs), and a server nobody reads the page of never holds its source.

import { TendersApi } from "@tenders/contract"
import { HttpRouter } from "effect/http"
import { HttpApiScalar } from "effect/http-api"

/** The page's handler, made in the scope and memo map it is given (HttpApp's `docsOnFirstRequest`). */
export const docsHandler = HttpRouter.toHttpEffect(HttpApiScalar.layer(TendersApi, { path: "/docs" }))
