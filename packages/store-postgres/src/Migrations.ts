import { Migrator } from "effect/sql"
import { alertDeadlines, alerts, deliveries, watchlists, watchlistVersion } from "./migrations/Alerts.ts"
import { classifications, sourceLabels } from "./migrations/Classifications.ts"
import { notices, runOutcomes, schedule, unusedNativeIndex } from "./migrations/Ingest.ts"
import { initial } from "./migrations/Initial.ts"
import { oauth, oauthClientAge } from "./migrations/OAuth.ts"
import { referenceRates } from "./migrations/ReferenceRates.ts"
import { searchChanges } from "./migrations/SearchChanges.ts"
import { deadlineDays, deadlineDaysByCountry, fieldLexemes, searchTerms, titleTerms } from "./migrations/SearchTerms.ts"
import { signIn } from "./migrations/SignIn.ts"
import { accountEmailForm, rateLimits, signInMail } from "./migrations/SignInMail.ts"
import { unusableRows } from "./migrations/UnusableRows.ts"
import { usageDays } from "./migrations/UsageDays.ts"

/** Runs the schema migrations once, in order (the migrator locks its table inside a transaction). */
export const migrate = Migrator.make({})({
  loader: Migrator.fromRecord({
    "1_initial": initial,
    "2_notices": notices,
    "3_schedule": schedule,
    "4_watchlists": watchlists,
    "5_alerts": alerts,
    "6_deliveries": deliveries,
    "7_watchlist_version": watchlistVersion,
    "8_search_terms": searchTerms,
    "9_title_terms": titleTerms,
    "10_field_lexemes": fieldLexemes,
    "11_deadline_days": deadlineDays,
    "12_unused_native_index": unusedNativeIndex,
    "13_sign_in": signIn,
    "14_usage_days": usageDays,
    "15_oauth": oauth,
    "16_oauth_client_age": oauthClientAge,
    "17_sign_in_mail": signInMail,
    "18_rate_limits": rateLimits,
    "19_account_email_form": accountEmailForm,
    "20_classifications": classifications,
    "21_source_labels": sourceLabels,
    "22_deadline_days_by_country": deadlineDaysByCountry,
    "23_reference_rates": referenceRates,
    "24_search_changes": searchChanges,
    "25_source_run_outcomes": runOutcomes,
    "26_alert_deadlines": alertDeadlines,
    "27_unusable_rows": unusableRows
  }),
  table: "tenders_migrations"
})
