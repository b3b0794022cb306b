import {
  canonicalJson,
  NoticeStore,
  type NoticeResolver,
  ParsedNotice,
  SearchText,
  SourceLabel,
  TenderRecord
} from "@tenders/core"
import { PgClient } from "@effect/sql-pg"
import { DateTime, Effect, Layer, Schema } from "effect"
import { createHash } from "node:crypto"
import { jsonColumn, lockEventWriters } from "./Sql.ts"
import { decodeTenderRows, tenderColumns } from "./TenderRow.ts"
import { rememberWords, writeTenders } from "./TenderWrite.ts"

const decodeNotices = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ notice: jsonColumn(ParsedNotice) })))
const toRecord = Schema.decodeUnknownEffect(TenderRecord)

const hashOf = (n: ParsedNotice) => createHash("sha256").update(canonicalJson(n)).digest("hex")

/**
 * One stored row per distinct notice content: the same notice read twice (or from two pages that say the
 * same) is one row, while pages that say different things about one procedure (a listing item and its detail
 * page) are separate notices that the lifecycle overlays, so re-reading them changes nothing.
 */
const noticeKey = (n: ParsedNotice, hash: string) =>
  [n.record.source, n.procedureKey, n.record.id, n.kind, n.version ?? 0, hash].join("|")

/** NoticeStore on PostgreSQL: notices, tenders, aliases and change events, one transaction per notice. */
export const PgNoticeStore = Layer.effect(
  NoticeStore,
  Effect.gen(function* () {
    const sql = yield* PgClient.PgClient
    const text = yield* SearchText

    const applyOne = Effect.fnUntraced(function* (notice: ParsedNotice, resolve: NoticeResolver, now: string) {
      const hash = hashOf(notice)
      const key = noticeKey(notice, hash)
      // The key holds the content hash: a notice already stored is this very content, and changes nothing.
      const inserted = yield* sql`INSERT INTO tender_notices (notice_key, source, procedure_key, kind, version,
            content_hash, notice, received_at)
          VALUES (${key}, ${notice.record.source}, ${notice.procedureKey}, ${notice.kind}, ${notice.version}, ${hash},
            ${sql.json(notice)}, ${now}::timestamptz)
          ON CONFLICT (notice_key) DO NOTHING RETURNING notice_key`
      if (inserted.length === 0) return "unchanged" as const
      yield* lockEventWriters(sql) // before this notice's tender is read and written (its event comes last)
      const labels = notice.sourceLabels ?? []
      if (labels.length > 0)
        yield* sql`INSERT INTO source_labels (code, language, name, first_seen)
            SELECT l.code, l.language, l.name, ${now}::timestamptz
            FROM jsonb_to_recordset(${sql.json(labels)}) AS l (code text, language text, name text)
            ON CONFLICT (code, language, name) DO NOTHING`
      const rows = yield* sql`SELECT notice FROM tender_notices
          WHERE source = ${notice.record.source} AND procedure_key = ${notice.procedureKey} ORDER BY notice_key`
      const notices = (yield* decodeNotices(rows)).map((r) => r.notice)
      const stored = yield* sql`SELECT ${sql.literal(tenderColumns)} FROM tenders t
          WHERE t.source = ${notice.record.source} AND t.procedure_key = ${notice.procedureKey} ORDER BY t.id LIMIT 1`
      const beforeRow = (yield* decodeTenderRows(stored))[0]
      const before = beforeRow === undefined ? undefined : yield* toRecord(beforeRow, { onExcessProperty: "ignore" })
      const { change, tender } = resolve(notices, before, notice)
      if (tender === undefined) return change
      if (before !== undefined && before.id !== tender.id) {
        yield* sql`UPDATE tenders SET id = ${tender.id} WHERE id = ${before.id}`
        yield* sql`UPDATE tender_aliases SET tender_id = ${tender.id} WHERE tender_id = ${before.id}`
        yield* sql`INSERT INTO tender_aliases (alias, tender_id) VALUES (${before.id}, ${tender.id})
            ON CONFLICT (alias) DO UPDATE SET tender_id = EXCLUDED.tender_id`
        yield* sql`UPDATE tender_events SET tender_id = ${tender.id} WHERE tender_id = ${before.id}`
        yield* sql`UPDATE alerts SET tender_id = ${tender.id} WHERE tender_id = ${before.id}`
      }
      for (const n of notices) {
        if (n.record.id !== tender.id) {
          yield* sql`INSERT INTO tender_aliases (alias, tender_id) VALUES (${n.record.id}, ${tender.id})
              ON CONFLICT (alias) DO UPDATE SET tender_id = EXCLUDED.tender_id`
        }
      }
      yield* writeTenders(sql, text, [{ record: tender, procedureKey: notice.procedureKey }], now)
      yield* rememberWords(sql, text, [tender])
      if (change !== "unchanged") {
        yield* sql`INSERT INTO tender_events (tender_id, change, notice_key, created_at)
            VALUES (${tender.id}, ${change}, ${key}, ${now}::timestamptz)`
      }
      return change
    }, sql.withTransaction)

    const applyNotices = Effect.fn("PgNoticeStore.applyNotices")(function* (
      notices: ReadonlyArray<ParsedNotice>,
      resolve: NoticeResolver
    ) {
      const now = DateTime.formatIso(yield* DateTime.now)
      return yield* Effect.forEach(notices, (notice) => applyOne(notice, resolve, now))
    }, Effect.orDie)

    const sourceLabels = sql`SELECT code, language, name FROM source_labels ORDER BY id`.pipe(
      Effect.flatMap(Schema.decodeUnknownEffect(Schema.Array(SourceLabel))),
      Effect.orDie,
      Effect.withSpan("PgNoticeStore.sourceLabels")
    )
    const sourceLabelCount = sql<{ count: number }>`SELECT count(*)::int AS count FROM source_labels`.pipe(
      Effect.map((rows) => rows[0]?.count ?? 0),
      Effect.orDie,
      Effect.withSpan("PgNoticeStore.sourceLabelCount")
    )

    return NoticeStore.of({ applyNotices, sourceLabels, sourceLabelCount })
  })
)
