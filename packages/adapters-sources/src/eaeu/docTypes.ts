/** How a document root element (local name) is handled; see doc-types-and-status-map.json of the field guide. */
export type DocFamily =
  | { readonly _tag: "Notice44"; readonly segment: string | undefined }
  | { readonly _tag: "Cancel44" }
  | { readonly _tag: "FinalProtocol44"; readonly segment: string | undefined }
  | { readonly _tag: "FailedProcedure44"; readonly segment: string | undefined }
  | { readonly _tag: "Notice223" }
  | { readonly _tag: "Rejection223" }
  | { readonly _tag: "Unsupported"; readonly reason: string }

const noticeSegments: Readonly<Record<string, string>> = {
  epNotificationEF2020: "ea20",
  epNotificationEZK2020: "zk20",
  epNotificationEZT2020: "ezt20",
  epNotificationEOK2020: "ok20",
  epNotificationEOKOU: "okou20",
  epNotificationEOKD: "okd20",
  fcsNotificationEF: "ea44",
  fcsNotificationZK: "zk44",
  fcsNotificationOK: "ok44",
  pprf615NotificationEF: "ea615"
}

const protocolSegment = (name: string): string | undefined =>
  name.startsWith("epProtocolEF2020")
    ? "ea20"
    : name.startsWith("epProtocolEZK2020")
      ? "zk20"
      : name.startsWith("epProtocolEOK2020")
        ? "ok20"
        : name.startsWith("fcsProtocolEF")
          ? "ea44"
          : undefined

const finalProtocols = new Set([
  "epProtocolEF2020Final",
  "epProtocolEZK2020Final",
  "epProtocolEOK2020Final",
  "fcsProtocolEF3"
])
const failedProcedures = new Set([
  "fcsProtocolEFInvalidation",
  "epNoticeApplicationsAbsence",
  "fcsNoticeApplicationsAbsence"
])
const cancels = new Set([
  "epNotificationCancel",
  "fcsNotificationCancel",
  "pprf615NotificationCancel",
  "epProtocolCancel"
])

/** Classifies a document by the local name of its root element. */
export const classify = (name: string): DocFamily => {
  if (cancels.has(name)) return { _tag: "Cancel44" }
  if (name.endsWith("CancelFailure")) {
    return { _tag: "Unsupported", reason: `${name} (cancellation revoked) has no notice kind yet; not mapped` }
  }
  if (finalProtocols.has(name)) return { _tag: "FinalProtocol44", segment: protocolSegment(name) }
  if (failedProcedures.has(name) || /^(ep|fcs)Protocol\w*Invalidation$/u.test(name)) {
    return { _tag: "FailedProcedure44", segment: protocolSegment(name) }
  }
  if (/^(ep|fcs|pprf615)Notification/u.test(name)) return { _tag: "Notice44", segment: noticeSegments[name] }
  if (name === "purchaseRejection") return { _tag: "Rejection223" }
  if (/^purchaseNotice[A-Za-z0-9]*$/u.test(name)) return { _tag: "Notice223" }
  if (/Protocol|Clarification|Suspension|purchaseLotCancellation/u.test(name)) {
    return { _tag: "Unsupported", reason: `${name} is an informational document without a lifecycle effect; skipped` }
  }
  return { _tag: "Unsupported", reason: `unknown EIS document type <${name}>` }
}

const EIS = "https://zakupki.gov.ru"

/** The URL segment (`ea20`, `zk20`, …) an EIS card URL carries, if any. */
export const segmentOf = (href: string | undefined): string | undefined =>
  href === undefined ? undefined : /\/epz\/order\/notice\/([a-z0-9]+)\/view\//u.exec(href)?.[1]

/** The public EIS card of a 44-FZ purchase; the search page when the procedure type is unknown. */
export const card44Url = (purchaseNumber: string, segment: string | undefined): string =>
  segment === undefined
    ? `${EIS}/epz/order/extendedsearch/results.html?searchString=${purchaseNumber}`
    : `${EIS}/epz/order/notice/${segment}/view/common-info.html?regNumber=${purchaseNumber}`

/** The documents tab of a 44-FZ purchase card. */
export const docs44Url = (purchaseNumber: string, segment: string): string =>
  `${EIS}/epz/order/notice/${segment}/view/documents.html?regNumber=${purchaseNumber}`

/** The public EIS card of a 223-FZ purchase. */
export const card223Url = (registrationNumber: string): string =>
  `${EIS}/223/purchase/public/purchase/info/common-info.html?regNumber=${registrationNumber}`

/** Makes an EIS link absolute and repairs the doubled host seen in RSS (`https://zakupki.gov.ruhttps://…`). */
export const absoluteEisUrl = (link: string | undefined): string | undefined => {
  if (link === undefined) return undefined
  const trimmed = link.trim()
  const doubled = /^https?:\/\/zakupki\.gov\.ru(https?:\/\/.*)$/u.exec(trimmed)
  if (doubled?.[1] !== undefined) return doubled[1]
  if (/^https?:\/\//u.test(trimmed)) return trimmed
  if (trimmed.startsWith("/")) return `${EIS}${trimmed}`
  return undefined
}
