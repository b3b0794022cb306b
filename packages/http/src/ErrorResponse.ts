import { type ContractFailure, errorBodyOf, errorCodes } from "@tenders/contract"
import { HttpServerResponse } from "effect/http"

/** A core error as a response in the contract's shape, with the status the contract gives its code. */
export const failureResponse = (failure: ContractFailure): HttpServerResponse.HttpServerResponse =>
  HttpServerResponse.jsonUnsafe(errorBodyOf(failure), { status: errorCodes[failure._tag].status })
