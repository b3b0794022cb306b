// `tenders rates` and `tenders rates import` as processes, on each store: saved copies told by their content, the
// publishers fetched from a loopback server serving their real payloads, and the table in use with its provenance.
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { quarterFirstDay, quarterOf } from "@tenders/core"
import { backendEnv, e2eBackends, startServer, tenders, tendersAsync, waitFor } from "./cli.ts"

// Real published payloads; their repositories are named in packages/adapters-sources/test/rates.test.ts.
const fixtures = join(import.meta.dirname, "..", "..", "adapters-sources", "test", "fixtures", "rates")
const ecb90 = join(fixtures, "ecb-eurofxref-hist-90d-2017-03-03.xml")
const cbr = join(fixtures, "cbr-xml-daily-2022-03-15.xml")
const cba = join(fixtures, "cba-exchange-rates-by-date-2023-10-02.xml")

/**
 * The three publishers on loopback: the ECB's 90 days of 2017, and the national banks' files dated `day` (2017-01-03
 * unless told; the ECB's 2017-01-02 then moved to `day` too).
 */
const publishers = (day = "2017-01-03") => {
  const [yyyy, mm, dd] = day.split("-")
  const cbrOn = readFileSync(cbr).toString("latin1").replace(`Date="15.03.2022"`, `Date="${dd}.${mm}.${yyyy}"`)
  const cbaOn = readFileSync(cba, "utf8").replace("2023-10-02T00:00:00</CurrentDate>", `${day}T00:00:00</CurrentDate>`)
  const ecbOn = readFileSync(ecb90, "utf8").replace(
    `time="2017-01-02"`,
    day === "2017-01-03" ? `time="2017-01-02"` : `time="${day}"`
  )
  const server: Server = createServer((request, response) => {
    response.setHeader("content-type", "text/xml")
    const url = request.url ?? ""
    if (url.startsWith("/ecb/eurofxref-hist-90d.xml")) return response.end(ecbOn)
    if (url.startsWith("/cbr/XML_daily.asp")) return response.end(Buffer.from(cbrOn, "latin1"))
    if (url.startsWith("/cba/exchangerates.asmx") && request.method === "POST") return response.end(cbaOn)
    response.statusCode = 404
    response.end()
  })
  return server
}

const baseOf = (server: Server) => {
  const address = server.address()
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
}

const publishersAt = (base: string) => ({
  TENDERS_RATES_ECB_URL: `${base}/ecb`,
  TENDERS_RATES_CBR_URL: `${base}/cbr/XML_daily.asp`,
  TENDERS_RATES_CBA_URL: `${base}/cba/exchangerates.asmx`
})

interface InUse {
  readonly quarter: string
  readonly fallback: string | null
  readonly figures: ReadonlyArray<{
    currency: string
    perEur: string
    publisher: string
    publishedOn: string
    origin: string
  }>
}

for (const backend of e2eBackends) {
  describe(`tenders rates on the ${backend}`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), "tdr-"))
    let env: NodeJS.ProcessEnv = {}
    let drop = async (): Promise<unknown> => undefined
    const server = publishers()
    beforeAll(async () => {
      ;({ env, drop } = await backendEnv(backend, dataDir))
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    })
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve))
      await drop()
      rmSync(dataDir, { recursive: true, force: true })
    })
    const inUse = (): InUse => JSON.parse(tenders(["rates", "--json"], env).stdout) as InUse

    it("prints the bundled table as the fallback, then a quarter imported from a saved copy, with provenance", () => {
      const bundled = tenders(["rates"], env)
      expect(bundled.status).toBe(0)
      expect(bundled.stdout).toContain("reference rates of 2026-Q4 (the bundled table: a fallback, no rates imported)")
      const refused = tenders(["rates", "import", "--quarter", "2017-Q1", "--from", cbr], env)
      expect(refused.status).toBe(1)
      expect(refused.stderr.trim()).toBe("tenders: Bank of Russia: no publication on or after 2017-01-01 in 2017-Q1")
      const imported = tenders(["rates", "import", "--quarter", "2017-Q1", "--from", ecb90], env)
      expect(imported.stdout).toContain("reference rates of 2017-Q1: 12 figures saved\nmissing: ISK, AMD, RUB")
      const rates = inUse()
      expect(rates.quarter).toBe("2017-Q1")
      expect(rates.fallback).toBeNull()
      expect(rates.figures.find((f) => f.currency === "USD")).toMatchObject({
        perEur: "1.0465",
        publisher: "European Central Bank",
        publishedOn: "2017-01-02",
        origin: ecb90
      })
    })

    it("fetches the quarter from the three publishers, and a search's hint names them and the quarter", async () => {
      const base = baseOf(server)
      const result = await tendersAsync(["rates", "import", "--quarter", "2017-Q1"], { ...env, ...publishersAt(base) })
      expect(result.stderr).toBe("")
      expect(result.stdout).toContain("reference rates of 2017-Q1: 14 figures saved\nmissing: ISK")
      const rates = inUse()
      expect(rates.figures.find((f) => f.currency === "RUB")).toMatchObject({
        perEur: "127.2343",
        publisher: "Bank of Russia",
        publishedOn: "2017-01-03",
        origin: `${base}/cbr/XML_daily.asp?date_req=01/01/2017`
      })
      expect(rates.figures.find((f) => f.currency === "AMD")?.perEur).toBe("423.85")
      const search = tenders(["search", "", "--currency", "EUR", "--min-budget", "1", "--json"], env)
      expect(search.status, search.stderr).toBe(0)
      expect((JSON.parse(search.stdout) as { hint?: string }).hint).toContain(
        "Budgets converted to EUR at reference rates of 2017-Q1 (European Central Bank, Bank of Russia, Central Bank " +
          "of Armenia). No reference rate for ISK: budgets in them are skipped."
      )
    })
  })
}

describe("tenders serve refreshes the reference rates", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "tdr-"))
  // The current quarter's first day, where the publishers' documents are dated.
  const firstDay = quarterFirstDay(quarterOf(new Date().toISOString().slice(0, 10)))
  const server = publishers(firstDay)
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)))
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("imports the current quarter at start, through the scheduled background work", async () => {
    const nowhere = "http://127.0.0.1:9"
    const env = {
      ...(await backendEnv("embedded store", dataDir)).env,
      ...publishersAt(baseOf(server)),
      TENDERS_TED_BASE_URL: nowhere,
      TENDERS_GNUMNER_BASE_URL: nowhere,
      TENDERS_EAEU_RSS_URL: nowhere
    }
    const serve = await startServer([], env, ["--no-seed"])
    try {
      await waitFor(() => serve.output().includes(`reference rates of ${quarterOf(firstDay)} imported`), {
        timeout: 60_000,
        what: () => `the refresh in the server's log:\n${serve.output()}`
      })
      const rates = JSON.parse(tenders(["rates", "--json"], env).stdout) as InUse
      expect(rates.quarter).toBe(quarterOf(firstDay))
      expect(rates.fallback).toBeNull()
      expect(rates.figures.find((f) => f.currency === "RUB")?.publishedOn).toBe(firstDay)
    } finally {
      await serve.stop()
    }
  })
})
