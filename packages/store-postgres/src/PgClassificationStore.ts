import {
  type ClassificationPack,
  classificationPacks,
  ClassificationStore,
  formatUtc,
  type PackCode,
  type PackInfo
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { utc, UtcText } from "./Sql.ts"

const InfoRow = Schema.Struct({
  pack: Schema.Literals(classificationPacks),
  version: Schema.Int,
  digest: Schema.String,
  inForce: Schema.Int,
  withdrawn: Schema.Int,
  importedAt: UtcText
})
const CodeRow = Schema.Struct({ code: Schema.String, label: Schema.String, withdrawn: Schema.Boolean })

/** Codes written a statement at a time. */
const batch = 5_000

/** ClassificationStore on PostgreSQL: a pack is replaced in one transaction (readers see the old or the new). */
export const PgClassificationStore = Layer.effect(
  ClassificationStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const infoColumns = sql.literal(`pack, version, digest, in_force AS "inForce", withdrawn,
      ${utc("imported_at")} AS "importedAt"`)

    const status = Effect.gen(function* () {
      const rows = yield* sql`SELECT ${infoColumns} FROM classification_packs ORDER BY pack`
      const infos: ReadonlyArray<PackInfo> = yield* Schema.decodeUnknownEffect(Schema.Array(InfoRow))(rows)
      return infos
    }).pipe(Effect.orDie, Effect.withSpan("PgClassificationStore.status"))

    const codes = Effect.fn("PgClassificationStore.codes")(function* (pack: ClassificationPack) {
      const rows =
        yield* sql`SELECT code, label, withdrawn FROM classification_codes WHERE pack = ${pack} ORDER BY code`
      const decoded: ReadonlyArray<PackCode> = yield* Schema.decodeUnknownEffect(Schema.Array(CodeRow))(rows)
      return decoded
    }, Effect.orDie)

    const replace = Effect.fn("PgClassificationStore.replace")(
      function* (pack: ClassificationPack, list: ReadonlyArray<PackCode>, digest: string, at: DateTime.Utc) {
        // The row lock orders concurrent imports of one pack; the second finds the first's digest.
        const before = yield* sql<{ digest: string; version: number }>`SELECT digest, version FROM classification_packs
          WHERE pack = ${pack} FOR UPDATE`
        if (before[0]?.digest === digest) return undefined
        const info: PackInfo = {
          pack,
          version: (before[0]?.version ?? 0) + 1,
          digest,
          inForce: list.filter((c) => !c.withdrawn).length,
          withdrawn: list.filter((c) => c.withdrawn).length,
          importedAt: formatUtc(at)
        }
        yield* sql`INSERT INTO classification_packs (pack, version, digest, in_force, withdrawn, imported_at)
          VALUES (${pack}, ${info.version}, ${digest}, ${info.inForce}, ${info.withdrawn},
            ${DateTime.formatIso(at)}::timestamptz)
          ON CONFLICT (pack) DO UPDATE SET version = EXCLUDED.version, digest = EXCLUDED.digest,
            in_force = EXCLUDED.in_force, withdrawn = EXCLUDED.withdrawn, imported_at = EXCLUDED.imported_at`
        yield* sql`DELETE FROM classification_codes WHERE pack = ${pack}`
        for (let i = 0; i < list.length; i += batch) {
          const codes = sql.json(list.slice(i, i + batch))
          yield* sql`INSERT INTO classification_codes (pack, code, label, withdrawn)
            SELECT ${pack}, c.code, c.label, c.withdrawn
            FROM jsonb_to_recordset(${codes}) AS c(code text, label text, withdrawn boolean)`
        }
        return info
      },
      (effect) => effect.pipe(sql.withTransaction, Effect.orDie)
    )

    return ClassificationStore.of({ status, codes, replace })
  })
)
