import { formatUtc, type TenderStatus } from "@tenders/core"
import { DateTime } from "effect"
import { sampleAnchor } from "../../packages/cli/src/SampleData.ts"
import type { Random } from "./random.ts"

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
export const DAY = 24 * HOUR
/** Every date is relative to this instant (ms); the server shifts the sample's dates by the time since. */
export const anchor = sampleAnchor

/** An instant as the records write it (`YYYY-MM-DDTHH:MM:SSZ`). */
export const utc = (ms: number): string => formatUtc(DateTime.makeUnsafe(ms))

export const weekday = (ms: number): number => new Date(ms).getUTCDay()

/** A time zone: its offset from UTC in minutes at an instant. */
export type Zone = (ms: number) => number

export const fixedZone =
  (minutes: number): Zone =>
  () =>
    minutes

// EU summer time: last Sunday of March 01:00Z to last Sunday of October 01:00Z.
const lastSunday = (year: number, month: number) => {
  const last = new Date(Date.UTC(year, month + 1, 0))
  return Date.UTC(year, month, last.getUTCDate() - last.getUTCDay(), 1)
}
const euZone =
  (base: number): Zone =>
  (ms) => {
    const year = new Date(ms).getUTCFullYear()
    return base + (ms >= lastSunday(year, 2) && ms < lastSunday(year, 9) ? 60 : 0)
  }

/** The zones of TED buyers; `ATL` is Iceland. */
export const euZones = { WET: euZone(0), CET: euZone(60), EET: euZone(120), ATL: fixedZone(0) }

export type Clock = readonly [hours: number, minutes: number, seconds: number]

/** `HH:MM` or `HH:MM:SS`. */
export const clock = (text: string): Clock => {
  const [h, m, s = "0"] = text.split(":")
  return [Number(h), Number(m), Number(s)]
}

/** Local wall-clock time on the calendar date `dayOffset` days after the anchor date, as UTC ms. */
export const localToUtc = (dayOffset: number, [h, m, s]: Clock, zone: Zone): number => {
  const local = anchor + dayOffset * DAY + h * HOUR + m * MINUTE + s * 1000
  const first = local - zone(local) * MINUTE
  return local - zone(first) * MINUTE
}

/** Where a record's deadline falls: within 24 h after the anchor, later, none, or before it. */
export type DeadlineKind = "soon" | "future" | "none" | "past" | "pastOpen"

/** The status of one record and where its deadline falls. */
export interface PlannedRecord {
  readonly status: TenderStatus
  readonly deadline: DeadlineKind
}

/** Status quotas of one source and how many closed records and live ones have no deadline. */
export interface StatusQuotas {
  readonly amended: number
  readonly cancelled: number
  readonly closed: number
  readonly closedNoDeadline?: number
  readonly noDeadline?: number
}

/**
 * The status plan of a source, shuffled: exact quotas; of the open and amended records 8 close within 24 h after
 * the anchor, a few have no deadline, and 3 open ones are already past (the service does not count those as open).
 */
export const statusPlan = (random: Random, n: number, quotas: StatusQuotas): Array<PlannedRecord> => {
  const { amended, cancelled, closed, closedNoDeadline = 0, noDeadline = 3 } = quotas
  const open = n - amended - cancelled - closed
  const live: Array<TenderStatus> = [
    ...Array<TenderStatus>(open).fill("open"),
    ...Array<TenderStatus>(amended).fill("amended")
  ]
  const kindOf = (i: number): DeadlineKind => {
    if (i < 7 || i === open) return "soon" // 7 open + 1 amended
    if (i >= 7 && i < 10) return "pastOpen"
    if ((i >= 10 && i < 10 + noDeadline) || i === open + 1) return "none"
    return "future"
  }
  const plan: Array<PlannedRecord> = live.map((status, i) => ({ status, deadline: kindOf(i) }))
  for (let i = 0; i < closed; i++) plan.push({ status: "closed", deadline: i < closedNoDeadline ? "none" : "past" })
  for (let i = 0; i < cancelled; i++) plan.push({ status: "cancelled", deadline: i % 5 < 3 ? "future" : "past" })
  return random.shuffle(plan)
}

const futureDays = (random: Random) =>
  random.weighted<readonly [number, number]>([
    [[2, 7], 15],
    [[8, 20], 35],
    [[21, 40], 35],
    [[41, 60], 15]
  ])

/** A deadline of the given kind at one of `times` (local) in `zone`, as UTC ms; null for `none`. */
export const makeDeadline = (
  random: Random,
  kind: DeadlineKind,
  zone: Zone,
  times: ReadonlyArray<string>,
  weekdaysOnly: boolean
): number | null => {
  if (kind === "none") return null
  for (let attempt = 0; attempt < 500; attempt++) {
    let k: number
    if (kind === "soon") k = random.pick([0, 0, 0, 1])
    else if (kind === "future") k = random.int(...futureDays(random))
    else if (kind === "past") k = -random.int(1, 25)
    else k = -random.int(1, 6)
    const wd = weekday(anchor + k * DAY)
    if (weekdaysOnly && kind !== "soon" && (wd === 0 || wd === 6) && !random.chance(0.04)) continue
    const ms = localToUtc(k, clock(random.pick(times)), zone)
    if (kind === "soon" && !(ms >= anchor && ms < anchor + DAY)) continue
    if (kind === "future" && ms < anchor + DAY) continue
    if ((kind === "past" || kind === "pastOpen") && ms >= anchor - HOUR) continue
    return ms
  }
  throw new Error(`cannot place a ${kind} deadline`)
}

/**
 * The first publication, 2 to 40 calendar days before the anchor date, preferably `minDays` to `maxDays` before the
 * deadline; `publishedOn(k)` gives the instant on day -k. Returns the instant and k.
 */
export const makePublished = (
  random: Random,
  deadline: number | null,
  publishedOn: (k: number) => number,
  [minDays, maxDays]: readonly [number, number],
  weekdayShare: number
): { readonly ms: number; readonly k: number } => {
  const days = random.shuffle(Array.from({ length: 39 }, (_, i) => i + 2)).filter((k) => {
    const wd = weekday(anchor - k * DAY)
    return !(wd === 0 || wd === 6) || random.next() > weekdayShare
  })
  const tiers = [
    (u: number) => deadline === null || (deadline - u >= minDays * DAY && deadline - u <= maxDays * DAY),
    (u: number) => deadline === null || deadline - u >= minDays * DAY,
    (u: number) => deadline === null || deadline - u >= 2 * DAY
  ]
  for (const ok of tiers) {
    for (const k of days) {
      const ms = publishedOn(k)
      if (ms <= anchor - DAY && ms >= anchor - 40 * DAY && ok(ms)) return { ms, k }
    }
  }
  throw new Error("cannot place publishedAt")
}
