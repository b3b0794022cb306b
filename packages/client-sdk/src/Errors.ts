import type { ErrorCode } from "@tenders/contract"

export type { ErrorCode }

/** Base class of every error the promise client and `verifyWebhook` throw. */
export class TendersError extends Error {
  override readonly name: string = "TendersError"
}

/**
 * The service answered with one of the seven contract errors (`{ error: { code, message } }`).
 * `code` tells the cases apart (both 403s share the status); narrow with `error.code === "not_found"` or
 * {@link isTendersApiError}. Input the contract refuses is reported the same way (`invalid_input`, 400)
 * before it is sent.
 */
export class TendersApiError<Code extends ErrorCode = ErrorCode> extends TendersError {
  override readonly name = "TendersApiError"
  /** One of the seven contract codes. */
  readonly code: Code
  /** The HTTP status: 400, 401, 403, 404, 429 or 500. */
  readonly status: number
  /** Seconds the service asked to wait (`Retry-After`), when it sent one; on 429 the time until the quota resets. */
  readonly retryAfter: number | undefined

  constructor(props: {
    readonly code: Code
    readonly status: number
    readonly message: string
    readonly retryAfter?: number | undefined
  }) {
    super(props.message)
    this.code = props.code
    this.status = props.status
    this.retryAfter = props.retryAfter
  }
}

/** No answer arrived (connection refused or reset, DNS failure, timeout), after the retries. */
export class TendersNetworkError extends TendersError {
  override readonly name = "TendersNetworkError"
}

/**
 * An answer the contract does not describe: an undeclared status (e.g. a proxy's 502 page)
 * or a body of the wrong shape.
 */
export class TendersResponseError extends TendersError {
  override readonly name = "TendersResponseError"
  /** The HTTP status of the answer. */
  readonly status: number

  constructor(message: string, status: number, options?: ErrorOptions) {
    super(message, options)
    this.status = status
  }
}

/** A webhook delivery failed verification: missing headers, wrong signature, stale timestamp or unexpected body. */
export class TendersWebhookError extends TendersError {
  override readonly name = "TendersWebhookError"
}

/** True when `error` is a {@link TendersApiError}, optionally with one of the given codes (narrows `code`). */
export const isTendersApiError = <const Code extends ErrorCode = ErrorCode>(
  error: unknown,
  ...codes: ReadonlyArray<Code>
): error is TendersApiError<Code> =>
  error instanceof TendersApiError && (codes.length === 0 || codes.some((code) => code === error.code))
