// Where a request's time went inside the server, from two scrapes of its /metrics: the latency histograms of the
// routes the bench calls (arrival at the router to the answer) and of the searches the result cache did not answer
// (their time in the use case). What autocannon measures besides is the time on the wire and in the server's queue
// before the router.

/** A histogram's cumulative counts per upper bound (seconds), summed over the series `select` keeps. */
const bucketsOf = (text: string, family: string, select: (labels: string) => boolean): Map<number, number> => {
  const counts = new Map<number, number>()
  const bucket = new RegExp(`^${family}_bucket\\{(.*)le="([^"]+)"\\} (\\d+)$`, "u")
  for (const line of text.split("\n")) {
    const match = bucket.exec(line)
    if (match === null || !select(match[1] ?? "")) continue
    const le = match[2] === "+Inf" ? Infinity : Number(match[2])
    counts.set(le, (counts.get(le) ?? 0) + Number(match[3]))
  }
  return counts
}

/** The upper bound (ms) of the bucket holding quantile `q` of the counts between two scrapes, and their number. */
const quantiles = (before: Map<number, number>, after: Map<number, number>) => {
  const bounds = [...after.keys()].toSorted((a, b) => a - b)
  const counts = bounds.map((le) => (after.get(le) ?? 0) - (before.get(le) ?? 0))
  const total = counts.at(-1) ?? 0
  const at = (q: number) => {
    if (total === 0) return "-"
    const index = counts.findIndex((count) => count >= q * total)
    const le = bounds[index] ?? Infinity
    return le === Infinity ? "> 10 s" : `≤ ${le * 1000} ms`
  }
  const over = (ms: number) => {
    const index = bounds.findIndex((le) => le * 1000 >= ms)
    return total === 0 ? 0 : (100 * (total - (counts[index] ?? total))) / total
  }
  return { total, at, over }
}

/** One line per route the bench calls and one for the searches run: count, p50 and p99 (bucket bounds), over 25 ms. */
export const describeServerTime = (before: string, after: string): string => {
  const between = (family: string, select: (labels: string) => boolean) =>
    quantiles(bucketsOf(before, family, select), bucketsOf(after, family, select))
  const parts = [
    ["search", between("tenders_http_request_duration_seconds", (l) => l.includes('route="/v1/tenders/search"'))],
    ["get-tender", between("tenders_http_request_duration_seconds", (l) => l.includes('route="/v1/tenders/:id"'))],
    ["searches run (use case)", between("tenders_search_duration_seconds", () => true)]
  ] as const
  return parts
    .map(
      ([name, q]) => `${name} ${q.total}: p50 ${q.at(0.5)}, p99 ${q.at(0.99)}, over 25 ms ${q.over(25).toFixed(1)} %`
    )
    .join("; ")
}
