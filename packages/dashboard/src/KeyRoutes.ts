import { AccountStore, KeyId, KeyKind } from "@tenders/core"
import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, type HttpServerRequest } from "effect/http"
import { errorPage } from "./ErrorPage.ts"
import { keysPage } from "./KeysPage.ts"
import { CurrentPage } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { field, formOf, pathParams } from "./RequestInput.ts"
import { redirect, showPage } from "./Responses.ts"
import { SignedIn } from "./SignedIn.ts"

const listKeys = Effect.fn("dashboard.listKeys")(function* () {
  const ctx = yield* CurrentPage
  return showPage(keysPage(ctx, yield* (yield* AccountStore).listKeys(ctx.session.account.id)))
})

const createKey = Effect.fn("dashboard.createKey")(function* (request: HttpServerRequest.HttpServerRequest) {
  const ctx = yield* CurrentPage
  const accounts = yield* AccountStore
  const kind = Schema.decodeUnknownOption(KeyKind)(field(yield* formOf(request), "kind"))
  if (Option.isNone(kind)) return redirect(paths.keys)
  const created = yield* accounts.createKey(ctx.session.account.id, kind.value)
  return showPage(
    keysPage(ctx, yield* accounts.listKeys(ctx.session.account.id), { key: created.key, kind: kind.value })
  )
})

const revokeKey = Effect.fn("dashboard.revokeKey")(function* () {
  const ctx = yield* CurrentPage
  const key = yield* pathParams(Schema.Struct({ keyId: KeyId }))
  const revoked =
    Option.isSome(key) && (yield* (yield* AccountStore).revokeKey(key.value.keyId, ctx.session.account.id))
  return revoked ? redirect(paths.keys) : showPage(errorPage(ctx, ctx.t.errors.notFound, paths.keys), 404)
})

/** The account's keys: listed, made (the secret shown once) and revoked. */
export const KeyRoutes = HttpRouter.addAll([
  HttpRouter.route("GET", paths.keys, listKeys),
  HttpRouter.route("POST", paths.keys, createKey),
  HttpRouter.route("POST", paths.revoke.pattern, revokeKey)
]).pipe(Layer.provide(SignedIn))
