import { Effect } from "effect"

/**
 * The classification packs an operator imports (reference data the project may not ship): OKPD2 with its Russian
 * labels, and the CPV's Russian labels. Without them search works on what is shipped.
 */
export const classificationPacks = ["okpd2", "cpv-ru"] as const
export type ClassificationPack = (typeof classificationPacks)[number]

/** One code of a pack: the code as its classification writes it, its label, and whether it was withdrawn. */
export interface PackCode {
  readonly code: string
  readonly label: string
  readonly withdrawn: boolean
}

/** What is loaded of a pack: its version (1 for the first import, +1 for each that changed it) and counts. */
export interface PackInfo {
  readonly pack: ClassificationPack
  readonly version: number
  /** SHA-256 of the pack's codes and labels, in code order: the same content has the same digest. */
  readonly digest: string
  readonly inForce: number
  readonly withdrawn: number
  readonly importedAt: string
}

/** The packs as the text analysis reads them, and one digest of them all (changes when any pack does). */
export interface PackData {
  readonly digest: string
  readonly packs: ReadonlyMap<ClassificationPack, ReadonlyArray<PackCode>>
}

/** No pack loaded. */
export const noPacks: PackData = { digest: "", packs: new Map() }

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("")

/** SHA-256 (hex) of a text. */
export const sha256 = (text: string): Effect.Effect<string> =>
  Effect.map(
    Effect.promise(() => crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))),
    hex
  )

/** A pack's digest: its codes in code order, one `code TAB label TAB withdrawn` line each. */
export const packDigest = (codes: ReadonlyArray<PackCode>): Effect.Effect<string> =>
  sha256(
    codes
      .toSorted((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
      .map((c) => `${c.code}\t${c.label}\t${c.withdrawn ? 1 : 0}`)
      .join("\n")
  )

/** The digest of a set of packs: of their names and digests (empty when none is loaded). */
export const packsDigest = (infos: ReadonlyArray<Pick<PackInfo, "pack" | "digest">>): Effect.Effect<string> =>
  infos.length === 0
    ? Effect.succeed("")
    : sha256(
        infos
          .toSorted((a, b) => a.pack.localeCompare(b.pack))
          .map((info) => `${info.pack}:${info.digest}`)
          .join("\n")
      )
