import type { RatePublisher } from "@tenders/core"

// The dashboard's English texts; a count comes as the number (for the plural) and as written in the language.
const tenders = (n: number, shown: string) => `${shown} open tender${n === 1 ? "" : "s"}`

/** Every text of the dashboard in English: the shape of every language's texts. */
export const en = {
  languageName: "English",
  skip: "Skip to content",
  nav: {
    label: "Dashboard",
    overview: "Overview",
    search: "Search",
    watchlists: "Watchlists",
    alerts: "Alerts",
    deliveries: "Deliveries",
    keys: "Keys",
    apps: "Connected apps",
    settings: "Settings",
    signOut: "Sign out",
    language: "Language"
  },
  plans: { free: "Free", pro: "Pro", business: "Business" },
  signIn: {
    title: "Sign in",
    intro: "Enter your e-mail address: we send you a link that signs you in. No password.",
    email: "E-mail address",
    submit: "Send me a sign-in link"
  },
  sent: {
    title: "Check your e-mail",
    body: (email: string, minutes: number) =>
      `If ${email} can sign in here, a link is on its way. It works once, for ${minutes} minutes.`,
    again: "Use another address"
  },
  confirm: {
    title: "Sign in to Tenders",
    body: (email: string) => `Sign in as ${email}?`,
    submit: "Sign in"
  },
  errors: {
    title: "Something is wrong",
    invalidEmail: "That is not an e-mail address.",
    throttled: (minutes: number) =>
      `Too many sign-in links were asked for. Try again in ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
    tooFast: (seconds: number) => `Too many searches in a minute. Try again in ${seconds} s.`,
    linkRefused: "This sign-in link was already used or has expired. Ask for a new one.",
    signUpClosed: "Sign-up is closed on this server. Ask its operator for an account.",
    tooLarge: "This form is too large. Shorten what you typed and send it again.",
    unreadable: "This form could not be read. Load the page again.",
    forbidden: "This form has expired or came from another site. Load the page again.",
    notFound: "There is no such key.",
    noWatchlist: "There is no such watchlist.",
    noDelivery: "There is no failed delivery with this number.",
    noTender: "There is no tender with this id.",
    noPage: "There is no such page."
  },
  overview: {
    title: "Overview",
    plan: "Plan",
    calls: "Calls this month",
    used: (used: string, limit: string) => `${used} of ${limit}`,
    packs: "Packs this month",
    resets: "Resets",
    resetsAt: (date: string) => `${date} (UTC)`,
    chartTitle: (month: string) => `Calls per day, ${month}`,
    chartSummary: (total: number, shown: string, busiest: string | undefined) =>
      total === 0
        ? "No calls counted this month yet."
        : `${shown} call${total === 1 ? "" : "s"} counted this month; the busiest day was ${busiest ?? ""}.`,
    dayCalls: (day: string, calls: string) => `${day}: ${calls}`,
    chartNote: "REST and MCP calls, by UTC day. Searches in the dashboard are not counted.",
    showTable: "Show the numbers",
    day: "Day",
    dayCount: "Calls"
  },
  keys: {
    title: "Keys",
    create: "Create a key",
    kind: "Kind",
    rest: "REST API key",
    mcp: "MCP token",
    submit: "Create",
    fresh: "Your new key. Copy it now: it is not shown again.",
    copy: "Copy",
    copied: "Copied",
    none: "No keys yet.",
    prefix: "Key",
    created: "Created",
    lastUsed: "Last used",
    status: "Status",
    never: "never",
    active: "active",
    revoked: (date: string) => `revoked ${date}`,
    revoke: "Revoke",
    revokeLabel: (prefix: string) => `Revoke ${prefix}…`
  },
  filters: {
    q: "Words",
    qHelp: "In English, Russian or Armenian; they are looked for in titles, lots and buyers.",
    more: "Filters",
    paidOnly: "Filters need the Pro or Business plan; on Free, use words alone.",
    countries: "Countries",
    countriesHelp: "Two-letter codes, separated by commas: DE, FR, AM",
    cpv: "CPV codes",
    cpvHelp: "Codes or their first digits, separated by commas: 45, 33192100",
    minBudget: "Budget from",
    maxBudget: "Budget up to",
    budgetCurrency: "Compare budgets in",
    ownCurrency: "Each tender's own currency",
    deadlineAfter: "Deadline after",
    planRequired: "Filters need the Pro or Business plan. On Free, search and watch with words alone.",
    problems: {
      name: "Name: from 1 to 100 characters.",
      q: "Words: at most 500 characters, without control characters.",
      countries: "Countries: two-letter codes (ISO 3166-1), at most 50, separated by commas.",
      cpv: "CPV codes: 2 to 8 digits each (a check digit may follow a hyphen), at most 50.",
      minBudget: "Budget from: a number, 0 or more.",
      maxBudget: "Budget up to: a number, 0 or more, and not below “Budget from”.",
      budgetCurrency: "Compare budgets in: choose a currency from the list.",
      deadlineAfter: "Deadline after: a date.",
      webhook: "Webhook URL: at most 2048 characters."
    },
    fix: "Please correct the following:"
  },
  watchlists: {
    title: "Watchlists",
    intro:
      "A watchlist keeps a search: you get an alert when a tender newly matches it, is amended, " +
      "or enters its last 24 hours.",
    yours: (used: string, limit: string) => `Your watchlists (${used} of ${limit})`,
    none: "No watchlists yet: create your first one below.",
    create: "New watchlist",
    name: "Name",
    channels: "Send alerts by",
    email: "E-mail",
    webhook: "Webhook URL (https)",
    webhookPaid: "Webhooks need the Pro or Business plan.",
    submit: "Save the watchlist",
    idle: "Type a word or choose a filter to see how many open tenders match.",
    count: (n: number, shown: string) => `${tenders(n, shown)} match now.`,
    mustNarrow: "Type at least one word or choose a filter: a watchlist must narrow the tenders down.",
    refused: "The watchlist was not saved:",
    limitReached: (limit: string) =>
      `Your plan allows ${limit} watchlists and all are in use. Delete one to add another, or upgrade.`,
    webhookPlan: "Webhooks need the Pro or Business plan. On Free, alerts come by e-mail and on the Alerts page.",
    saved: (name: string, n: number, shown: string) => `Saved “${name}”: ${tenders(n, shown)} match now.`,
    deleted: "The watchlist was deleted.",
    filters: "Filters",
    alertsBy: "Alerts by",
    matches: "Open tenders now",
    created: "Created",
    alertsPageOnly: "Alerts page only",
    remove: "Delete",
    removeLabel: (name: string) => `Delete the watchlist “${name}”`
  },
  alerts: {
    title: "Alerts",
    intro: "Open alerts from your watchlists, nearest deadline first, as GET /v1/alerts gives them.",
    none:
      "No open alerts. Alerts appear when a tender newly matches one of your watchlists, is amended, " +
      "or enters its last 24 hours.",
    tender: "Tender",
    watchlist: "Watchlist",
    reason: "Reason",
    deadline: "Deadline",
    raised: "Raised",
    reasons: { new: "New match", "deadline-24h": "Deadline within 24 hours", amended: "Amended" }
  },
  deliveries: {
    title: "Deliveries",
    intro: "Alerts sent by e-mail and webhook, newest first. A failed delivery can be sent again.",
    none: "Nothing was sent yet.",
    created: "Queued",
    channel: "Channel",
    target: "Sent to",
    status: "Status",
    attempts: "Attempts",
    lastError: "Last error",
    nextAttempt: "Next attempt",
    channels: { email: "E-mail", webhook: "Webhook" },
    statuses: { pending: "Waiting", delivered: "Delivered", failed: "Failed" },
    retry: "Send again",
    retryLabel: (id: number) => `Send again: delivery ${id}`,
    retried: "The delivery is queued again and will be sent shortly."
  },
  settings: {
    title: "Settings",
    account: "Account",
    email: "E-mail address",
    plan: "Plan",
    secretTitle: "Webhook signing secret",
    secretIntro:
      "Webhook calls are signed with this secret (Standard Webhooks: the webhook-signature header). " +
      "Keep it on your server only.",
    reveal: "Show the secret",
    rotate: "Replace the secret",
    rotateNote: "A new secret takes effect at once: every call from then on is signed with it, not the old one.",
    secret: "Your signing secret:",
    rotated: "A new signing secret is in force:",
    paidOnly: "Webhooks need the Pro or Business plan.",
    packsTitle: "Classifications",
    packsIntro:
      "Search also reads these classification tables, which this server's operator imports " +
      "(tenders classifications import).",
    packNames: { okpd2: "OKPD2 (Russian product codes)", "cpv-ru": "CPV labels in Russian" },
    packMissing: "Not imported: search works without it.",
    packLoaded: (inForce: string, withdrawn: string, version: number, date: string) =>
      `${inForce} codes in force, ${withdrawn} withdrawn (version ${version}, imported ${date})`,
    sessionsTitle: "Sessions",
    sessionsIntro:
      "Signed in on a computer you no longer use, or one that was lost? This signs every browser out, this one too.",
    signOutEverywhere: "Sign out everywhere"
  },
  search: {
    title: "Search",
    submit: "Search",
    notCounted: "Searches here do not count against your API quota.",
    results: (n: number, shown: string) => `${tenders(n, shown)} found`,
    none: "No open tenders match.",
    hint: "Note",
    notes: {
      readAs: (typed: string, read: string) => `“${typed}” as “${read}”`,
      read: (pairs: string) => `Read ${pairs}.`,
      approximate: "Not every result has every word: the tenders that match best come first.",
      few: (n: number, shown: string) => `Only ${tenders(n, shown)} match.`,
      broaden: "For more, use fewer or more general words, or fewer filters.",
      also: (list: string) => `Also searched: ${list}.`,
      converted: (currency: string, quarter: string, from: string) =>
        `Budgets converted to ${currency} at the reference rates of ${quarter}${from === "" ? "" : ` (${from})`}.`,
      publishers: {
        ECB: "European Central Bank",
        CBR: "Bank of Russia",
        CBA: "Central Bank of Armenia"
      } satisfies Record<RatePublisher, string>,
      fallback: "the table shipped with the server, until rates are imported",
      missing: (list: string) => `No reference rate for ${list}: budgets in them are left out.`,
      stale: (quarter: string, list: string) => `Older than ${quarter}: ${list}.`
    },
    degraded: (codes: string) => `These sources are failing at the moment; their tenders may be out of date: ${codes}.`,
    buyer: "Buyer",
    country: "Country",
    budget: "Budget",
    deadline: "Deadline",
    source: "Source",
    notGiven: "not given",
    onSource: "On the source's site"
  },
  tender: {
    status: "Status",
    statuses: { open: "Open", amended: "Amended", cancelled: "Cancelled", closed: "Closed" },
    subject: "Lots",
    region: "Region",
    published: "Published",
    updated: "Updated",
    lotsCount: "Number of lots",
    cpvCodes: "CPV codes",
    okpd2Codes: "OKPD2 codes",
    lots: "Lots",
    lotTitle: "Lot",
    documents: "Documents",
    paidOnly: "CPV and OKPD2 codes, lots and document links are shown on the Pro and Business plans.",
    back: "Back to the search"
  },
  oauth: {
    consentTitle: "Allow access to your Tenders account?",
    consentBody: (client: string, host: string) =>
      `${client} (it will return you to ${host}) asks to use Tenders as you: search tenders, read them, and manage ` +
      "your watchlists and alerts. Its calls count against your monthly quota.",
    allow: "Allow",
    deny: "Deny",
    refused: "The app's request cannot be accepted.",
    returnTo: (host: string) => `Return to ${host}`,
    publishedBy: (host: string) => `The app's description is published by ${host}.`,
    appsTitle: "Connected apps",
    appsNone: "No app is connected to your account.",
    app: "App",
    returnsTo: "Returns to",
    connected: "Connected",
    lastUsed: "Last used",
    never: "never",
    revoke: "Disconnect",
    revokeLabel: (client: string) => `Disconnect ${client}`
  }
}

/** The shape every language's texts have. */
export type Messages = typeof en
