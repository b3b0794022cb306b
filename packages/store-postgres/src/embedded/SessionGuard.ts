/**
 * Keeps the one PGlite session that every connection shares fit for the next connection. Between two
 * turns (ExclusiveSocketServer.ts):
 * - after a turn whose SQL may have changed session state (`SET`, `RESET`, `DISCARD`, `LISTEN`,
 *   `set_config`, temporary tables: what psql and pg_dump do), the session is reset (`RESET ALL`,
 *   `DISCARD TEMP`, `UNLISTEN *`), so a setting lasts one turn and never reaches another connection;
 * - while writes may not start (a full disk, DiskSpace.ts), the session is read-only
 *   (`default_transaction_read_only`), and read-write again once they may.
 * And before it runs, a simple query `COPY ... FROM STDIN` (psql's `\copy ... from`) is refused: PGlite
 * runs a batch synchronously, so the data sent after `CopyInResponse` could never reach it, and it would
 * end its backend instead.
 */
import {
  errorResponse,
  FEATURE_NOT_SUPPORTED,
  isCopyFromStdin,
  mayChangeSession,
  QUERY,
  READY_IDLE,
  sqlOf
} from "./WireProtocol.ts"

const COPY_REFUSED =
  "COPY FROM STDIN (psql's \\copy ... from) cannot reach the embedded PostgreSQL: " +
  "load tenders with `tenders ingest`, restore a backup with `tenders store restore`"

export class SessionGuard {
  private readonly writable: (() => boolean) | undefined
  private readOnly = false
  private resetPending = false

  /** `writable`: whether writes may start now; asked before every turn. */
  constructor(writable: (() => boolean) | undefined) {
    this.writable = writable
  }

  /** Whether a frontend message carries SQL that may change the session's state. */
  changesSession(message: Buffer): boolean {
    const sql = sqlOf(message)
    return sql !== undefined && mayChangeSession(sql)
  }

  /** A fresh PGlite was attached: its session has the defaults. */
  attached(): void {
    this.readOnly = false
    this.resetPending = false
  }

  /** A connection's turn ended; `changedSession` if it sent SQL that may have changed the session. */
  turnEnded(changedSession: boolean): void {
    this.resetPending ||= changedSession
  }

  /** SQL to run on the session before the next turn, if any (the state is taken as applied). */
  beforeTurn(): string | undefined {
    const statements: Array<string> = []
    if (this.resetPending) {
      statements.push("RESET ALL", "DISCARD TEMP", "UNLISTEN *")
      this.resetPending = false
      this.readOnly = false // RESET ALL also undid the read-only switch
    }
    const readOnly = this.writable !== undefined && !this.writable()
    if (readOnly !== this.readOnly) {
      statements.push(`SET default_transaction_read_only = ${readOnly ? "on" : "off"}`)
      this.readOnly = readOnly
    }
    return statements.length === 0 ? undefined : statements.join("; ")
  }

  /** What to answer instead of running `message`, sent by a connection outside any transaction, if it is refused. */
  refusal(message: Buffer): Buffer | undefined {
    if (message[0] !== QUERY) return undefined
    const sql = sqlOf(message)
    return sql !== undefined && isCopyFromStdin(sql)
      ? Buffer.concat([errorResponse("ERROR", FEATURE_NOT_SUPPORTED, COPY_REFUSED), READY_IDLE])
      : undefined
  }
}
