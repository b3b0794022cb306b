// The memo the analysis keeps of its pure functions of a word (a stem, a word's terms) and of a query (its plan):
// notices repeat their words, and working a word out again is most of an ingest's time; searches repeat their texts.
// Bounded, so a long ingest does not grow it without end: full, it starts again (a value dropped is only worked out
// again).

/** A memo of at most `limit` values by key: `memo(key, compute)` is `compute()`, worked out once while kept. */
export const boundedMemo = <A>(limit: number): ((key: string, compute: () => A) => A) => {
  const values = new Map<string, A>()
  return (key, compute) => {
    let value = values.get(key)
    if (value === undefined) {
      value = compute()
      if (values.size >= limit) values.clear()
      values.set(key, value)
    }
    return value
  }
}
