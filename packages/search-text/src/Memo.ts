// The memo the analysis keeps of its pure functions of a word (a stem, a word's terms) and of a query (its plan):
// notices repeat their words, and working a word out again is most of an ingest's time; searches repeat their texts.
// Bounded, so a long ingest does not grow it without end, in two generations of half the bound each, so that what is
// in use stays: once the newer is full it becomes the older and the older goes; a value found in the older moves to
// the newer. A value asked again before half the bound of others came is kept; one not asked since is dropped (and
// only worked out again if asked).

/** A memo of at most `limit` values by key: `memo(key, compute)` is `compute()`, worked out once while kept. */
export const boundedMemo = <A>(limit: number): ((key: string, compute: () => A) => A) => {
  const generation = Math.max(1, Math.floor(limit / 2))
  let newer = new Map<string, A>()
  let older = new Map<string, A>()
  return (key, compute) => {
    let value = newer.get(key)
    if (value !== undefined) return value
    value = older.get(key) ?? compute()
    if (newer.size >= generation) {
      older = newer
      newer = new Map()
    }
    newer.set(key, value)
    return value
  }
}
