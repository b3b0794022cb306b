import type { DeliveryOutcome, EmailDigest } from "@tenders/core"
import { Effect, Predicate } from "effect"
import nodemailer, { type SendMailOptions } from "nodemailer"
import { randomBytes } from "node:crypto"
import { mkdir, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { renderDigest } from "./DigestFormat.ts"

/** Options of the e-mail sender: SMTP when `smtpUrl` is set, else `.eml` files in `outboxDir`. */
export interface EmailSenderOptions {
  readonly smtpUrl: string | null
  readonly from: string
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

const messageFor = (from: string, digest: EmailDigest): SendMailOptions => {
  const { subject, text, html } = renderDigest(digest)
  return { from, to: digest.to, subject, text, html }
}

/** Builds the e-mail digest sender: one message per digest, never failing (the outcome says what happened). */
export const makeEmailSender = (
  options: EmailSenderOptions
): ((digest: EmailDigest) => Effect.Effect<DeliveryOutcome>) => {
  if (options.smtpUrl !== null) {
    const transport = nodemailer.createTransport({
      url: options.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000
    })
    return (digest) =>
      Effect.tryPromise({
        try: () => transport.sendMail(messageFor(options.from, digest)),
        catch: classifySmtpError
      }).pipe(
        Effect.as(delivered),
        Effect.catch((outcome) => Effect.succeed(outcome))
      )
  }
  const outbox = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "windows" })
  return (digest) =>
    Effect.tryPromise({
      try: async () => {
        const info = await outbox.sendMail(messageFor(options.from, digest))
        await mkdir(options.outboxDir, { recursive: true })
        const file = join(options.outboxDir, outboxFileName(new Date()))
        await writeFile(file, info.message, { flag: "wx" })
      },
      catch: (error): DeliveryOutcome => ({ _tag: "Retry", reason: `outbox: ${errorMessage(error)}` })
    }).pipe(
      Effect.as(delivered),
      Effect.catch((outcome) => Effect.succeed(outcome))
    )
}
