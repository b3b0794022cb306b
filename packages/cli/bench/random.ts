/** A seeded pseudo-random generator (mulberry32), so benchmark data is the same on every run. */
export const seededRandom = (start: number) => {
  let seed = start
  const random = (): number => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <A>(items: ReadonlyArray<A>): A => items[Math.floor(random() * items.length)] as A
  /**
   * A rank in `0 .. size - 1` drawn with a long tail (Zipf's law, exponent about 1: rank r about as likely as 1 / r), as
   * the words of a text are: a few very common, many rare.
   */
  const zipfRank = (size: number): number => Math.min(size - 1, Math.floor(Math.exp(random() * Math.log(size))) - 1)
  return { random, pick, zipfRank }
}
