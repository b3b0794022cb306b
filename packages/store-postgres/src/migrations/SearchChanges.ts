import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** The channel a committed change to what a search would find is announced on (PgSearchChanges.ts listens). */
export const searchChangesChannel = "tenders_search_changes"

/**
 * The tables a search's answer is made from: the tenders and their aliases, the words and spellings of the index
 * and its version, the labels sources publish beside codes, the classification packs, the sources' runs (its
 * `degradedSources`) and the reference rates (its budgets in another currency).
 */
export const searchInputTables = [
  "tenders",
  "tender_aliases",
  "search_vocabulary",
  "search_index_state",
  "source_labels",
  "classification_packs",
  "classification_codes",
  "source_runs",
  "reference_rates"
] as const

/**
 * Every statement that writes to a table a search reads announces it on `searchChangesChannel`; PostgreSQL sends
 * the notice when the transaction commits (once per transaction), to every replica listening, so each drops the
 * answers it kept (the search result cache) as soon as they could be stale, whichever process wrote.
 */
export const searchChanges = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`CREATE FUNCTION tenders_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('${searchChangesChannel}', '');
      RETURN NULL;
    END $$`)
  for (const table of searchInputTables) {
    yield* sql.unsafe(`CREATE TRIGGER ${table}_search_changed
      AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table}
      FOR EACH STATEMENT EXECUTE FUNCTION tenders_search_changed()`)
  }
})
