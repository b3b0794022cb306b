/** The few pieces of the Postgres wire protocol the exclusive socket server needs. */
/** The SSLRequest code of the PostgreSQL protocol (1234 << 16 | 5679); the socket answers "N" (no TLS). */
export const SSL_REQUEST_CODE = 80877103

export const GSSENC_REQUEST_CODE = 80877104
/** Ours, not PostgreSQL's: a startup packet with this code asks the owner for a backup (see Backup.ts). */
export const BACKUP_REQUEST_CODE = (1234 << 16) | 8000
export const PROTOCOL_3_0 = 196608
export const PARSE = 0x50 // 'P'
export const QUERY = 0x51 // 'Q'
export const CLOSE = 0x43 // 'C'
export const TERMINATE = 0x58 // 'X'
const READY_FOR_QUERY = 0x5a // 'Z'
const ERROR_RESPONSE = 0x45 // 'E'
const IDLE = 0x49 // 'I'
/** Longest ErrorResponse body kept to read its severity and message. */
const MAX_ERROR_BODY = 8192

/** SQLSTATE admin_shutdown: the server ended the session without running what it had not answered yet. */
export const ADMIN_SHUTDOWN = "57P01"
/** SQLSTATE cannot_connect_now: PGlite is being reopened; nothing of the session ran. */
export const CANNOT_CONNECT_NOW = "57P03"
/** Whether an owner's refusal (FATAL `code`) says nothing of the session ran: it stops, or reopens PGlite. */
export const refusedBeforeRunning = (code: string | undefined): boolean =>
  code === ADMIN_SHUTDOWN || code === CANNOT_CONNECT_NOW
/** SQLSTATE internal_error, for a session cut off because PGlite's backend died under it. */
export const INTERNAL_ERROR = "XX000"
/** SQLSTATE read_only_sql_transaction: what a write gets while the disk is too full to start writes. */
export const READ_ONLY_SQL_TRANSACTION = "25006"
/** SQLSTATE disk_full. */
export const DISK_FULL = "53100"
/** SQLSTATE feature_not_supported. */
export const FEATURE_NOT_SUPPORTED = "0A000"

/**
 * A simple query that starts with `COPY ... FROM STDIN` (psql's `\copy ... from`). PGlite runs a batch
 * synchronously, so the data the client sends after `CopyInResponse` never reaches it: it ends the
 * backend with FATAL. Refused before it runs instead.
 */
export const isCopyFromStdin = (sql: string): boolean => /^\s*copy\b[^;]*\bfrom\s+stdin\b/iu.test(sql)

/**
 * SQL that may change the state of the session (`SET`, `RESET`, `DISCARD`, `LISTEN`, `set_config`,
 * temporary objects; see SessionGuard.ts). `UPDATE ... SET` does not count: only a statement that starts
 * with the word does.
 */
export const mayChangeSession = (sql: string): boolean =>
  /(^|;)\s*(set|reset|discard|listen)\b|\bset_config\s*\(|\btemp(orary)?\s+(table|sequence|view)\b/iu.test(sql)

/** The SQL text of a Query message, or of a Parse message (after its statement name). */
export const sqlOf = (message: Buffer): string | undefined => {
  if (message[0] === QUERY) return cString(message, 5)
  if (message[0] !== PARSE) return undefined
  const nameEnd = message.indexOf(0, 5)
  return nameEnd === -1 ? undefined : cString(message, nameEnd + 1)
}

/**
 * Follows backend messages across output chunks: remembers whether the last complete one was
 * `ReadyForQuery` with transaction status idle, and whether the backend reported its own end (an
 * ErrorResponse with severity FATAL or PANIC, after which PGlite's backend is gone).
 */
export class ReadyScanner {
  private readonly header = Buffer.alloc(5)
  private headerFill = 0
  private remaining = 0
  private status = -1
  private lastType = -1
  private lastStatus = -1
  private errorBody: Array<Buffer> | undefined
  sawMessage = false
  /** `FATAL: message` or `PANIC: message`, once the backend said it ends. */
  fatal: string | undefined
  /** The SQLSTATE of that FATAL or PANIC. */
  fatalCode: string | undefined

  push(data: Uint8Array): void {
    let i = 0
    while (i < data.length) {
      if (this.headerFill < 5) {
        this.header[this.headerFill++] = data[i++]!
        if (this.headerFill === 5) {
          this.remaining = this.header.readInt32BE(1) - 4
          this.status = -1
          this.errorBody = this.header[0] === ERROR_RESPONSE && this.remaining <= MAX_ERROR_BODY ? [] : undefined
          if (this.remaining <= 0) this.finish()
        }
        continue
      }
      const n = Math.min(this.remaining, data.length - i)
      if (this.status === -1) this.status = data[i]!
      this.errorBody?.push(Buffer.from(data.subarray(i, i + n)))
      i += n
      this.remaining -= n
      if (this.remaining === 0) this.finish()
    }
  }

  get idle(): boolean {
    return this.headerFill === 0 && this.lastType === READY_FOR_QUERY && this.lastStatus === IDLE
  }

  private finish(): void {
    this.headerFill = 0
    this.lastType = this.header[0]!
    this.lastStatus = this.status
    this.sawMessage = true
    if (this.errorBody !== undefined) {
      const fields = errorFields(Buffer.concat(this.errorBody))
      const severity = fields.get("V") ?? fields.get("S")
      if ((severity === "FATAL" || severity === "PANIC") && this.fatal === undefined) {
        this.fatal = `${severity}: ${fields.get("M") ?? ""}`
        this.fatalCode = fields.get("C")
      }
      this.errorBody = undefined
    }
  }
}

/** The fields of an ErrorResponse body: one-letter code to value. */
const errorFields = (body: Buffer): Map<string, string> => {
  const fields = new Map<string, string>()
  let offset = 0
  while (offset < body.length && body[offset] !== 0) {
    const end = body.indexOf(0, offset + 1)
    const stop = end === -1 ? body.length : end
    fields.set(String.fromCharCode(body[offset]!), body.toString("utf8", offset + 1, stop))
    offset = stop + 1
  }
  return fields
}

const MAX_STARTUP_LENGTH = 10_000

/**
 * The next complete frontend packet at the start of `buffer`: before the startup message, a packet of
 * the startup phase (length, code: SSLRequest, StartupMessage, ...); after it, a typed message.
 */
export type Frame =
  | { readonly _tag: "Incomplete" }
  | { readonly _tag: "Invalid" }
  | { readonly _tag: "Startup"; readonly code: number; readonly bytes: Buffer }
  | { readonly _tag: "Message"; readonly type: number; readonly bytes: Buffer }

export const takeFrame = (buffer: Buffer, started: boolean): Frame => {
  const lengthAt = started ? 1 : 0
  if (buffer.length < lengthAt + (started ? 4 : 8)) return { _tag: "Incomplete" }
  const length = buffer.readInt32BE(lengthAt)
  if (started ? length < 4 : length < 8 || length > MAX_STARTUP_LENGTH) return { _tag: "Invalid" }
  if (buffer.length < lengthAt + length) return { _tag: "Incomplete" }
  const bytes = Buffer.from(buffer.subarray(0, lengthAt + length))
  return started ? { _tag: "Message", type: bytes[0]!, bytes } : { _tag: "Startup", code: bytes.readInt32BE(4), bytes }
}

export const cString = (message: Buffer, offset: number): string => {
  const end = message.indexOf(0, offset)
  return message.toString("utf8", offset, end === -1 ? message.length : end)
}

const frame = (type: string, body: Buffer): Buffer => {
  const header = Buffer.alloc(5)
  header.write(type, 0, "latin1")
  header.writeInt32BE(body.length + 4, 1)
  return Buffer.concat([header, body])
}

export const SYNC = frame("S", Buffer.alloc(0))
export const query = (sql: string): Buffer => frame("Q", Buffer.from(`${sql}\0`))
export const copyFail = (reason: string): Buffer => frame("f", Buffer.from(`${reason}\0`))
export const closeStatement = (name: string): Buffer => frame("C", Buffer.from(`S${name}\0`))
/** ReadyForQuery with transaction status idle. */
export const READY_IDLE = frame("Z", Buffer.from("I"))
/** An ErrorResponse as PostgreSQL sends it (severity, SQLSTATE, message). */
export const errorResponse = (severity: "ERROR" | "FATAL", code: string, message: string): Buffer =>
  frame("E", Buffer.from(`S${severity}\0V${severity}\0C${code}\0M${message}\0\0`))
