import type { ErrorCode } from "@tenders/contract"
import { HttpServerResponse } from "effect/http"

/** A response in the contract's error shape. */
export const errorResponse = (
  status: number,
  code: ErrorCode,
  message: string
): HttpServerResponse.HttpServerResponse => HttpServerResponse.jsonUnsafe({ error: { code, message } }, { status })
