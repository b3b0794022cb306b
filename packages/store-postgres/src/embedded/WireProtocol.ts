/** The few pieces of the Postgres wire protocol the exclusive socket server needs. */
/** The SSLRequest code of the PostgreSQL protocol (1234 << 16 | 5679); the socket answers "N" (no TLS). */
export const SSL_REQUEST_CODE = 80877103

export const GSSENC_REQUEST_CODE = 80877104
export const PROTOCOL_3_0 = 196608
export const PARSE = 0x50 // 'P'
export const CLOSE = 0x43 // 'C'
export const TERMINATE = 0x58 // 'X'
const READY_FOR_QUERY = 0x5a // 'Z'
const IDLE = 0x49 // 'I'

/**
 * Follows backend messages across output chunks and remembers whether the
 * last complete one was `ReadyForQuery` with transaction status idle.
 */
export class ReadyScanner {
  private readonly header = Buffer.alloc(5)
  private headerFill = 0
  private remaining = 0
  private status = -1
  private lastType = -1
  private lastStatus = -1
  sawMessage = false

  push(data: Uint8Array): void {
    let i = 0
    while (i < data.length) {
      if (this.headerFill < 5) {
        this.header[this.headerFill++] = data[i++]!
        if (this.headerFill === 5) {
          this.remaining = this.header.readInt32BE(1) - 4
          this.status = -1
          if (this.remaining <= 0) this.finish()
        }
        continue
      }
      const n = Math.min(this.remaining, data.length - i)
      if (this.status === -1) this.status = data[i]!
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
  }
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
