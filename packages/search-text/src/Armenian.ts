// A light Armenian stemmer: Snowball's Armenian stemmer is both too strong (դպրոցի -> դպրո, տանիքի -> տան) and too
// weak (դպրոցների is left whole), so a noun's forms would not meet. This one strips, longest first, the endings of
// Eastern Armenian nouns and adjectives: plural (-ներ, -եր), case (-ի, -ու, -ից, -ով, -ում, -ին, -ման), article
// (-ը), the abstract -ություն/-ության, the adjective -ային/-ական; a stem keeps at least three letters.

import { minimumStem, suffixStripper } from "./Suffixes.ts"

/** The endings `armenianStem` strips (the longest that fits first). */
export const armenianSuffixes: ReadonlyArray<string> = [
  "ություններից",
  "ությունների",
  "ությունները",
  "ություններ",
  "ությունից",
  "ությունով",
  "ությունում",
  "ությունը",
  "ությունն",
  "ություն",
  "ությամբ",
  "ության",
  "ներից",
  "ներով",
  "ներում",
  "ներին",
  "ների",
  "ները",
  "ներն",
  "ներ",
  "երից",
  "երով",
  "երում",
  "երին",
  "երի",
  "երը",
  "երն",
  "եր",
  "ային",
  "ական",
  "յին",
  "ման",
  "ում",
  "ից",
  "ով",
  "ին",
  "ու",
  "ի",
  "ը"
]

const strip = suffixStripper(armenianSuffixes)

/**
 * The stem of a lower-case Armenian word (NFKC: և as եւ). A noun in -ա takes a յ before its case endings
 * (տեխնիկա, տեխնիկայի, տեխնիկայով): a stem left in -այ loses the յ, so the forms meet.
 */
export const armenianStem = (word: string): string => {
  let stem = word
  for (let pass = 0; pass < 2; pass++) {
    const shorter = strip(stem)
    if (shorter === stem) break
    stem = shorter
  }
  return stem !== word && stem.endsWith("այ") && [...stem].length > minimumStem ? stem.slice(0, -1) : stem
}
