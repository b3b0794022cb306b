import { Predicate } from "effect"

/**
 * Whether a failure to read a request's body says the body is over the server's limit (`MaxBodySize`): the HTTP
 * server's `RequestParseError` with reason `BodyTooLarge`, as the REST edge and the dashboard's forms both see it.
 */
export const isBodyTooLarge = (error: unknown): boolean => {
  const reason = Predicate.hasProperty(error, "reason") ? error.reason : undefined
  return (
    Predicate.isTagged(reason, "RequestParseError") &&
    Predicate.hasProperty(reason, "reason") &&
    reason.reason === "BodyTooLarge"
  )
}
