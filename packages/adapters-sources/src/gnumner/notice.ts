import type { NoticeKind, ParsedNotice, RejectedNotice, SourceLabel } from "@tenders/core"
import { Result } from "effect"
import { toParsedNotice } from "../parsedNotice.ts"
import { armenianSlug, canonicalCode, displayCode, regionFor } from "./code.ts"

/** What a listing section means for the procedures it lists (sections.json `kind`). */
export interface SectionMeaning {
  readonly kind: NoticeKind
  readonly reason: string | null
}

const tender: SectionMeaning = { kind: "original", reason: null }
const result: SectionMeaning = { kind: "result", reason: null }

/** Tender sections of the Armenian UI (sections.json). */
export const ARMENIAN_TENDER_SECTIONS: ReadonlyArray<string> = [
  "elektronayin_achurdi_haytararutyun_ev_hraver",
  "bac_mrcuyti_haytararutyun_ev_hraver",
  "gnanshman_harcman_haytararutyun_ev_hraver",
  "erkpul_mrcuyti_nakhaorakavorman_haytararutyun",
  "bac_mrcuyti_nakhaorakavorman_haytararutyun",
  "gnanshman_harcman_nakhaorakavorman_haytararutyun",
  "_pak_npatakayin_mrcuyti_nakhaorakavorman_haytararutyun",
  "pak_parberakan_mrcuyti_nakhaorakavorman_haytararutyun_ev_hraver",
  "_mek_andzic_gnumneri_katarman_haytararutyun_ev_hraver",
  "otarerkrya_petutyunneri_koghmic_kazmakerpvogh_gnumner",
  "mayr_ator_s_ejmiatsni_haytararutyunner",
  "tsragri_irakanacman_grasenyakneri_koghmic_katarvogh_gnumneri_masin_haytararutyunner_ev_hraverner",
  "hanrayin_kazmakerputyunneri_koghmic_katarvogh_gnumneri_veraberyal_haytararutyunner"
]

/** Tender sections of the Russian UI, seen in another scraper (sections.json `ru_sections_seen_in_another_scraper`). */
export const RUSSIAN_TENDER_SECTIONS: ReadonlyArray<string> = [
  "obyavlenie_i_priglashenie_na_elektronnyi_auktcion",
  "obyavlenie_i_priglashenie_na_otkrytyi_konkurs",
  "obyavlenie_i_priglashenie_po_zaprosu_kotirovok",
  "zapros_tcenovykh_predlozhenii"
]

const TENDER_SECTIONS: ReadonlyArray<string> = [...ARMENIAN_TENDER_SECTIONS, ...RUSSIAN_TENDER_SECTIONS]

const RESULT_SECTIONS: ReadonlyArray<string> = [
  "paymanagir_knqelu_masin_haytararutyun",
  "knqvats_paymanagri_masin_haytararutyun",
  "hayteri_bacman_nisti_ardzanagrutyunner",
  "hayteri_gnahatman_nisti_ardzanagrutyunner",
  "pak_parberakan_mrcuyti_ardyunqum_knqvats_skzbnakan_paymanagrer"
]

const CLARIFICATION_SECTIONS: ReadonlyArray<string> = [
  "hraveri_veraberyal_tramadrvats_parzabanumneri_masin_haytararutyun_1"
]

/** The meaning of a section slug: a notice meaning, "skip" (clarifications) or "unknown". */
export const sectionMeaning = (slug: string): SectionMeaning | "skip" | "unknown" => {
  const key = slug
    .trim()
    .replace(/^\/+|\/+$/gu, "")
    .toLowerCase()
  if (TENDER_SECTIONS.includes(key)) return tender
  if (RESULT_SECTIONS.includes(key)) return result
  if (CLARIFICATION_SECTIONS.includes(key)) return "skip"
  if (key === "hraverum_katarvats_popokhutyunner") return { kind: "amendment", reason: null }
  if (key === "chkayacats_gnman_yntacakargi_masin_haytararutyunner") {
    return { kind: "cancellation", reason: "failed" }
  }
  return "unknown"
}

/** The fields a page yields for one notice, before normalisation and validation. */
export interface NoticeDraft {
  readonly meaning: SectionMeaning
  readonly code: string | null
  readonly title: string | null
  readonly buyer: string | null
  readonly budget: string | null
  readonly deadline: string | null
  readonly publishedAt: string | null
  readonly url: string | null
  readonly cpvCodes: ReadonlyArray<string>
  readonly docsUrl: ReadonlyArray<string>
  /** More text for the region heuristic (e.g. the Armenian title when the English one is the record title). */
  readonly regionHints?: ReadonlyArray<string | null>
  /** The names the source gives its codes (ARMEPS `CPV Codes`). */
  readonly sourceLabels?: ReadonlyArray<SourceLabel>
}

/** A validated notice or the reason it was rejected. */
export type DraftOutcome =
  | { readonly _tag: "notice"; readonly notice: ParsedNotice }
  | { readonly _tag: "rejected"; readonly rejected: RejectedNotice }

const reject = (where: string, reason: string): DraftOutcome => ({ _tag: "rejected", rejected: { where, reason } })

/** Builds the record of a draft and validates it as a `ParsedNotice` (`toParsedNotice`); never throws. */
export const finishDraft = (draft: NoticeDraft, where: string): DraftOutcome => {
  if (draft.code === null) return reject(where, "no procurement code (expected `[code]` in the title / a code field)")
  if (draft.title === null) return reject(where, `no title for procurement code ${draft.code}`)
  if (draft.url === null) return reject(where, `no http(s) resource URL for procurement code ${draft.code}`)
  const slug = armenianSlug(canonicalCode(draft.code))
  if (slug.length === 0) return reject(where, `procurement code ${draft.code} has no letters or digits for an id`)
  const notice = toParsedNotice({
    kind: draft.meaning.kind,
    procedureKey: canonicalCode(draft.code),
    version: null,
    reason: draft.meaning.reason,
    ...(draft.sourceLabels === undefined || draft.sourceLabels.length === 0
      ? {}
      : { sourceLabels: draft.sourceLabels }),
    record: {
      id: `gnumner-${slug}`,
      source: "gnumner",
      nativeId: displayCode(draft.code),
      title: draft.title,
      buyer: draft.buyer,
      country: "AM",
      region: regionFor(draft.code, [draft.buyer, draft.title, ...(draft.regionHints ?? [])]),
      budget: draft.budget,
      // gnumner amounts are always in AMD, and docs/sample-data.md makes gnumner the documented exception to
      // "currency null when the budget is unknown" (expected-cards.json also has budget null + "AMD"); the schema
      // allows both, so we follow the project's data contract rather than nulling the currency.
      currency: "AMD",
      deadline: draft.deadline,
      publishedAt: draft.publishedAt,
      url: draft.url,
      cpvCodes: draft.cpvCodes,
      okpd2Codes: [],
      lots: [],
      docsUrl: draft.docsUrl
    }
  })
  return Result.isSuccess(notice)
    ? { _tag: "notice", notice: notice.success }
    : reject(where, `invalid notice for ${draft.code}: ${notice.failure}`)
}

/** Splits outcomes into the `ParseResult` shape. */
export const collect = (
  outcomes: ReadonlyArray<DraftOutcome>
): {
  readonly notices: ReadonlyArray<ParsedNotice>
  readonly rejected: ReadonlyArray<RejectedNotice>
} => ({
  notices: outcomes.flatMap((o) => (o._tag === "notice" ? [o.notice] : [])),
  rejected: outcomes.flatMap((o) => (o._tag === "rejected" ? [o.rejected] : []))
})
