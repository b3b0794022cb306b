// What agents read: the server's instructions and each tool's description, as named constants.

/** The server's instructions, sent at initialization. */
export const serverInstructions = [
  "Tenders: search open public procurement tenders from TED (EU), gnumner/ARMEPS (Armenia) and zakupki.gov.ru",
  "(Russia/EAEU), read one in full, save filters as watchlists and list the alerts they raise.",
  "Every tools/call counts against the account's monthly quota; listing tools does not.",
  "A failed call is a tool result with isError and structuredContent { error: { code, message } }, code one of",
  "invalid_input (fix the arguments as the message says), plan_required (needs the Pro or Business plan),",
  "limit_reached (watchlist limit of the plan), not_found, quota_exceeded (monthly calls used up: buy a $5 pack on",
  "a paid plan or upgrade), unauthorized (token revoked) and internal (retry later)."
].join(" ")

/** `search_tenders`. */
export const searchTendersDescription = [
  "Search public procurement tenders that are still open for bids, from TED (EU), gnumner/ARMEPS (Armenia) and",
  "zakupki.gov.ru (Russia/EAEU), in one index.",
  "Use it to find calls for bids matching a need.",
  "`q` (required, at most 500 characters) is free text in any of the languages: English, Russian, Armenian or",
  'another EU language; it finds tenders written in the others too ("road repair" finds Russian and Armenian road',
  "repairs), tolerates a misspelt word, and reads codes (CPV such as 45233 or 45261210-9, OKPD2 with dots such as",
  "42.11.20) and places in any script (Munich, München, Мюнхен).",
  "Returns at most `limit` tender cards (1 to 20, default 10), best match first (not every word must match), then",
  "nearest deadline; `hint` says what else was searched and which words were read as others, suggests how to",
  "broaden a query with few results, and `degradedSources` lists sources whose data may be stale.",
  "Structured filters need the Pro or Business plan (on the Free plan any of them fails with plan_required, so",
  "search with q alone): `countries` (ISO 3166-1 alpha-2 codes), `cpv` (CPV codes or prefixes such as 45233),",
  "`minBudget`/`maxBudget` (budgets are compared in each tender's own currency unless `budgetCurrency` is set,",
  "which converts them at fixed quarterly reference rates and skips tenders in other currencies), `deadlineAfter`",
  "(YYYY-MM-DD or a date-time with Z or an offset).",
  "Call get_tender with a result's id for the full card. Each call counts against the monthly quota."
].join(" ")

/** `get_tender`. */
export const getTenderDescription = [
  "Get the full card of one tender by its `id`, exactly as given in search_tenders results or alerts, in any status",
  "(open, amended, cancelled, closed).",
  "Use it before advising on a tender: it adds the status, publication and update dates, region and number of lots",
  "to the search card, and on the Pro and Business plans the CPV and OKPD2 codes, the lots and the document links",
  "(omitted on the Free plan).",
  "An id that is not a tender id fails with invalid_input, an unknown one with not_found.",
  "Each call counts against the monthly quota."
].join(" ")

/** `add_to_watchlist`. */
export const addToWatchlistDescription = [
  "Save search filters as a named watchlist so the user is alerted when a tender newly matches, is amended, or",
  "enters its last 24 hours before the deadline.",
  "Use it when the user wants to follow a kind of tender over time, not for a one-off search (use search_tenders",
  "for that).",
  "`name` is 1 to 100 characters; `filters` takes the fields of search_tenders except `limit`, all optional, but",
  "filters that match everything (no word in q and no structured filter) fail with invalid_input.",
  "Alerts go by e-mail unless `channels.email` is false, optionally to an HTTPS `channels.webhook` as signed JSON,",
  "and are listed by get_deadline_alerts.",
  "Structured filters and webhooks need the Pro or Business plan (plan_required on Free); each plan allows a",
  "limited number of watchlists (limit_reached).",
  "Returns the watchlist id and how many open tenders match today. Each call counts against the monthly quota."
].join(" ")

/** `get_deadline_alerts`. */
export const getDeadlineAlertsDescription = [
  "List the open alerts raised from the user's watchlists, nearest tender deadline first, at most 50:",
  "tenders that newly match a watchlist (reason new), were amended (amended) or close within 24 hours",
  "(deadline-24h).",
  "Use it to see which tenders need attention now; create watchlists with add_to_watchlist first.",
  "Takes no arguments. Each call counts against the monthly quota."
].join(" ")
