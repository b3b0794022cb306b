import { Effect, Metric } from "effect"

// The metric families of the server (docs/metrics.md), in Effect's registry: `GET /metrics` formats them for
// Prometheus. Names follow its conventions: a `tenders_` prefix, the unit in the name, `_total` counters.

/** Upper bounds of the latency histograms, in seconds: 1 ms to 10 s. */
export const latencyBuckets: ReadonlyArray<number> = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
]

/** HTTP requests by route pattern, method and status (REST, MCP, dashboard). */
export const httpRequests = Metric.counter("tenders_http_requests_total", {
  description: "HTTP requests answered, by route pattern, method and status",
  incremental: true
})

/** HTTP request latency by route pattern, method and status. */
export const httpRequestDuration = Metric.histogram("tenders_http_request_duration_seconds", {
  description: "Time from a request's arrival to its response, by route pattern, method and status",
  boundaries: latencyBuckets
})

/** Search latency by query class (`searchClass`). */
export const searchDuration = Metric.histogram("tenders_search_duration_seconds", {
  description: "Time of a search (REST or MCP) in the use case, by query class and whether filters were used",
  boundaries: latencyBuckets
})

/** Why a call was refused: the quota, the plan, or the plan's limit of watchlists. */
export type RefusalReason = "quota_exceeded" | "plan_required" | "limit_reached"

/** Calls refused by the monthly quota or by the plan. */
export const refusals = Metric.counter("tenders_refusals_total", {
  description: "Calls refused: monthly quota exceeded, plan required, plan limit reached",
  incremental: true
})

/** Per source: when its last successful run finished (store-wide, read at scrape time). */
export const sourceLastSuccess = Metric.gauge("tenders_source_last_success_timestamp_seconds", {
  description: "Unix time of the source's last successful run (any replica); 0 when it never succeeded"
})

/** Per source: how long ago its last successful run finished (read at scrape time). */
export const sourceLag = Metric.gauge("tenders_source_lag_seconds", {
  description: "Seconds since the source's last successful run finished (any replica); absent when it never did"
})

/** Notices of this replica's source runs: read (parsed), stored (changed a tender) or rejected. */
export const sourceNotices = Metric.counter("tenders_source_notices_total", {
  description: "Notices of the source runs of this replica: read, stored (a tender changed) or rejected",
  incremental: true
})

/** This replica's source runs by outcome. */
export const sourceRuns = Metric.counter("tenders_source_runs_total", {
  description: "Source runs of this replica by outcome (success, failure)",
  incremental: true
})

/** The outbox: pending deliveries (due or waiting for a retry), read at scrape time. */
export const outboxDepth = Metric.gauge("tenders_outbox_depth", {
  description: "Pending deliveries in the outbox (due now or waiting for a retry), all replicas"
})

/** The outbox: how long the oldest due delivery has been waiting, read at scrape time. */
export const outboxOldestDueAge = Metric.gauge("tenders_outbox_oldest_due_age_seconds", {
  description: "Seconds the oldest due delivery of the outbox has waited; 0 when none is due"
})

/** Delivery attempts by channel and outcome. */
export const deliveryAttempts = Metric.counter("tenders_delivery_attempts_total", {
  description: "Delivery attempts of this replica by channel (email, webhook) and outcome (delivered, retry, failed)",
  incremental: true
})

/** Mails by kind (alert digests, sign-in links) and outcome. */
export const mails = Metric.counter("tenders_mails_total", {
  description: "Mails this replica tried to send by kind (digest, sign_in) and outcome (sent, failed)",
  incremental: true
})

/** The store's connections by state, read at scrape time. */
export const storeConnections = Metric.gauge("tenders_store_connections", {
  description: "Connections of this process to the store by state (in_use, idle)"
})

/**
 * A family's series for fixed labels, made once per label set and kept: the hot paths update a series without
 * allocating. Only for label values from a bounded set.
 */
export const seriesOf = <I, S>(metric: Metric.Metric<I, S>, names: ReadonlyArray<string>) => {
  const made = new Map<string, Metric.Metric<I, S>>()
  return (...values: ReadonlyArray<string>): Metric.Metric<I, S> => {
    const key = values.join("\u0000")
    let series = made.get(key)
    if (series === undefined) {
      const attributes: Record<string, string> = {}
      names.forEach((name, i) => (attributes[name] = values[i] ?? ""))
      series = Metric.withAttributes(metric, attributes)
      made.set(key, series)
    }
    return series
  }
}

const refusalSeries = seriesOf(refusals, ["reason"])

/** Counts one refused call. */
export const countRefusal = (reason: RefusalReason): Effect.Effect<void> => Metric.update(refusalSeries(reason), 1)

/** The classes of searches `tenders_search_duration_seconds` is labelled with: a small, fixed set. */
export type SearchClass = "filters_only" | "one_word" | "several_words" | "corrected" | "approximate"

/**
 * A search's class from what its plan and answer already say: no words (filters alone), answered by similar words
 * (approximate), with words read as corrected, else by its number of words.
 */
export const searchClass = (
  text: { readonly clauses: ReadonlyArray<unknown>; readonly corrections: ReadonlyArray<unknown> },
  approximate: boolean
): SearchClass =>
  text.clauses.length === 0
    ? "filters_only"
    : approximate
      ? "approximate"
      : text.corrections.length > 0
        ? "corrected"
        : text.clauses.length === 1
          ? "one_word"
          : "several_words"

const searchSeries = seriesOf(searchDuration, ["class", "filters"])

/** Records one search's time in its class. */
export const recordSearch = (seconds: number, kind: SearchClass, filtersUsed: boolean): Effect.Effect<void> =>
  Metric.update(searchSeries(kind, filtersUsed ? "true" : "false"), seconds)

/** What the search result cache did for a search (`SearchCache`). */
export type SearchCacheResult = "hit" | "miss" | "off"

/** Searches answered from the result cache, run and kept in it, or run without it (off, or the store unsure). */
export const searchCacheLookups = Metric.counter("tenders_search_cache_total", {
  description:
    "Searches by what the result cache did: hit (answered from it), miss (run and kept), off (run without it)",
  incremental: true
})

const searchCacheSeries = seriesOf(searchCacheLookups, ["result"])

/** Counts one search by what the result cache did for it. */
export const countSearchCache = (result: SearchCacheResult): Effect.Effect<void> =>
  Metric.update(searchCacheSeries(result), 1)

/** The process's resident memory (read at scrape time). */
export const processResidentMemory = Metric.gauge("tenders_process_resident_memory_bytes", {
  description: "Resident memory of the server process (RSS), in bytes"
})

/** The V8 heap in use (read at scrape time). */
export const processHeapUsed = Metric.gauge("tenders_process_heap_used_bytes", {
  description: "V8 heap in use by the server process, in bytes"
})

/** CPU time the process used since it started, user and system (read at scrape time). */
export const processCpuSeconds = Metric.counter("tenders_process_cpu_seconds_total", {
  description: "CPU time used by the server process since it started (user and system), in seconds",
  incremental: true
})

/**
 * How late the event loop ran, sampled since the previous scrape, by `stat` (`p50`, `p99`, `max`): a replica whose
 * one thread is saturated answers late whatever its store does (read at scrape time).
 */
export const processEventLoopDelay = Metric.gauge("tenders_process_event_loop_delay_seconds", {
  description: "Delay of the server's event loop since the previous scrape (stat: p50, p99, max), in seconds"
})

/** The V8 heap's size (read at scrape time). */
export const processHeapTotal = Metric.gauge("tenders_process_heap_total_bytes", {
  description: "V8 heap allocated by the server process, in bytes"
})
