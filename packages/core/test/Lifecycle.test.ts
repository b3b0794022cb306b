import { describe, expect, it } from "vitest"
import { changeOf, type ParsedNotice, resolveProcedure, type TenderRecord } from "../src/index.ts"
import { makeRecord } from "../src/testing/index.ts"

const notice = (
  kind: ParsedNotice["kind"],
  id: string,
  overrides: Omit<Partial<TenderRecord>, "id">,
  version: number | null = null
): ParsedNotice => ({
  kind,
  record: makeRecord({ id, ...overrides }),
  procedureKey: "proc-1",
  version,
  reason: kind === "cancellation" ? "cancel" : null
})

const original = notice("original", "ted-100-2026", {
  title: "Road works",
  budget: "100",
  deadline: "2026-12-01T10:00:00Z",
  publishedAt: "2026-11-01T00:00:00Z",
  status: "open"
})
const amendment = notice("amendment", "ted-200-2026", {
  title: "Road works (deadline extended)",
  budget: null,
  deadline: "2026-12-15T10:00:00Z",
  publishedAt: "2026-11-10T00:00:00Z",
  status: "amended"
})
const cancellation = notice("cancellation", "ted-300-2026", {
  title: "Road works",
  deadline: null,
  publishedAt: "2026-11-20T00:00:00Z",
  status: "cancelled"
})
const result = notice("result", "ted-400-2026", {
  title: "Road works awarded",
  publishedAt: "2026-12-20T00:00:00Z",
  status: "closed"
})

const permutations = <A>(items: ReadonlyArray<A>): Array<Array<A>> =>
  items.length <= 1
    ? [[...items]]
    : items.flatMap((item, i) =>
        permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest])
      )

describe("lifecycle", () => {
  it("names the tender after its original, overlays amendments, keeps older values a newer notice leaves empty", () => {
    const tender = resolveProcedure([amendment, original])
    expect(tender?.id).toBe("ted-100-2026")
    expect(tender?.status).toBe("amended")
    expect(tender?.title).toBe("Road works (deadline extended)")
    expect(tender?.deadline).toBe("2026-12-15T10:00:00Z")
    expect(tender?.budget).toBe("100")
    expect(tender?.publishedAt).toBe("2026-11-01T00:00:00Z")
  })

  it("ends in the same state whatever order the notices arrive in", () => {
    for (const set of [
      [original, amendment],
      [original, amendment, cancellation],
      [original, result],
      [original, amendment, result, cancellation]
    ]) {
      const states = permutations(set).map((order) => JSON.stringify(resolveProcedure(order)))
      expect(new Set(states).size).toBe(1)
    }
  })

  it("lets cancellation win over result, result over amendment, amendment over original", () => {
    expect(resolveProcedure([original, amendment, result])?.status).toBe("closed")
    expect(resolveProcedure([original, result, cancellation])?.status).toBe("cancelled")
    expect(resolveProcedure([original])?.status).toBe("open")
  })

  it("builds a tender from a cancellation alone when the original was never seen", () => {
    const tender = resolveProcedure([cancellation])
    expect([tender?.id, tender?.status]).toEqual(["ted-300-2026", "cancelled"])
    expect(resolveProcedure([])).toBeUndefined()
  })

  it("names what a notice changed", () => {
    const before = resolveProcedure([original])
    const amended = resolveProcedure([original, amendment])
    const cancelled = resolveProcedure([original, amendment, cancellation])
    if (before === undefined || amended === undefined || cancelled === undefined) throw new Error("unresolved")
    expect(changeOf(undefined, before, original)).toBe("new")
    expect(changeOf(before, amended, amendment)).toBe("amended")
    expect(changeOf(amended, cancelled, cancellation)).toBe("cancelled")
    expect(changeOf(cancelled, cancelled, cancellation)).toBe("unchanged")
  })
})
