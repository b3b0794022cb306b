import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/**
 * The classification packs an operator imports (PgClassificationStore.ts): one row per pack with its version and
 * digest, and its codes. A tender keeps the version of the analysis its terms were made with (`terms_version`), so
 * that after a pack changed, the tenders whose terms are of another version can be found and analysed again in
 * batches, while the server answers.
 */
export const classifications = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE classification_packs (
    pack text PRIMARY KEY,
    version int NOT NULL,
    digest text NOT NULL,
    in_force int NOT NULL,
    withdrawn int NOT NULL,
    imported_at timestamptz NOT NULL
  )`
  yield* sql`CREATE TABLE classification_codes (
    pack text NOT NULL REFERENCES classification_packs (pack) ON DELETE CASCADE,
    code text NOT NULL,
    label text NOT NULL,
    withdrawn boolean NOT NULL,
    PRIMARY KEY (pack, code)
  )`
  yield* sql`ALTER TABLE tenders ADD COLUMN terms_version text`
})

/**
 * The names sources give their codes beside them (ARMEPS `CPV Codes`), each once: labels the text analysis of every
 * process learns for its queries (`SearchText.useSourceLabels`).
 */
export const sourceLabels = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE source_labels (
    id bigserial UNIQUE,
    code text NOT NULL,
    language text NOT NULL,
    name text NOT NULL,
    first_seen timestamptz NOT NULL,
    PRIMARY KEY (code, language, name)
  )`
})
