import type { Alert, FullTender, HealthReport, TenderCard } from "@tenders/core"

/** A tender card as the service sends it. */
export const card: TenderCard = {
  id: "ted-479730-2026",
  title: "Road maintenance in Lyon",
  buyer: "Métropole de Lyon",
  country: "FR",
  budget: "1250000.50",
  currency: "EUR",
  deadline: "2030-03-01T12:00:00Z",
  url: "https://ted.europa.eu/en/notice/-/detail/479730-2026",
  source: "ted"
}

/** The full tender of {@link card} on a paid plan. */
export const fullTender: FullTender = {
  ...card,
  status: "open",
  publishedAt: "2030-01-10T00:00:00Z",
  region: "Auvergne-Rhône-Alpes",
  lotsCount: 1,
  updatedAt: "2030-01-11T08:30:00Z",
  cpvCodes: ["45233141"],
  lots: [{ title: "Lot 1", budget: "1250000.50", currency: "EUR", cpvCodes: ["45233141"] }],
  docsUrl: ["https://example.org/docs.pdf"]
}

/** An alert of a watchlist. */
export const alert: Alert = {
  watchlistId: "0b8f3c3e-8d1e-4b0a-9f3e-5a2f0c7d9e11",
  watchlistName: "Roads in France",
  reason: "new",
  createdAt: "2030-01-12T09:00:00Z",
  tender: card
}

/** A health report. */
export const health: HealthReport = {
  status: "degraded",
  sources: [
    { code: "ted", status: "ok", lastSuccessAt: "2030-01-12T08:00:00Z" },
    { code: "gnumner", status: "error", lastSuccessAt: null },
    { code: "eaeu", status: "never", lastSuccessAt: null }
  ]
}
