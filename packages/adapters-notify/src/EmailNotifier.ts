import type { Notifier } from "@tenders/core"
import { renderDigest } from "./DigestFormat.ts"
import { makeMailTransport } from "./MailTransport.ts"
import { renderSignIn } from "./SignInFormat.ts"

/** Options of the e-mail senders: SMTP when `smtpUrl` is set, else `.eml` files in `outboxDir`. */
export interface EmailSenderOptions {
  readonly smtpUrl: string | null
  readonly from: string
  readonly outboxDir: string
}

/** Builds the Notifier's e-mail channels (alert digests, sign-in links) over one mail transport. */
export const makeEmailSender = (options: EmailSenderOptions): Pick<Notifier["Service"], "sendEmail" | "sendSignIn"> => {
  const send = makeMailTransport(options)
  return {
    sendEmail: (digest) => send({ from: options.from, to: digest.to, ...renderDigest(digest) }),
    sendSignIn: (message) => send({ from: options.from, to: message.to, ...renderSignIn(message) })
  }
}
