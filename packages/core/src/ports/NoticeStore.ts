import { Context, type Effect } from "effect"
import type { TenderChange } from "../Lifecycle.ts"
import type { ParsedNotice, SourceLabel } from "../SourceNotice.ts"
import type { TenderRecord } from "../Tender.ts"

/** The lifecycle decision for one incoming notice, given every notice of its procedure and the stored tender. */
export type NoticeResolver = (
  notices: ReadonlyArray<ParsedNotice>,
  before: TenderRecord | undefined,
  incoming: ParsedNotice
) => { readonly tender: TenderRecord | undefined; readonly change: TenderChange }

/** Source notices, linked into tenders by procedure; each notice is applied atomically with its change event. */
export class NoticeStore extends Context.Service<
  NoticeStore,
  {
    /**
     * Records each notice (the same notice twice is unchanged), resolves its procedure's tender with `resolve`,
     * stores the tender (under a new id when the canonical id changed, keeping the old one as an alias) and its
     * change event, all in one transaction per notice.
     */
    readonly applyNotices: (
      notices: ReadonlyArray<ParsedNotice>,
      resolve: NoticeResolver
    ) => Effect.Effect<ReadonlyArray<TenderChange>>
    /**
     * The names sources gave their codes in the notices applied (`ParsedNotice.sourceLabels`), each once, in the
     * order first seen. The store only adds to them.
     */
    readonly sourceLabels: Effect.Effect<ReadonlyArray<SourceLabel>>
    /** How many `sourceLabels` there are (cheap: to tell whether they changed). */
    readonly sourceLabelCount: Effect.Effect<number>
  }
>()("@tenders/core/NoticeStore") {}
