/**
 * A client connection of the embedded store's socket server (ExclusiveSocketServer.ts): the messages it sent, not yet
 * run, and what it holds of PGlite's shared session (SharedSession.ts).
 */
import type * as Net from "node:net"

export interface Connection {
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

/** A connection just accepted: nothing received yet. */
export const newConnection = (socket: Net.Socket): Connection => ({
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
})
