/**
 * A header of weighted values (`Accept-Language`, `Accept-Encoding`: `value;q=0.8, other`) as its values, lower
 * case, the most preferred first (by q-value, then the order written); those with q=0 (refused) are left out, and a
 * q-value that is not a number counts as 0.
 */
export const weightedValues = (header: string | undefined): ReadonlyArray<string> =>
  (header ?? "")
    .split(",")
    .map((entry, i) => {
      const [value = "", ...params] = entry.trim().split(";")
      const written = params.find((p) => p.trim().startsWith("q="))
      const q = written === undefined ? 1 : Number(written.trim().slice(2))
      return { value: value.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((entry) => entry.value.length > 0 && entry.q > 0)
    .toSorted((a, b) => b.q - a.q || a.i - b.i)
    .map((entry) => entry.value)
