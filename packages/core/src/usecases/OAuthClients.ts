/**
 * OAuth clients: public clients registered by anyone (Dynamic Client Registration, RFC 7591), or identified by a
 * Client ID Metadata Document fetched from their https `client_id`; their metadata checked by one schema either way.
 */
import { DateTime, Duration, Effect, Option, Result, Schema } from "effect"
import { authorityProblem, parseHostName } from "../HostName.ts"
import type { AccountId } from "../Ids.ts"
import { ClientMetadataDocuments, unusableMetadataDocument } from "../ports/ClientMetadataDocuments.ts"
import { type OAuthClient, OAuthStore } from "../ports/OAuthStore.ts"
import { newOpaqueToken } from "../Secrets.ts"
import { labelProblem } from "../Text.ts"
import { OAuthError } from "../OAuthError.ts"
import { decodeOAuthWith, ParamText } from "../OAuthParams.ts"
import { redirectUriProblem } from "../RedirectUri.ts"

const RedirectUri = Schema.String.check(Schema.makeFilter((uri: string) => redirectUriProblem(uri) ?? true))

/**
 * The client metadata we read (RFC 7591 §2; other members are ignored), with our rules: a public client
 * (`token_endpoint_auth_method: none`) of the code flow, 1 to 10 redirect URIs by `redirectOrigin`'s rule, a name
 * fit to be shown (`labelProblem`: no control or format character).
 */
const ClientMetadata = Schema.Struct({
  client_id: Schema.optionalKey(ParamText),
  client_name: Schema.optionalKey(Schema.String.check(Schema.makeFilter((name: string) => labelProblem(name) ?? true))),
  token_endpoint_auth_method: Schema.optionalKey(
    Schema.Literal("none").annotate({ message: 'must be "none" (a public client)' })
  ),
  grant_types: Schema.optionalKey(
    Schema.Array(
      Schema.Literals(["authorization_code", "refresh_token"]).annotate({
        message: "must be authorization_code or refresh_token"
      })
    ).check(
      Schema.makeFilter((grants) => (grants.includes("authorization_code") ? true : "must include authorization_code"))
    )
  ),
  response_types: Schema.optionalKey(Schema.Array(Schema.Literal("code").annotate({ message: 'must be "code"' }))),
  redirect_uris: Schema.Array(RedirectUri)
    .check(Schema.isMinLength(1, { message: "must name from 1 to 10 redirect URIs" }))
    .check(Schema.isMaxLength(10, { message: "must name from 1 to 10 redirect URIs" }))
    .annotateKey({ messageMissingKey: "is required (from 1 to 10 redirect URIs)" })
}).annotate({ message: "the client metadata must be a JSON object" })

/** Decodes client metadata (registered or by document); its redirect URIs' faults are `invalid_redirect_uri`. */
const checkMetadata = (metadata: unknown) =>
  decodeOAuthWith(ClientMetadata, (key) =>
    key === "redirect_uris" ? "invalid_redirect_uri" : "invalid_client_metadata"
  )(metadata).pipe(
    Effect.map((m) => {
      // At most 100 characters (code points, never half a surrogate pair).
      const name = Array.from((m.client_name ?? "").trim())
        .slice(0, 100)
        .join("")
      const first = new URL(m.redirect_uris[0] ?? "")
      return { metadata: m, clientName: name !== "" ? name : first.host !== "" ? first.host : first.protocol }
    })
  )

/**
 * How long a registered client that no one authorized is kept. Registration is open to anyone (RFC 7591), so the
 * registrations nobody followed with a consent must not pile up; a client that got a grant is kept while it has one.
 */
export const unusedClientLifetime = Duration.days(30)

/** Registers a public client (RFC 7591): its id and the metadata kept. Forgets the clients long unused. */
export const registerClient = Effect.fn("registerClient")(function* (metadata: unknown) {
  const { metadata: m, clientName } = yield* checkMetadata(metadata)
  const store = yield* OAuthStore
  const now = yield* DateTime.now
  const client: OAuthClient = {
    clientId: `tc_${newOpaqueToken().slice(0, 32)}`,
    clientName,
    redirectUris: m.redirect_uris,
    createdAt: now
  }
  yield* store.saveClient(client)
  yield* store.forgetUnusedClients(DateTime.subtractDuration(now, unusedClientLifetime))
  return client
})

/**
 * Whether a client id is a metadata document's URL: https to a host by core's host rule (not one label), with a
 * path, no credentials or fragment.
 */
export const isMetadataDocumentId = (clientId: string): boolean => {
  if (!URL.canParse(clientId) || clientId.includes("#") || authorityProblem(clientId) !== undefined) return false
  const url = new URL(clientId)
  return (
    url.protocol === "https:" &&
    url.pathname !== "/" &&
    url.username === "" &&
    url.password === "" &&
    Result.isSuccess(parseHostName(url.hostname, { singleLabel: false }))
  )
}

/**
 * The client of a `client_id`: fetched (for `account`) from its metadata document, which must name itself, or
 * registered. What was wrong with a document is logged for the operator, not told (it may come from an internal host).
 */
export const resolveClient = Effect.fn("resolveClient")(function* (clientId: string, account: AccountId) {
  if (isMetadataDocumentId(clientId)) {
    const document = yield* (yield* ClientMetadataDocuments).fetch(clientId, account)
    const { metadata, clientName } = yield* checkMetadata(document).pipe(
      Effect.filterOrFail(
        ({ metadata }) => metadata.client_id === clientId,
        () => new OAuthError({ error: "invalid_client", description: "its client_id is not its own URL" })
      ),
      Effect.tapError((error) =>
        Effect.logWarning(`client metadata document ${clientId} not used: ${error.description}`)
      ),
      Effect.mapError(unusableMetadataDocument)
    )
    const client: OAuthClient = {
      clientId,
      clientName,
      redirectUris: metadata.redirect_uris,
      createdAt: yield* DateTime.now
    }
    return client
  }
  const found = yield* (yield* OAuthStore).findClient(clientId)
  if (Option.isNone(found)) {
    return yield* new OAuthError({ error: "invalid_client", description: "unknown client_id" })
  }
  return found.value
})
