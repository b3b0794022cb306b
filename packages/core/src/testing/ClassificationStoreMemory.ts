import { Effect, Layer } from "effect"
import type { ClassificationPack, PackCode, PackInfo } from "../Classifications.ts"
import { ClassificationStore } from "../ports/ClassificationStore.ts"
import { formatUtc } from "../Time.ts"

/** ClassificationStore in memory (one per layer build). */
export const ClassificationStoreMemory = Layer.sync(ClassificationStore, () => {
  const packs = new Map<ClassificationPack, { info: PackInfo; codes: ReadonlyArray<PackCode> }>()
  return ClassificationStore.of({
    status: Effect.sync(() => [...packs.values()].map((p) => p.info)),
    codes: (pack) => Effect.sync(() => packs.get(pack)?.codes ?? []),
    replace: (pack, codes, digest, at) =>
      Effect.sync(() => {
        const before = packs.get(pack)
        if (before?.info.digest === digest) return undefined
        const info: PackInfo = {
          pack,
          version: (before?.info.version ?? 0) + 1,
          digest,
          inForce: codes.filter((c) => !c.withdrawn).length,
          withdrawn: codes.filter((c) => c.withdrawn).length,
          importedAt: formatUtc(at)
        }
        packs.set(pack, { info, codes })
        return info
      })
  })
})
