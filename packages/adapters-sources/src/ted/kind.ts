import type { NoticeKind } from "@tenders/core"
import { firstString, strings } from "./values.ts"

/** What a notice is, or `skip` for planning notices (prior information only, not an open tender). */
export type Classification = { readonly kind: NoticeKind; readonly reason: string | null } | "skip"

const planningNoticeTypes = new Set(["pin-only", "pin-buyer", "pin-rtl"])
const resultFormTypes = new Set(["result", "completion", "cont-modif", "dir-awa-pre"])
const resultNoticeTypes = new Set(["veat", "compl", "can-modif"])

/** FIELD-GUIDE 1.5: planning -> skip; change notice -> cancellation/amendment; result form -> result; else original. */
export const classifyNotice = (notice: { readonly [k: string]: unknown }): Classification => {
  const formType = firstString(notice["form-type"])?.toLowerCase() ?? ""
  const noticeType = firstString(notice["notice-type"])?.toLowerCase() ?? ""
  if (formType === "planning" || planningNoticeTypes.has(noticeType)) return "skip"
  if (strings(notice["change-notice-version-identifier"]).some((s) => s.length > 0)) {
    const codes = [...new Set(strings(notice["change-reason-code"]).filter((s) => s.length > 0))]
    return {
      kind: codes.includes("cancel") ? "cancellation" : "amendment",
      reason: codes.length === 0 ? null : codes.join(", ")
    }
  }
  if (resultFormTypes.has(formType) || noticeType.startsWith("can-") || resultNoticeTypes.has(noticeType)) {
    return { kind: "result", reason: null }
  }
  return { kind: "original", reason: null }
}
