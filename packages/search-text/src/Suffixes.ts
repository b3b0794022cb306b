/** The fewest letters a light stemmer leaves of a word (Armenian.ts, Polish.ts). */
export const minimumStem = 3

/**
 * A light stemmer's one step: the word without the longest of `suffixes` it ends in that leaves at least three
 * letters; the word itself when none does.
 */
export const suffixStripper = (suffixes: ReadonlyArray<string>) => {
  const longestFirst = suffixes.toSorted((a, b) => b.length - a.length)
  return (word: string): string => {
    const suffix = longestFirst.find((s) => word.endsWith(s) && [...word].length - [...s].length >= minimumStem)
    return suffix === undefined ? word : word.slice(0, word.length - suffix.length)
  }
}
