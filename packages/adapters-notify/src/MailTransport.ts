import { type DeliveryOutcome, parseEmailAddress } from "@tenders/core"
import { Effect, Predicate, Result } from "effect"
import nodemailer from "nodemailer"
import { randomBytes } from "node:crypto"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"

/** One e-mail: the same content as plain text and as HTML. */
export interface OutgoingMail {
  readonly from: string
  readonly to: string
  readonly subject: string
  readonly text: string
  readonly html: string
}

/** Where mail goes: SMTP when `smtpUrl` is set, else `.eml` files in `outboxDir`. */
export interface MailTransportOptions {
  readonly smtpUrl: string | null
  readonly outboxDir: string
}

const delivered: DeliveryOutcome = { _tag: "Delivered" }

const errorMessage = (error: unknown): string =>
  Predicate.hasProperty(error, "message") && Predicate.isString(error.message) ? error.message : String(error)

/** Classifies an SMTP send failure: 4xx and connection problems are temporary, 5xx permanent. */
export const classifySmtpError = (error: unknown): DeliveryOutcome => {
  const reason = `SMTP: ${errorMessage(error)}`
  if (Predicate.hasProperty(error, "responseCode") && Predicate.isNumber(error.responseCode)) {
    const code = error.responseCode
    if (code >= 500 && code < 600) return { _tag: "Failed", reason, disable: false }
    return { _tag: "Retry", reason }
  }
  if (Predicate.hasProperty(error, "code") && (error.code === "EENVELOPE" || error.code === "EMESSAGE")) {
    return { _tag: "Failed", reason, disable: false }
  }
  return { _tag: "Retry", reason }
}

const outboxFileName = (now: Date): string =>
  `${now.toISOString().replaceAll(":", "-")}-${randomBytes(6).toString("hex")}.eml`

/** One message as nodemailer takes it: a single recipient, named as an address (never a list to parse). */
type Envelope = Omit<OutgoingMail, "to"> & {
  readonly to: { readonly name: string; readonly address: string }
  readonly envelope: { readonly from: string; readonly to: ReadonlyArray<string> }
}

/** The bare address of a `From` (`Tenders <alerts@example.org>` → `alerts@example.org`), for the SMTP envelope. */
const envelopeFrom = (from: string): string => /<([^<>]*)>\s*$/u.exec(from)?.[1] ?? from.trim()

const viaSmtp = (smtpUrl: string) => {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000
  })
  return (mail: Envelope): Effect.Effect<unknown, DeliveryOutcome> =>
    Effect.tryPromise({
      try: () => transport.sendMail({ ...mail, envelope: { ...mail.envelope, to: [...mail.envelope.to] } }),
      catch: classifySmtpError
    })
}

const viaOutbox = (outboxDir: string) => {
  const outbox = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" })
  return (mail: Envelope): Effect.Effect<unknown, DeliveryOutcome> =>
    Effect.tryPromise({
      try: async () => {
        const info = await outbox.sendMail({ ...mail, envelope: { ...mail.envelope, to: [...mail.envelope.to] } })
        await mkdir(outboxDir, { recursive: true })
        await writeFile(join(outboxDir, outboxFileName(new Date())), info.message, { flag: "wx" })
      },
      catch: (error): DeliveryOutcome => ({ _tag: "Retry", reason: `outbox: ${errorMessage(error)}` })
    })
}

/**
 * Builds the mail sender: one message per call to one recipient, never failing (the outcome says what happened). The
 * recipient must pass core's address rule again here, whatever stored it: a text holding a list of addresses or a
 * header is refused, not sent, and the SMTP envelope names the one address alone.
 */
export const makeMailTransport = (
  options: MailTransportOptions
): ((mail: OutgoingMail) => Effect.Effect<DeliveryOutcome>) => {
  const send = options.smtpUrl !== null ? viaSmtp(options.smtpUrl) : viaOutbox(options.outboxDir)
  return (mail) => {
    const to = parseEmailAddress(mail.to)
    if (Result.isFailure(to)) {
      return Effect.succeed({ _tag: "Failed", reason: `not sent: the recipient ${to.failure}`, disable: false })
    }
    const envelope = { from: envelopeFrom(mail.from), to: [to.success] }
    return send({ ...mail, to: { name: "", address: to.success }, envelope }).pipe(
      Effect.as(delivered),
      Effect.catch((outcome) => Effect.succeed(outcome))
    )
  }
}
