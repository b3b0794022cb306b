// The prose of /v1/openapi.json, one named constant per text, so Api.ts reads as the contract's structure.

/** The interface as a whole, with the quota fields every authenticated response carries. */
export const apiDescription = [
  "Public procurement notices from TED (EU), gnumner/ARMEPS (Armenia) and zakupki.gov.ru (Russia/EAEU)",
  "in one schema. Every response to an authenticated call carries the IETF RateLimit fields of the monthly quota",
  '(RateLimit-Policy: "monthly";q=<limit> and RateLimit: "monthly";r=<remaining>;t=<seconds until the UTC month',
  "ends>); a 429 also carries Retry-After."
].join(" ")

/** POST /v1/tenders/search. */
export const searchDescription = [
  "Free text in English, Russian or Armenian plus structured filters (paid plans).",
  "Returns open tenders only, best match first, then nearest deadline."
].join(" ")

/** GET /v1/tenders/{id}. */
export const getTenderDescription = [
  "Any status. On the Free plan cpvCodes, okpd2Codes, lots and docsUrl are omitted.",
  "An id that is not a tender id is 400 invalid_input; an unknown one is 404 not_found."
].join(" ")

/** POST /v1/watchlists. */
export const createWatchlistDescription = [
  "Alerts (new, deadline-24h, amended) come by e-mail (default), signed webhook (paid plans) and GET /v1/alerts.",
  "A filter set that matches everything is refused; structured filters and webhooks need a paid plan;",
  "the plan limits the number of watchlists."
].join(" ")

/** GET /v1/alerts. */
export const alertsDescription = [
  "Alerts whose tender is still open: new matches, amendments, and deadlines within 24 hours;",
  "at most 50, nearest deadline first (none last), then newest."
].join(" ")

/** GET /v1/openapi.json. */
export const openApiDescription =
  "Needs a key like every endpoint but /health; reading it does not count against the quota."
