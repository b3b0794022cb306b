// Where the machine's CPU went during a load: the server's, PostgreSQL's (every `postgres` process on this machine)
// and the load generator's own, read from /proc (Linux) before and after, so that a rate can be set against what
// the machine has: a request that costs C ms of CPU in all cannot be served faster than cores * 1000 / C a second.
import { readdirSync, readFileSync } from "node:fs"
import { availableParallelism } from "node:os"

/** The kernel's clock ticks per second in /proc's times (USER_HZ: 100 on every Linux architecture Node runs on). */
const ticksPerSecond = 100

/** A process's name and its user + system CPU seconds so far, from /proc/PID/stat; undefined once it is gone. */
const statOf = (pid: string) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const close = stat.lastIndexOf(")")
    // After the name: state, ppid, ... utime and stime are the 14th and 15th fields, the 12th and 13th here.
    const fields = stat.slice(close + 2).split(" ")
    return {
      name: stat.slice(stat.indexOf("(") + 1, close),
      seconds: (Number(fields[11]) + Number(fields[12])) / ticksPerSecond
    }
  } catch {
    return undefined
  }
}

/** The CPU seconds of every PostgreSQL server process on this machine (its backends and workers). */
const postgresSeconds = () => {
  let seconds = 0
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/u.test(entry)) continue
    const stat = statOf(entry)
    if (stat?.name === "postgres") seconds += stat.seconds
  }
  return seconds
}

/**
 * The machine's CPU time so far, in ticks, and how much of it the host gave to others (`steal`, /proc/stat's eighth
 * figure): on a virtual machine whose host is busy, every figure of a run is slower, and this says so.
 */
const machineTicks = () => {
  const figures = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/u).slice(1).map(Number)
  return { total: figures.slice(0, 8).reduce((sum, n) => sum + n, 0), steal: figures[7] ?? 0 }
}

/** What the server, PostgreSQL (when it runs here) and this process used so far, in CPU seconds; the machine's. */
export interface CpuReading {
  readonly server: number
  readonly postgres: number | undefined
  readonly load: number
  readonly machine: { readonly total: number; readonly steal: number }
}

/** Reads the CPU used so far by the server `pid`, by PostgreSQL when `localPostgres`, and by this process. */
export const readCpu = (pid: number, localPostgres: boolean): CpuReading => {
  const own = process.cpuUsage()
  return {
    server: statOf(String(pid))?.seconds ?? Number.NaN,
    postgres: localPostgres ? postgresSeconds() : undefined,
    load: (own.user + own.system) / 1e6,
    machine: machineTicks()
  }
}

/**
 * The CPU per request between two readings, in ms, and the rate the machine could serve at that cost with every core
 * busy: `server 0.80 + PostgreSQL 1.10 + load 0.12 = 2.02 ms, ceiling 990 req/s on 2 cores`.
 */
export const describeCpu = (before: CpuReading, after: CpuReading, requests: number) => {
  const perRequest = (from: number, to: number) => (1000 * (to - from)) / requests
  const server = perRequest(before.server, after.server)
  const postgres =
    before.postgres === undefined || after.postgres === undefined ? 0 : perRequest(before.postgres, after.postgres)
  const load = perRequest(before.load, after.load)
  const total = server + postgres + load
  const cores = availableParallelism()
  const parts = [
    `server ${server.toFixed(2)}`,
    ...(before.postgres === undefined ? [] : [`PostgreSQL ${postgres.toFixed(2)}`]),
    `load ${load.toFixed(2)}`
  ]
  const ceiling = ((cores * 1000) / total).toFixed(0)
  const ticks = after.machine.total - before.machine.total
  const stolen = ticks > 0 ? (100 * (after.machine.steal - before.machine.steal)) / ticks : 0
  return (
    `${parts.join(" + ")} = ${total.toFixed(2)} ms, ceiling ${ceiling} req/s on ${cores} cores` +
    ` (${stolen.toFixed(0)} % stolen by the host)`
  )
}
