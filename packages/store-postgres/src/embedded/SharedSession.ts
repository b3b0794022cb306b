/**
 * PGlite's one backend session, as the connections of the socket server (ExclusiveSocketServer.ts) share it: what
 * one turn of the connection holding it runs there. A turn hands PGlite the messages the connection sent (a startup
 * packet alone, as PGlite requires), after SessionGuard.ts's reset when the connection has just taken the session,
 * forwards the backend's output to the connection, and tells whether it is left inside a protocol cycle or a
 * transaction (`inCycle`: it keeps the session until the backend reports idle).
 *
 * When a connection goes away while it owns the session (mid-cycle or inside a transaction), its last turn brings
 * the session back to idle (`CopyFail`, `Sync`, `ROLLBACK`) and closes the named statements it prepared, so its state
 * does not leak into the next connection. A backup request (Backup.ts) takes one turn, while no other connection
 * holds the session: the reply, then the connection is closed.
 */
import type { PGlite } from "@electric-sql/pglite"
import type { Connection } from "./Connection.ts"
import { describeCause } from "./EmbeddedStoreError.ts"
import type { SessionGuard } from "./SessionGuard.ts"
import { CLOSE, closeStatement, copyFail, cString, PARSE, query, ReadyScanner, SYNC } from "./WireProtocol.ts"

export interface SharedSessionOptions {
  readonly guard: SessionGuard
  /** The server's `backup` option (ExclusiveSocketServer.ts). */
  readonly backup: ((db: PGlite) => Promise<Uint8Array>) | undefined
  /** The server's way of ending a connection, `farewell` its last bytes. */
  readonly close: (connection: Connection, farewell?: Uint8Array) => void
}

export class SharedSession {
  private readonly options: SharedSessionOptions
  private sink: ((data: Uint8Array) => void) | undefined
  /** One callback for PGlite, which keeps the last one it was given. */
  private readonly onRawData = (data: Uint8Array): void => this.sink?.(data)

  constructor(options: SharedSessionOptions) {
    this.options = options
  }

  /**
   * Takes a frontend message of a connection (not a startup packet nor Terminate) for its next turn, noting what it
   * does to the shared session: SQL that may change its state, a named statement prepared or closed.
   */
  received(connection: Connection, type: number, bytes: Buffer): void {
    if (this.options.guard.changesSession(bytes)) connection.changesSession = true
    if (type === PARSE) {
      const name = cString(bytes, 5)
      if (name !== "") connection.statements.add(name)
    } else if (type === CLOSE && bytes[5] === 0x53) {
      connection.statements.delete(cString(bytes, 6))
    }
    connection.pending.push({ bytes, startup: false })
  }

  /**
   * One turn of the connection holding the session (`fresh`: it has just taken it); resolves with the backend's FATAL
   * or PANIC if it ended during it.
   */
  async turn(db: PGlite, connection: Connection, fresh: boolean): Promise<string | undefined> {
    if (connection.closed) return this.cleanup(db, connection)
    if (connection.backup) return this.sendBackup(db, connection)
    const before = fresh ? this.options.guard.beforeTurn() : undefined
    if (before !== undefined) {
      const scanner = new ReadyScanner()
      await this.run(db, query(before), scanner)
      if (scanner.fatal !== undefined) return scanner.fatal
    }
    return this.execute(db, connection)
  }

  /** Runs the holder's pending messages; startup packets go alone (PGlite requires it). */
  private async execute(db: PGlite, connection: Connection): Promise<string | undefined> {
    const first = connection.pending[0]!
    const refusal = first.startup || connection.inCycle ? undefined : this.options.guard.refusal(first.bytes)
    if (refusal !== undefined) {
      connection.pending.shift()
      connection.socket.write(refusal)
      return undefined
    }
    let count = 1
    if (!first.startup) {
      while (count < connection.pending.length && !connection.pending[count]!.startup) count++
    }
    const batch = connection.pending.splice(0, count).map((message) => message.bytes)
    const scanner = new ReadyScanner()
    await this.run(db, batch.length === 1 ? batch[0]! : Buffer.concat(batch), scanner, (data) => {
      if (!connection.closed && connection.socket.writable) connection.socket.write(Buffer.from(data))
    })
    // A batch without output (a lone Flush, CopyData) leaves the state unchanged.
    if (scanner.sawMessage) connection.inCycle = !scanner.idle
    return scanner.fatal
  }

  /** Brings the shared session back to idle after its holder disconnected. */
  private async cleanup(db: PGlite, connection: Connection): Promise<string | undefined> {
    const scanner = new ReadyScanner()
    if (connection.inCycle) {
      await this.run(db, Buffer.concat([copyFail("connection closed"), SYNC]), scanner)
      if (!scanner.idle) await this.run(db, query("ROLLBACK"), scanner)
      connection.inCycle = false
    }
    if (connection.statements.size > 0) {
      const closes = [...connection.statements].map(closeStatement)
      connection.statements.clear()
      await this.run(db, Buffer.concat([...closes, SYNC]), scanner)
    }
    return scanner.fatal
  }

  /** Answers a backup request ("B" + tarball, or "E" + why) and closes the connection. */
  private async sendBackup(db: PGlite, connection: Connection): Promise<undefined> {
    connection.pending.length = 0
    const backup = this.options.backup
    const reply = await (backup === undefined ? Promise.reject(new Error("no backups here")) : backup(db))
      .then((tarball) => Buffer.concat([Buffer.from("B"), tarball]))
      .catch((error: unknown) => Buffer.from(`E${describeCause(error)}`))
    this.options.close(connection, reply)
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
