import type { ParseResult } from "@tenders/core"
import { Result } from "effect"
import { type AttemptFailure, fatal, type Reply, replyText, retryable, statusFailure } from "../http/AttemptFailure.ts"
import { readEisArchive } from "./archive.ts"
import { descendants, descendantTexts, readXml, text } from "./xml.ts"

/** Namespace of the EIS "сервис отдачи информации" (getDocsIP) operations. */
export const GET_DOCS_NS = "http://zakupki.gov.ru/fz44/get-docs-ip/ws"

/** One `getDocsByOrgRegionRequest`: a region, a document type, one day. */
export interface SoapQuery {
  readonly token: string
  readonly requestId: string
  readonly createDateTime: string
  readonly region: string
  readonly documentType: string
  readonly day: string
}

const escapeXml = (s: string): string =>
  s.replace(/&/gu, "&amp;").replace(/</gu, "&lt;").replace(/>/gu, "&gt;").replace(/"/gu, "&quot;")

/** The SOAP envelope: token in the header, unqualified children in the order the service validates. */
export const soapEnvelope = (q: SoapQuery): string => `<?xml version="1.0" encoding="UTF-8"?>
<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ws="${GET_DOCS_NS}">
  <soapenv:Header>
    <individualPerson_token>${escapeXml(q.token)}</individualPerson_token>
  </soapenv:Header>
  <soapenv:Body>
    <ws:getDocsByOrgRegionRequest>
      <index>
        <id>${escapeXml(q.requestId)}</id>
        <createDateTime>${escapeXml(q.createDateTime)}</createDateTime>
        <mode>PROD</mode>
      </index>
      <selectionParams>
        <orgRegion>${escapeXml(q.region)}</orgRegion>
        <subsystemType>PRIZ</subsystemType>
        <documentType44>${escapeXml(q.documentType)}</documentType44>
        <periodInfo>
          <exactDate>${escapeXml(q.day)}</exactDate>
        </periodInfo>
      </selectionParams>
    </ws:getDocsByOrgRegionRequest>
  </soapenv:Body>
</soapenv:Envelope>
`

/** Reads a getDocsIP reply: the archive URLs; a SOAP fault or an `errorInfo` is fatal, a garbled reply is retried. */
export const readSoapReply = (reply: Reply): Result.Result<ReadonlyArray<string>, AttemptFailure> => {
  const read = readXml(replyText(reply))
  if (read._tag === "Ok") {
    const fault = descendants(read.node, "Fault")[0]
    if (fault !== undefined) {
      const message = text(fault, "faultstring") ?? text(fault, "Reason", "Text") ?? text(fault, "faultcode")
      return Result.fail(fatal(`SOAP fault: ${message ?? "no fault message"}`))
    }
  }
  const byStatus = statusFailure(reply)
  if (byStatus !== undefined) return Result.fail(byStatus)
  if (read._tag === "Error") return Result.fail(retryable(`unreadable SOAP reply: ${read.reason}`))
  if (read.name !== "Envelope") return Result.fail(retryable(`not a SOAP envelope: <${read.name}>`))
  const error = descendants(read.node, "errorInfo")[0]
  if (error !== undefined) {
    return Result.fail(
      fatal(`getDocsIP error ${text(error, "code") ?? "?"}: ${text(error, "message") ?? "no message"}`)
    )
  }
  return Result.succeed(descendantTexts(read.node, "archiveUrl"))
}

/** Reads an archive reply: every `.xml` file of the ZIP parsed; a damaged ZIP is retried. */
export const readArchiveReply = (reply: Reply): Result.Result<ReadonlyArray<ParseResult>, AttemptFailure> => {
  const byStatus = statusFailure(reply)
  return byStatus === undefined ? Result.mapError(readEisArchive(reply.body), retryable) : Result.fail(byStatus)
}
