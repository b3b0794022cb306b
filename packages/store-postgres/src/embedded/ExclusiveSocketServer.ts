/**
 * A Postgres wire-protocol server over a Unix socket in front of one PGlite
 * instance, replacing `PGLiteSocketServer` from `@electric-sql/pglite-socket`.
 *
 * PGlite is a single backend session. pglite-socket 0.2.17 queues every
 * protocol message separately, so the `Parse`/`Bind`/`Execute`/`Sync` of
 * different connections interleave on that session (lost updates, `portal ""
 * does not exist`). Here a connection owns the session from its first message
 * until the backend's `ReadyForQuery` reports idle (`Z` with status `I`): a
 * whole extended-protocol cycle and a whole transaction run without any other
 * connection's message in between. Other connections keep their sockets open
 * and wait their turn in FIFO order (never refused below `maxConnections`).
 *
 * When a connection goes away while it owns the session (mid-cycle or inside a
 * transaction), the session is brought back to idle (`CopyFail`, `Sync`,
 * `ROLLBACK`) and the named statements it prepared are closed, so its state
 * does not leak into the next connection. Other session state (`SET`, temp
 * tables, `LISTEN`) is shared by all connections: embedded mode must not use
 * it.
 */
import type { PGlite } from "@electric-sql/pglite"
import * as Fs from "node:fs"
import * as Net from "node:net"
import {
  CLOSE,
  closeStatement,
  copyFail,
  cString,
  GSSENC_REQUEST_CODE,
  PARSE,
  PROTOCOL_3_0,
  query,
  ReadyScanner,
  SSL_REQUEST_CODE,
  SYNC,
  TERMINATE
} from "./WireProtocol.ts"

const MAX_STARTUP_LENGTH = 10_000

interface Session {
  readonly id: number
  readonly socket: Net.Socket
  buffer: Buffer
  started: boolean
  /** Complete frontend messages not yet handed to PGlite. */
  readonly pending: Array<{ readonly bytes: Buffer; readonly startup: boolean }>
  /** Named prepared statements this connection created on the shared session. */
  readonly statements: Set<string>
  /** Inside a protocol cycle or transaction: it must keep the session. */
  inCycle: boolean
  /** Sent Terminate: run what it sent before, then close. */
  terminating: boolean
  closed: boolean
}

export interface ExclusiveSocketServerOptions {
  readonly path: string
  /** Connections accepted at once; further ones are refused by Node. Default 100. */
  readonly maxConnections?: number | undefined
}

export class ExclusiveSocketServer {
  readonly path: string
  private readonly server: Net.Server
  private readonly sessions = new Set<Session>()
  private readonly turns: Array<Session> = []
  private holder: Session | undefined
  private running: Promise<void> | undefined
  private db: PGlite | undefined
  private stopped = false
  private nextId = 1
  private sink: ((data: Uint8Array) => void) | undefined
  /** One callback for PGlite, which keeps the last one it was given. */
  private readonly onRawData = (data: Uint8Array): void => this.sink?.(data)

  constructor(options: ExclusiveSocketServerOptions) {
    this.path = options.path
    this.server = Net.createServer((socket) => this.accept(socket))
    this.server.maxConnections = options.maxConnections ?? 100
  }

  /** Listens on the socket (mode 0600). Connections queue until {@link attach}. */
  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error)
      this.server.once("error", onError)
      this.server.listen(this.path, () => {
        this.server.off("error", onError)
        try {
          Fs.chmodSync(this.path, 0o600)
        } catch {
          // best effort: the data directory's own permissions still apply
        }
        resolve()
      })
    })
  }

  /** Starts serving queued and future connections from `db`. */
  attach(db: PGlite): void {
    this.db = db
    this.pump()
  }

  /** Stops accepting, drops every connection and waits for the running batch. */
  async stop(): Promise<void> {
    if (this.stopped) return
    this.stopped = true
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()))
    for (const session of this.sessions) session.socket.destroy()
    this.sessions.clear()
    this.turns.length = 0
    while (this.running !== undefined) await this.running
    await closed
  }

  private accept(socket: Net.Socket): void {
    if (this.stopped) {
      socket.destroy()
      return
    }
    const session: Session = {
      id: this.nextId++,
      socket,
      buffer: Buffer.alloc(0),
      started: false,
      pending: [],
      statements: new Set(),
      inCycle: false,
      terminating: false,
      closed: false
    }
    this.sessions.add(session)
    socket.setNoDelay(true)
    socket.on("data", (chunk) => this.receive(session, chunk))
    // After Terminate, what the client sent before it still runs (then it closes).
    const gone = () => {
      if (!session.terminating) this.drop(session)
    }
    socket.on("error", gone)
    socket.on("close", gone)
  }

  private receive(session: Session, chunk: Buffer): void {
    if (session.closed || session.terminating) return
    session.buffer = session.buffer.length === 0 ? chunk : Buffer.concat([session.buffer, chunk])
    while (!session.closed) {
      const buffer = session.buffer
      if (!session.started) {
        if (buffer.length < 8) break
        const length = buffer.readInt32BE(0)
        const code = buffer.readInt32BE(4)
        if (length < 8 || length > MAX_STARTUP_LENGTH) return this.drop(session)
        if (buffer.length < length) break
        session.buffer = buffer.subarray(length)
        if (code === SSL_REQUEST_CODE || code === GSSENC_REQUEST_CODE) {
          session.socket.write("N")
        } else if (code === PROTOCOL_3_0) {
          session.started = true
          session.pending.push({ bytes: Buffer.from(buffer.subarray(0, length)), startup: true })
        } else {
          // CANCEL_REQUEST_CODE: PGlite has no backend to signal; or an unknown protocol.
          return this.drop(session)
        }
        continue
      }
      if (buffer.length < 5) break
      const length = buffer.readInt32BE(1)
      if (length < 4) return this.drop(session)
      if (buffer.length < length + 1) break
      const message = Buffer.from(buffer.subarray(0, length + 1))
      session.buffer = buffer.subarray(length + 1)
      const type = message[0]
      if (type === TERMINATE) {
        if (session.pending.length === 0) return this.drop(session)
        session.terminating = true
        break
      }
      if (type === PARSE) {
        const name = cString(message, 5)
        if (name !== "") session.statements.add(name)
      } else if (type === CLOSE && message[5] === 0x53) {
        session.statements.delete(cString(message, 6))
      }
      session.pending.push({ bytes: message, startup: false })
    }
    if (session.pending.length > 0 && session !== this.holder && !this.turns.includes(session)) {
      this.turns.push(session)
    }
    this.pump()
  }

  private drop(session: Session): void {
    this.close(session)
    this.pump()
  }

  private close(session: Session): void {
    if (session.closed) return
    session.closed = true
    session.pending.length = 0
    session.socket.destroy()
    this.sessions.delete(session)
    const index = this.turns.indexOf(session)
    if (index !== -1) this.turns.splice(index, 1)
    // The holder, or a connection that left named statements behind, gets one
    // more turn to clean up the shared session.
    if (session !== this.holder && session.statements.size > 0 && !this.stopped) this.turns.push(session)
  }

  private pump(): void {
    if (this.running !== undefined || this.db === undefined || this.stopped) return
    let session = this.holder
    if (session === undefined) {
      session = this.turns.shift()
      if (session === undefined) return
      this.holder = session
    } else if (!session.closed && session.pending.length === 0) {
      return // the holder's client has not sent its next message yet
    }
    const db = this.db
    const current = session
    this.running = (current.closed ? this.cleanup(db, current) : this.execute(db, current))
      .catch(() => {
        // PGlite itself failed (not an SQL error, those travel in-protocol).
        current.inCycle = false
        current.statements.clear()
        this.close(current)
      })
      .finally(() => {
        this.running = undefined
        if (current.terminating && current.pending.length === 0) this.close(current)
        const keep = current.inCycle || (current.closed && current.statements.size > 0)
        if (!keep) {
          this.holder = undefined
          if (!current.closed && current.pending.length > 0) this.turns.push(current)
        }
        this.pump()
      })
  }

  /** Runs the holder's pending messages; startup packets go alone (PGlite requires it). */
  private async execute(db: PGlite, session: Session): Promise<void> {
    const first = session.pending[0]!
    let count = 1
    if (!first.startup) {
      while (count < session.pending.length && !session.pending[count]!.startup) count++
    }
    const batch = session.pending.splice(0, count).map((message) => message.bytes)
    const scanner = new ReadyScanner()
    await this.run(db, batch.length === 1 ? batch[0]! : Buffer.concat(batch), (data) => {
      scanner.push(data)
      if (!session.closed && session.socket.writable) session.socket.write(Buffer.from(data))
    })
    // A batch without output (a lone Flush, CopyData) leaves the state unchanged.
    if (scanner.sawMessage) session.inCycle = !scanner.idle
  }

  /** Brings the shared session back to idle after its holder disconnected. */
  private async cleanup(db: PGlite, session: Session): Promise<void> {
    if (session.inCycle) {
      const scanner = new ReadyScanner()
      await this.run(db, Buffer.concat([copyFail("connection closed"), SYNC]), (data) => scanner.push(data))
      if (!scanner.idle) await this.run(db, query("ROLLBACK"), () => {})
      session.inCycle = false
    }
    if (session.statements.size > 0) {
      const closes = [...session.statements].map(closeStatement)
      session.statements.clear()
      await this.run(db, Buffer.concat([...closes, SYNC]), () => {})
    }
  }

  private async run(db: PGlite, message: Uint8Array, sink: (data: Uint8Array) => void): Promise<void> {
    await db.runExclusive(async () => {
      this.sink = sink
      try {
        await db.execProtocolRawStream(message, { onRawData: this.onRawData })
      } finally {
        this.sink = undefined
      }
    })
  }
}
