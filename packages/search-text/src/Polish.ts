// A light Polish stemmer. Snowball has none, and Polish titles put their nouns and adjectives in every case ("remont
// drogi krajowej", "remonty dróg krajowych", "na drodze"), so without one a word meets only its own form. This strips,
// longest first, one ending of the noun and adjective declensions (-ami, -ach, -ych, -ego, -owi, -ów, -om, -em, -ej,
// -ym, and the one-letter vowels), so a word's case forms meet at one stem; verbal nouns (-anie, -enie) keep their
// -n- ("wykonanie", "wykonania", "wykonaniu" are "wykonan"). Stems are then folded (ó, ł, ś as o, l, s), which also
// joins some alternations ("szkoła", "szkole"; "robót", "roboty"). Stem changes (drog-/drodz-, miast-/mieśc-) and the
// fleeting e (budynek, budynku) are left apart; a stem keeps at least three letters.

import { suffixStripper } from "./Suffixes.ts"

/** The endings `polishStem` strips (the longest that fits first; checked against the word with its diacritics). */
export const polishSuffixes: ReadonlyArray<string> = [
  "iami",
  "iach",
  "iego",
  "iemu",
  "iem",
  "ami",
  "ach",
  "ych",
  "ich",
  "ymi",
  "imi",
  "ego",
  "emu",
  "owi",
  "iej",
  "ią",
  "ię",
  "ia",
  "ie",
  "iu",
  "ii",
  "ów",
  "om",
  "em",
  "ej",
  "ym",
  "im",
  "a",
  "e",
  "i",
  "o",
  "u",
  "y",
  "ą",
  "ę"
]

/** The stem of a lower-case Polish word, not yet folded (`stemmerOf` folds it as it folds Snowball's stems). */
export const polishStem: (word: string) => string = suffixStripper(polishSuffixes)
