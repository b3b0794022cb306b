// Raw PostgreSQL wire-protocol clients for the embedded store's tests: what an outside client (psql, a
// crashing process) does, byte for byte.
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import * as Fs from "node:fs"
import * as Net from "node:net"
import * as Os from "node:os"
import * as Path from "node:path"
import { ExclusiveSocketServer } from "../src/embedded/ExclusiveSocketServer.ts"

/**
 * An exclusive socket server listening at `path` (stopped with the test's scope) whose disk has room while
 * `disk.room` is true: with no room, sessions are read-only, as on a full disk.
 */
export const serverWithDisk = (path: string) =>
  Effect.gen(function* () {
    const disk = { room: true }
    const server = yield* Effect.acquireRelease(
      Effect.promise(async () => {
        const server = new ExclusiveSocketServer({ path, writable: () => disk.room })
        await server.listen()
        return server
      }),
      (server) => Effect.promise(() => server.stop())
    )
    return { server, disk }
  })

/** A fresh short temp directory, removed when the test's scope closes. */
export const tempDir = Effect.acquireRelease(
  Effect.sync(() => Fs.mkdtempSync(Path.join(Os.tmpdir(), "tpg-"))),
  (dir) => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true }))
)

export const frame = (type: string, body: string): Buffer => {
  const payload = Buffer.from(body)
  const header = Buffer.alloc(5)
  header.write(type, 0, "latin1")
  header.writeInt32BE(payload.length + 4, 1)
  return Buffer.concat([header, payload])
}

/** A simple-protocol query. */
export const simpleQuery = (sql: string): Buffer => frame("Q", `${sql}\0`)

export const startupMessage = (): Buffer => {
  const body = Buffer.from("user\0postgres\0database\0postgres\0\0")
  const header = Buffer.alloc(8)
  header.writeInt32BE(body.length + 8, 0)
  header.writeInt32BE(196608, 4)
  return Buffer.concat([header, body])
}

/** What a raw connection received and has not read yet, kept from the moment it connects. */
interface Inbox {
  buffer: Buffer
  closed: boolean
  notify: (() => void) | undefined
}

const inboxes = new WeakMap<Net.Socket, Inbox>()

export const connectRaw = (path: string) =>
  Effect.acquireRelease(
    Effect.callback<Net.Socket>((resume) => {
      const socket = Net.connect({ path }, () => resume(Effect.succeed(socket)))
      const inbox: Inbox = { buffer: Buffer.alloc(0), closed: false, notify: undefined }
      inboxes.set(socket, inbox)
      socket.on("data", (chunk) => {
        inbox.buffer = Buffer.concat([inbox.buffer, chunk])
        inbox.notify?.()
      })
      socket.on("error", () => {})
      socket.on("close", () => {
        inbox.closed = true
        inbox.notify?.()
      })
    }),
    (socket) => Effect.sync(() => socket.destroy())
  )

/** The server's reply: its errors (severity, SQLSTATE, message) and next ReadyForQuery status, or that it closed. */
export interface Reply {
  readonly errors: ReadonlyArray<{ readonly severity: string; readonly code: string; readonly message: string }>
  readonly status: string | undefined
  readonly closed: boolean
}

const fieldsOf = (body: Buffer) => {
  const fields = new Map<string, string>()
  let offset = 0
  while (offset < body.length && body[offset] !== 0) {
    const end = body.indexOf(0, offset + 1)
    fields.set(String.fromCharCode(body[offset]!), body.toString("utf8", offset + 1, end))
    offset = end + 1
  }
  return { severity: fields.get("V") ?? "", code: fields.get("C") ?? "", message: fields.get("M") ?? "" }
}

/**
 * Writes raw frontend bytes (if any) and reads what arrived since the last read until the next
 * ReadyForQuery, or until the server closed the connection.
 */
export const reply = (socket: Net.Socket, bytes?: Buffer) =>
  Effect.callback<Reply>((resume) => {
    const inbox = inboxes.get(socket)!
    const errors: Array<Reply["errors"][number]> = []
    const read = () => {
      while (inbox.buffer.length >= 5 && inbox.buffer.length >= 1 + inbox.buffer.readInt32BE(1)) {
        const type = String.fromCharCode(inbox.buffer[0]!)
        const body = inbox.buffer.subarray(5, 1 + inbox.buffer.readInt32BE(1))
        inbox.buffer = inbox.buffer.subarray(1 + inbox.buffer.readInt32BE(1))
        if (type === "E") errors.push(fieldsOf(body))
        if (type === "Z") return done({ errors, status: String.fromCharCode(body[0]!), closed: false })
      }
      if (inbox.closed) done({ errors, status: undefined, closed: true })
    }
    const done = (result: Reply) => {
      inbox.notify = undefined
      resume(Effect.succeed(result))
    }
    inbox.notify = read
    if (bytes !== undefined) socket.write(bytes)
    read()
    return Effect.sync(() => {
      inbox.notify = undefined
    })
  })

/** Writes raw frontend bytes and resolves with the status of the next ReadyForQuery. */
export const exchange = (socket: Net.Socket, bytes: Buffer) =>
  Effect.map(reply(socket, bytes), (answer) => answer.status ?? "closed")

/** A raw connection that sent its startup message and was told the session is idle. */
export const rawSession = Effect.fnUntraced(function* (path: string) {
  const socket = yield* connectRaw(path)
  assert.strictEqual(yield* exchange(socket, startupMessage()), "I")
  return socket
})
