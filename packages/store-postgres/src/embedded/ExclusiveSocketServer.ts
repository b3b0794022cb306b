/**
 * A Postgres wire-protocol server over a Unix socket in front of one PGlite instance, replacing `PGLiteSocketServer`
 * from `@electric-sql/pglite-socket`.
 *
 * PGlite is a single backend session. pglite-socket 0.2.17 queues every protocol message separately, so the
 * `Parse`/`Bind`/`Execute`/`Sync` of different connections interleave on that session (lost updates, `portal "" does
 * not exist`). Here a connection owns the session from its first message until the backend's `ReadyForQuery` reports
 * idle (`Z` with status `I`): a whole extended-protocol cycle and a whole transaction run without any other
 * connection's message in between. Other connections keep their sockets open and wait their turn in FIFO order (never
 * refused below `maxConnections`).
 *
 * This file is the turn queue: whose turn it is, and how connections end. What a turn runs on the session, and how a
 * connection that goes away while it holds it leaves it idle, is SharedSession.ts's. Between turns, SessionGuard.ts
 * resets what `SET` and the like left, switches the session read-only while the disk is full, and refuses `COPY FROM
 * STDIN`. Embedded mode must still not rely on session state: it does not outlive a turn.
 *
 * Ending a connection follows one rule: a connection sent FATAL 57P01 (admin_shutdown), 57P03 (cannot_connect_now) or
 * 53100 (disk_full) never has anything run that it had not seen answered, and an open transaction of it is rolled back.
 * So a client that gets one may send its statement or transaction again, to this server or to the next owner
 * (FailoverClient.ts):
 * - `stop()` drains: no connection gets a new turn, the one holding the session is served until its transaction ends
 *   (at most {@link DRAIN_MS}, then it is cut off and rolled back), then every connection gets 57P01 and is closed.
 * - PGlite's backend can end: a FATAL or PANIC in its output (a WAL segment that cannot be created on a full disk; a
 *   COPY FROM STDIN inside a transaction) or an exception out of PGlite. Calling it again would spin forever, so it
 *   is detached at once: the connection that ran sees the backend's error (or XX000; whether its work ran is
 *   unknown), the others get 57P01, new ones 57P03 (or what the owner says, `unavailable`) until the owner attaches a
 *   reopened PGlite (`onBackendLost`, `attach`).
 * - The owner may detach PGlite at a moment no connection holds it (`detachWhenIdle`, to give back its memory): every
 *   connection gets 57P01, new ones 57P03, until it attaches a fresh one.
 */
import type { PGlite } from "@electric-sql/pglite"
import * as Net from "node:net"
import { type Connection, newConnection } from "./Connection.ts"
import { describeCause } from "./EmbeddedStoreError.ts"
import { IdleSignal } from "./IdleSignal.ts"
import { listenPrivately } from "./PrivateSocket.ts"
import { SessionGuard } from "./SessionGuard.ts"
import { SharedSession } from "./SharedSession.ts"
import {
  ADMIN_SHUTDOWN,
  BACKUP_REQUEST_CODE,
  CANNOT_CONNECT_NOW,
  errorResponse,
  GSSENC_REQUEST_CODE,
  INTERNAL_ERROR,
  PROTOCOL_3_0,
  SSL_REQUEST_CODE,
  takeFrame,
  TERMINATE
} from "./WireProtocol.ts"

/** How long a stopping server lets the connection holding the session finish its transaction. */
const DRAIN_MS = 10_000
/** How long a FATAL farewell may wait for a client that does not read before its socket is destroyed. */
const FAREWELL_MS = 1_000

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
  private readonly shared: SharedSession
  private readonly connections = new Set<Connection>()
  private readonly turns: Array<Connection> = []
  private holder: Connection | undefined
  private running: Promise<void> | undefined
  private db: PGlite | undefined
  /** While PGlite is detached (its backend ended, or the owner reopens it): what new connections are told. */
  private lost: { readonly code: string; readonly message: string } | undefined
  private draining = false
  /** No new turn starts: the owner waits for the session to be idle to detach PGlite. */
  private pausing = false
  private stopped: Promise<void> | undefined
  private readonly idleSignal = new IdleSignal()

  constructor(options: ExclusiveSocketServerOptions) {
    this.path = options.path
    this.options = options
    this.guard = new SessionGuard(options.writable)
    this.shared = new SharedSession({
      guard: this.guard,
      backup: options.backup,
      close: (connection, farewell) => this.close(connection, farewell)
    })
    this.server = Net.createServer((socket) => this.accept(socket))
    this.server.maxConnections = options.maxConnections ?? 100
  }

  /** Listens on the socket (mode 0600). Connections queue until {@link attach}. */
  listen(): Promise<void> {
    return listenPrivately(this.server, this.path)
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
    for (const connection of this.connections) {
      this.refuse(connection, ADMIN_SHUTDOWN, "the tenders process serving the embedded store is stopping")
    }
    this.turns.length = 0
    this.pump() // a holder cut off mid-transaction is rolled back before PGlite closes
    await this.idle()
    await closed
  }

  /**
   * Detaches PGlite at the next moment no connection holds the session (the connections that wait get no turn
   * meanwhile), ending every connection with 57P01 as when the backend ends, for the owner to close it and
   * {@link attach} a fresh one. False, and the turns go on, when the session was not idle within `waitMs`.
   */
  async detachWhenIdle(message: string, waitMs: number): Promise<boolean> {
    if (this.db === undefined || this.draining) return false
    this.pausing = true
    const idle = await this.idle(waitMs)
    this.pausing = false
    if (!idle || this.db === undefined || this.draining) {
      this.pump()
      return false
    }
    this.detach(message)
    return true
  }

  /** Resolves with true once no connection holds the session and nothing runs, or with false after `waitMs`. */
  private idle(waitMs = DRAIN_MS): Promise<boolean> {
    return this.idleSignal.wait(this.holder === undefined && this.running === undefined, waitMs)
  }

  private accept(socket: Net.Socket): void {
    if (this.draining) {
      socket.destroy()
      return
    }
    const connection = newConnection(socket)
    this.connections.add(connection)
    socket.setNoDelay(true)
    socket.on("data", (chunk) => this.receive(connection, chunk))
    // After Terminate, what the client sent before it still runs (then it closes).
    const gone = () => {
      if (!connection.terminating) this.drop(connection)
    }
    socket.on("error", gone)
    socket.on("close", gone)
  }

  private receive(connection: Connection, chunk: Buffer): void {
    if (connection.closed || connection.terminating || connection.backup) return
    connection.buffer = connection.buffer.length === 0 ? chunk : Buffer.concat([connection.buffer, chunk])
    while (!connection.closed && !connection.terminating && !connection.backup) {
      const frame = takeFrame(connection.buffer, connection.started)
      if (frame._tag === "Incomplete") break
      if (frame._tag === "Invalid") return this.drop(connection)
      connection.buffer = connection.buffer.subarray(frame.bytes.length)
      if (frame._tag === "Startup") this.startup(connection, frame.code, frame.bytes)
      else this.message(connection, frame.type, frame.bytes)
    }
    if (connection.pending.length > 0 && connection !== this.holder && !this.turns.includes(connection)) {
      this.turns.push(connection)
    }
    this.pump()
  }

  private startup(connection: Connection, code: number, bytes: Buffer): void {
    if (code === SSL_REQUEST_CODE || code === GSSENC_REQUEST_CODE) {
      connection.socket.write("N")
      return
    }
    // Not CANCEL_REQUEST_CODE (PGlite has no backend to signal) nor an unknown protocol.
    const known = code === PROTOCOL_3_0 || (code === BACKUP_REQUEST_CODE && this.options.backup !== undefined)
    if (!known) return this.close(connection)
    if (this.lost !== undefined) return this.refuse(connection, this.lost.code, this.lost.message)
    connection.started = true
    connection.backup = code === BACKUP_REQUEST_CODE
    connection.pending.push({ bytes, startup: true })
  }

  private message(connection: Connection, type: number, bytes: Buffer): void {
    if (type === TERMINATE) {
      if (connection.pending.length === 0) this.close(connection)
      else connection.terminating = true
      return
    }
    this.shared.received(connection, type, bytes)
  }

  private drop(connection: Connection): void {
    this.close(connection)
    this.pump()
  }

  /** Ends the connection with FATAL `code`; nothing it sent that was not answered runs (see the module doc). */
  private refuse(connection: Connection, code: string, message: string): void {
    this.close(connection, errorResponse("FATAL", code, message))
    setTimeout(() => connection.socket.destroy(), FAREWELL_MS).unref()
  }

  /** Closes a connection, after writing `farewell` to it if given. */
  private close(connection: Connection, farewell?: Uint8Array): void {
    if (connection.closed) return
    connection.closed = true
    connection.pending.length = 0
    const socket = connection.socket
    if (farewell !== undefined && socket.writable) socket.end(farewell, () => socket.destroy())
    else socket.destroy()
    this.connections.delete(connection)
    const index = this.turns.indexOf(connection)
    if (index !== -1) this.turns.splice(index, 1)
    // The holder, or a connection that left named statements behind, gets one
    // more turn to clean up the shared session.
    if (connection !== this.holder && connection.statements.size > 0 && !this.draining && this.lost === undefined) {
      this.turns.push(connection)
    }
  }

  private pump(): void {
    if (this.running !== undefined || this.db === undefined) return
    let connection = this.holder
    const fresh = connection === undefined
    if (connection === undefined) {
      connection = this.draining || this.pausing ? undefined : this.turns.shift()
      if (connection === undefined) return this.idleSignal.idle()
      this.holder = connection
    } else if (!connection.closed && connection.pending.length === 0) {
      return // the holder's client has not sent its next message yet
    }
    const db = this.db
    const current = connection
    this.running = this.shared
      .turn(db, current, fresh)
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

  /**
   * PGlite's backend ended: detach it, end every connection (see the module doc) and tell the owner. The
   * connection that ran saw the backend's FATAL or PANIC (`told`), or gets XX000.
   */
  private lose(reason: string, told: boolean, running: Connection): void {
    this.holder = undefined
    if (told) this.close(running)
    else this.refuse(running, INTERNAL_ERROR, `the embedded PostgreSQL stopped: ${reason}`)
    this.detach(`the embedded PostgreSQL is restarting after: ${reason}`)
    this.options.onBackendLost?.(reason)
  }

  /** Detaches PGlite: every connection gets 57P01 with `message`, new ones 57P03, until {@link attach}. */
  private detach(message: string): void {
    this.db = undefined
    this.lost = { code: CANNOT_CONNECT_NOW, message }
    this.holder = undefined
    this.turns.length = 0
    for (const connection of this.connections) this.refuse(connection, ADMIN_SHUTDOWN, message)
    this.idleSignal.idle()
  }
}
