/** One value of a weighted header, lower case, with its q-value (1 when not written, 0 when not a number). */
export interface WeightedValue {
  readonly value: string
  readonly q: number
}

/**
 * A header of weighted values (`Accept-Language`, `Accept-Encoding`: `value;q=0.8, other`) as written, each with its
 * q-value; those with q=0 say the value is refused.
 */
export const weightedEntries = (header: string | undefined): ReadonlyArray<WeightedValue> =>
  (header ?? "")
    .split(",")
    .map((entry) => {
      const [value = "", ...params] = entry.trim().split(";")
      const written = params.find((p) => p.trim().startsWith("q="))
      const q = written === undefined ? 1 : Number(written.trim().slice(2))
      return { value: value.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0 }
    })
    .filter((entry) => entry.value.length > 0)

/**
 * A weighted header's values, the most preferred first (by q-value, then the order written), those refused (q=0) left
 * out.
 */
export const weightedValues = (header: string | undefined): ReadonlyArray<string> =>
  weightedEntries(header)
    .map((entry, i) => ({ ...entry, i }))
    .filter((entry) => entry.q > 0)
    .toSorted((a, b) => b.q - a.q || a.i - b.i)
    .map((entry) => entry.value)
