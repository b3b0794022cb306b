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
 * does not leak into the next connection. Between turns, SessionGuard.ts
 * resets what `SET` and the like left, switches the session read-only while
 * the disk is full, and refuses `COPY FROM STDIN`. Embedded mode must still
 * not rely on session state: it does not outlive a turn.
 *
 * Ending a connection follows one rule: a connection sent FATAL 57P01
 * (admin_shutdown), 57P03 (cannot_connect_now) or 53100 (disk_full) never has
 * anything run that it had not seen answered, and an open transaction of it
 * is rolled back. So a client that gets one may send its statement or
 * transaction again, to this server or to the next owner (FailoverClient.ts):
 * - `stop()` drains: no connection gets a new turn, the one holding the session
 *   is served until its transaction ends (at most {@link DRAIN_MS}, then it is
 *   cut off and rolled back), then every connection gets 57P01 and is closed.
 * - PGlite's backend can end: a FATAL or PANIC in its output (a WAL segment
 *   that cannot be created on a full disk; a COPY FROM STDIN inside a
 *   transaction) or an exception out of PGlite. Calling it again would spin
 *   forever, so it is detached at once: the connection that ran sees the
 *   backend's error (or XX000; whether its work ran is unknown), the others get
 *   57P01, new ones 57P03 (or what the owner says, `unavailable`) until the
 *   owner attaches a reopened PGlite (`onBackendLost`, `attach`).
 */
import type { PGlite } from "@electric-sql/pglite"
import * as Fs from "node:fs"
import * as Net from "node:net"
import { describeCause } from "./EmbeddedStoreError.ts"
import { SessionGuard } from "./SessionGuard.ts"
import {
  ADMIN_SHUTDOWN,
  BACKUP_REQUEST_CODE,
  CANNOT_CONNECT_NOW,
  CLOSE,
  closeStatement,
  copyFail,
  cString,
  errorResponse,
  GSSENC_REQUEST_CODE,
  INTERNAL_ERROR,
  PARSE,
  PROTOCOL_3_0,
  query,
  ReadyScanner,
  SSL_REQUEST_CODE,
  SYNC,
  takeFrame,
  TERMINATE
} from "./WireProtocol.ts"

/** How long a stopping server lets the connection holding the session finish its transaction. */
const DRAIN_MS = 10_000
/** How long a FATAL farewell may wait for a client that does not read before its socket is destroyed. */
const FAREWELL_MS = 1_000

interface Session {
  readonly socket: Net.Socket
  buffer: Buffer
  started: boolean
  /** Asked for a backup (Backup.ts) instead of a PostgreSQL session. */
  backup: boolean
  /** Complete frontend messages not yet handed to PGlite. */
  readonly pending: Array<{ readonly bytes: Buffer; readonly startup: boolean }>
  /** Named prepared statements this connection created on the shared session. */
  readonly statements: Set<string>
  /** Inside a protocol cycle or transaction: it must keep the session. */
  inCycle: boolean
  /** Sent SQL that may change the shared session's state since its turn began. */
  changesSession: boolean
  /** Sent Terminate: run what it sent before, then close. */
  terminating: boolean
  closed: boolean
}

export interface ExclusiveSocketServerOptions {
  readonly path: string
  /** Connections accepted at once; further ones are refused by Node. Default 100. */
  readonly maxConnections?: number | undefined
  /** Whether writes may start (false on a full disk); asked before every turn. Default: always. */
  readonly writable?: (() => boolean) | undefined
  /** Told why PGlite's backend ended; it is detached until {@link ExclusiveSocketServer.attach} gets a new one. */
  readonly onBackendLost?: ((reason: string) => void) | undefined
  /** The reply to a backup request, made while no connection holds the session. */
  readonly backup?: ((db: PGlite) => Promise<Uint8Array>) | undefined
}

export class ExclusiveSocketServer {
  readonly path: string
  private readonly options: ExclusiveSocketServerOptions
  private readonly server: Net.Server
  private readonly guard: SessionGuard
  private readonly sessions = new Set<Session>()
  private readonly turns: Array<Session> = []
  private holder: Session | undefined
  private running: Promise<void> | undefined
  private db: PGlite | undefined
  /** While PGlite is detached after its backend ended: what new connections are told. */
  private lost: { readonly code: string; readonly message: string } | undefined
  private draining = false
  private stopped: Promise<void> | undefined
  private onIdle: (() => void) | undefined
  private sink: ((data: Uint8Array) => void) | undefined
  /** One callback for PGlite, which keeps the last one it was given. */
  private readonly onRawData = (data: Uint8Array): void => this.sink?.(data)

  constructor(options: ExclusiveSocketServerOptions) {
    this.path = options.path
    this.options = options
    this.guard = new SessionGuard(options.writable)
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

  /** Starts serving queued and future connections from `db` (a fresh PGlite, with session defaults). */
  attach(db: PGlite): void {
    this.db = db
    this.lost = undefined
    this.guard.attached()
    this.pump()
  }

  /** While PGlite is detached: what new connections are told instead of "restarting" (e.g. 53100, disk full). */
  unavailable(code: string, message: string): void {
    if (this.lost !== undefined) this.lost = { code, message }
  }

  /** Stops accepting, drains (see the module doc), ends every connection with 57P01 and waits for the last batch. */
  stop(): Promise<void> {
    this.draining = true
    this.stopped ??= this.drainAndClose()
    return this.stopped
  }

  private async drainAndClose(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()))
    await this.idle()
    for (const session of this.sessions) {
      this.refuse(session, ADMIN_SHUTDOWN, "the tenders process serving the embedded store is stopping")
    }
    this.turns.length = 0
    this.pump() // a holder cut off mid-transaction is rolled back before PGlite closes
    await this.idle()
    await closed
  }

  /** Resolves once no connection holds the session and nothing runs, or after {@link DRAIN_MS}. */
  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.onIdle = undefined
        resolve()
      }
      const timer = setTimeout(done, DRAIN_MS)
      if (this.holder === undefined && this.running === undefined) return done()
      this.onIdle = done
    })
  }

  private accept(socket: Net.Socket): void {
    if (this.draining) {
      socket.destroy()
      return
    }
    const session: Session = {
      socket,
      buffer: Buffer.alloc(0),
      started: false,
      backup: false,
      pending: [],
      statements: new Set(),
      inCycle: false,
      changesSession: false,
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
    if (session.closed || session.terminating || session.backup) return
    session.buffer = session.buffer.length === 0 ? chunk : Buffer.concat([session.buffer, chunk])
    while (!session.closed && !session.terminating && !session.backup) {
      const frame = takeFrame(session.buffer, session.started)
      if (frame._tag === "Incomplete") break
      if (frame._tag === "Invalid") return this.drop(session)
      session.buffer = session.buffer.subarray(frame.bytes.length)
      if (frame._tag === "Startup") this.startup(session, frame.code, frame.bytes)
      else this.message(session, frame.type, frame.bytes)
    }
    if (session.pending.length > 0 && session !== this.holder && !this.turns.includes(session)) {
      this.turns.push(session)
    }
    this.pump()
  }

  private startup(session: Session, code: number, bytes: Buffer): void {
    if (code === SSL_REQUEST_CODE || code === GSSENC_REQUEST_CODE) {
      session.socket.write("N")
      return
    }
    // Not CANCEL_REQUEST_CODE (PGlite has no backend to signal) nor an unknown protocol.
    const known = code === PROTOCOL_3_0 || (code === BACKUP_REQUEST_CODE && this.options.backup !== undefined)
    if (!known) return this.close(session)
    if (this.lost !== undefined) return this.refuse(session, this.lost.code, this.lost.message)
    session.started = true
    session.backup = code === BACKUP_REQUEST_CODE
    session.pending.push({ bytes, startup: true })
  }

  private message(session: Session, type: number, bytes: Buffer): void {
    if (type === TERMINATE) {
      if (session.pending.length === 0) this.close(session)
      else session.terminating = true
      return
    }
    if (this.guard.changesSession(bytes)) session.changesSession = true
    if (type === PARSE) {
      const name = cString(bytes, 5)
      if (name !== "") session.statements.add(name)
    } else if (type === CLOSE && bytes[5] === 0x53) {
      session.statements.delete(cString(bytes, 6))
    }
    session.pending.push({ bytes, startup: false })
  }

  private drop(session: Session): void {
    this.close(session)
    this.pump()
  }

  /** Ends the connection with FATAL `code`; nothing it sent that was not answered runs (see the module doc). */
  private refuse(session: Session, code: string, message: string): void {
    this.close(session, errorResponse("FATAL", code, message))
    setTimeout(() => session.socket.destroy(), FAREWELL_MS).unref()
  }

  /** Closes a connection, after writing `farewell` to it if given. */
  private close(session: Session, farewell?: Uint8Array): void {
    if (session.closed) return
    session.closed = true
    session.pending.length = 0
    const socket = session.socket
    if (farewell !== undefined && socket.writable) socket.end(farewell, () => socket.destroy())
    else socket.destroy()
    this.sessions.delete(session)
    const index = this.turns.indexOf(session)
    if (index !== -1) this.turns.splice(index, 1)
    // The holder, or a connection that left named statements behind, gets one
    // more turn to clean up the shared session.
    if (session !== this.holder && session.statements.size > 0 && !this.draining && this.lost === undefined) {
      this.turns.push(session)
    }
  }

  private pump(): void {
    if (this.running !== undefined || this.db === undefined) return
    let session = this.holder
    const fresh = session === undefined
    if (session === undefined) {
      session = this.draining ? undefined : this.turns.shift()
      if (session === undefined) return this.onIdle?.()
      this.holder = session
    } else if (!session.closed && session.pending.length === 0) {
      return // the holder's client has not sent its next message yet
    }
    const db = this.db
    const current = session
    this.running = this.turn(db, current, fresh)
      .then((fatal) => (fatal === undefined ? undefined : { reason: fatal, told: true }))
      .catch((error: unknown) => ({ reason: `PGlite failed: ${describeCause(error)}`, told: false }))
      .then((ended) => {
        this.running = undefined
        if (ended !== undefined) return this.lose(ended.reason, ended.told, current)
        if (current.terminating && current.pending.length === 0) this.close(current)
        const keep = current.inCycle || (current.closed && current.statements.size > 0)
        if (!keep) {
          this.holder = undefined
          this.guard.turnEnded(current.changesSession)
          current.changesSession = false
          if (!current.closed && current.pending.length > 0) this.turns.push(current)
        }
        this.pump()
      })
  }

  /** One turn of the holder; resolves with the backend's FATAL or PANIC if it ended during it. */
  private async turn(db: PGlite, session: Session, fresh: boolean): Promise<string | undefined> {
    if (session.closed) return this.cleanup(db, session)
    if (session.backup) return this.sendBackup(db, session)
    const before = fresh ? this.guard.beforeTurn() : undefined
    if (before !== undefined) {
      const scanner = new ReadyScanner()
      await this.run(db, query(before), scanner)
      if (scanner.fatal !== undefined) return scanner.fatal
    }
    return this.execute(db, session)
  }

  /**
   * PGlite's backend ended: detach it, end every connection (see the module doc) and tell the owner. The
   * connection that ran saw the backend's FATAL or PANIC (`told`), or gets XX000.
   */
  private lose(reason: string, told: boolean, running: Session): void {
    this.db = undefined
    this.lost = { code: CANNOT_CONNECT_NOW, message: `the embedded PostgreSQL is restarting after: ${reason}` }
    this.holder = undefined
    this.turns.length = 0
    if (told) this.close(running)
    else this.refuse(running, INTERNAL_ERROR, `the embedded PostgreSQL stopped: ${reason}`)
    for (const session of this.sessions) this.refuse(session, ADMIN_SHUTDOWN, this.lost.message)
    this.onIdle?.()
    this.options.onBackendLost?.(reason)
  }

  /** Runs the holder's pending messages; startup packets go alone (PGlite requires it). */
  private async execute(db: PGlite, session: Session): Promise<string | undefined> {
    const first = session.pending[0]!
    const refusal = first.startup || session.inCycle ? undefined : this.guard.refusal(first.bytes)
    if (refusal !== undefined) {
      session.pending.shift()
      session.socket.write(refusal)
      return undefined
    }
    let count = 1
    if (!first.startup) {
      while (count < session.pending.length && !session.pending[count]!.startup) count++
    }
    const batch = session.pending.splice(0, count).map((message) => message.bytes)
    const scanner = new ReadyScanner()
    await this.run(db, batch.length === 1 ? batch[0]! : Buffer.concat(batch), scanner, (data) => {
      if (!session.closed && session.socket.writable) session.socket.write(Buffer.from(data))
    })
    // A batch without output (a lone Flush, CopyData) leaves the state unchanged.
    if (scanner.sawMessage) session.inCycle = !scanner.idle
    return scanner.fatal
  }

  /** Brings the shared session back to idle after its holder disconnected. */
  private async cleanup(db: PGlite, session: Session): Promise<string | undefined> {
    const scanner = new ReadyScanner()
    if (session.inCycle) {
      await this.run(db, Buffer.concat([copyFail("connection closed"), SYNC]), scanner)
      if (!scanner.idle) await this.run(db, query("ROLLBACK"), scanner)
      session.inCycle = false
    }
    if (session.statements.size > 0) {
      const closes = [...session.statements].map(closeStatement)
      session.statements.clear()
      await this.run(db, Buffer.concat([...closes, SYNC]), scanner)
    }
    return scanner.fatal
  }

  /** Answers a backup request ("B" + tarball, or "E" + why) and closes the connection. */
  private async sendBackup(db: PGlite, session: Session): Promise<undefined> {
    session.pending.length = 0
    const backup = this.options.backup
    const reply = await (backup === undefined ? Promise.reject(new Error("no backups here")) : backup(db))
      .then((tarball) => Buffer.concat([Buffer.from("B"), tarball]))
      .catch((error: unknown) => Buffer.from(`E${describeCause(error)}`))
    this.close(session, reply)
    return undefined
  }

  private async run(
    db: PGlite,
    message: Uint8Array,
    scanner: ReadyScanner,
    forward?: (data: Uint8Array) => void
  ): Promise<void> {
    await db.runExclusive(async () => {
      this.sink = (data) => {
        scanner.push(data)
        forward?.(data)
      }
      try {
        await db.execProtocolRawStream(message, { onRawData: this.onRawData })
      } catch (error) {
        // The backend said why it ended (e.g. COPY FROM STDIN without its data), then exited.
        if (scanner.fatal === undefined) throw error
      } finally {
        this.sink = undefined
      }
    })
  }
}
