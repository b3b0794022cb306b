/**
 * How many edits a misspelt word may be from the word it is read as, by its length (as Typesense and Meilisearch
 * do): none under 4 letters (too many near neighbours), 1 from 4 to 7, 2 from 8.
 */
export const typoBudget = (word: string): number => {
  const length = [...word].length
  return length < 4 ? 0 : length < 8 ? 1 : 2
}

/**
 * The last row of the Damerau–Levenshtein table of two words (optimal string alignment: an insertion, a deletion, a
 * substitution or a transposition of two neighbours is one edit), in code points: the edits from `a` to each
 * beginning of `b`; undefined once every entry of a row is above `max`.
 */
const lastRow = (
  x: ReadonlyArray<string>,
  y: ReadonlyArray<string>,
  max: number
): ReadonlyArray<number> | undefined => {
  let before: Array<number> = []
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j)
  for (let i = 1; i <= x.length; i++) {
    const current = [i]
    let smallest = i
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1
      let d = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, (before[j - 2] ?? 0) + 1)
      current.push(d)
      smallest = Math.min(smallest, d)
    }
    if (smallest > max) return undefined
    before = previous
    previous = current
  }
  return previous
}

/** The Damerau–Levenshtein distance of two words (`lastRow`); any distance above `max` is `max + 1`. */
export const editDistance = (a: string, b: string, max: number): number => {
  const x = [...a]
  const y = [...b]
  if (Math.abs(x.length - y.length) > max) return max + 1
  return Math.min(lastRow(x, y, max)?.[y.length] ?? max + 1, max + 1)
}

/**
 * The distance of a word to the nearest beginning of another, what follows it being free: the edits from a misspelt
 * word to an inflected form of the word meant ("կահուք" is one from "կահույքի", whose beginning is "կահույք").
 * Any distance above `max` is `max + 1`.
 */
export const prefixDistance = (word: string, other: string, max: number): number => {
  const x = [...word]
  const y = [...other]
  if (y.length < x.length - max) return max + 1
  return Math.min(...(lastRow(x, y, max) ?? []), max + 1)
}

/**
 * A word of the vocabulary a misspelt word may be read as, with how similar they look (trigram similarity, 0..1) and
 * how many tenders have it (0 when not known).
 */
export interface SpellingCandidate {
  readonly word: string
  readonly similarity: number
  readonly frequency?: number
}

/**
 * What a word the index does not know is read as: of the vocabulary's candidates, those within its typo budget of the
 * word or of a beginning of it (an inflected form of the word meant), the fewest edits first, then the fewest to the
 * whole word, then the most frequent, then the most similar, then the first in order; none when no candidate is
 * within the budget.
 */
export const bestCorrection = (word: string, candidates: ReadonlyArray<SpellingCandidate>): string | undefined => {
  const budget = typoBudget(word)
  if (budget === 0) return undefined
  return candidates
    .filter((candidate) => candidate.word !== word)
    .map((candidate) => {
      const whole = editDistance(word, candidate.word, budget)
      return { ...candidate, whole, distance: Math.min(whole, prefixDistance(word, candidate.word, budget)) }
    })
    .filter((candidate) => candidate.distance <= budget)
    .toSorted(
      (p, q) =>
        p.distance - q.distance ||
        p.whole - q.whole ||
        (q.frequency ?? 0) - (p.frequency ?? 0) ||
        q.similarity - p.similarity ||
        (p.word < q.word ? -1 : 1)
    )[0]?.word
}
