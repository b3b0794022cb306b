import { DateTime, Effect } from "effect"
import { type ClassificationPack, type PackCode, packDigest, type PackData, packsDigest } from "../Classifications.ts"
import { ClassificationStore } from "../ports/ClassificationStore.ts"
import { NoticeStore } from "../ports/NoticeStore.ts"
import { SearchText } from "../TextQuery.ts"

/** The packs in the store, as the text analysis reads them. */
export const loadPacks = Effect.fn("loadPacks")(function* () {
  const store = yield* ClassificationStore
  const infos = yield* store.status
  const packs = new Map<ClassificationPack, ReadonlyArray<PackCode>>()
  for (const info of infos) packs.set(info.pack, yield* store.codes(info.pack))
  const data: PackData = { digest: yield* packsDigest(infos), packs }
  return data
})

/** The digest of the packs in the store (cheap: read from their status), to tell whether they changed. */
export const currentPacksDigest = Effect.fn("currentPacksDigest")(function* () {
  return yield* packsDigest(yield* (yield* ClassificationStore).status)
})

/**
 * Imports a pack: its codes replace the pack's in the store as a new version, unless they are the same as now
 * (importing the same file twice changes nothing). Gives the pack's status, and whether it changed.
 */
export const importPack = Effect.fn("importPack")(function* (pack: ClassificationPack, codes: ReadonlyArray<PackCode>) {
  const store = yield* ClassificationStore
  const digest = yield* packDigest(codes)
  const replaced = yield* store.replace(pack, codes, digest, yield* DateTime.now)
  if (replaced !== undefined) return { changed: true, info: replaced }
  const info = (yield* store.status).find((i) => i.pack === pack)
  return info === undefined ? yield* Effect.die(`${pack} unchanged but not in the store`) : { changed: false, info }
})

/**
 * Gives the text analysis the labels sources published beside their codes (`SearchText.useSourceLabels`) when the
 * store has others than it uses; whether it did. Every process at start, and every server each tick.
 */
export const useSourceLabelsOfStore = Effect.fn("useSourceLabelsOfStore")(function* () {
  const text = yield* SearchText
  const store = yield* NoticeStore
  if ((yield* store.sourceLabelCount) === text.sourceLabelCount) return false
  text.useSourceLabels(yield* store.sourceLabels)
  return true
})
