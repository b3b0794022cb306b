import { Context, type Effect } from "effect"
import type { AccountId } from "../Ids.ts"
import { OAuthError } from "../OAuthError.ts"

/**
 * Fetches a Client ID Metadata Document (an https `client_id` URL), through the webhooks' address guard, for the
 * signed-in account that opened the consent page (fetches are limited per account).
 */
export class ClientMetadataDocuments extends Context.Service<
  ClientMetadataDocuments,
  { readonly fetch: (url: string, account: AccountId) => Effect.Effect<unknown, OAuthError> }
>()("@tenders/core/ClientMetadataDocuments") {}

/** The one answer about a Client ID Metadata Document that could not be used: why is logged, never told. */
export const unusableMetadataDocument = () =>
  new OAuthError({ error: "invalid_client", description: "the client metadata document could not be used" })
