import { Result, Schema } from "effect"
import { parseHostName } from "./HostName.ts"
import { labelProblem } from "./Text.ts"

/** RFC 5321's sizes: a path of at most 254 octets (256 with its angle brackets), 64 of them before the `@`. */
export const emailLimits = { total: 254, localPart: 64 } as const

/** An e-mail address that passed `parseEmailAddress`, in its normal form: one mailbox, safe in a `To:` header. */
export const EmailAddress = Schema.String.pipe(Schema.brand("EmailAddress"))
export type EmailAddress = typeof EmailAddress.Type

// RFC 5322 atext, and (RFC 6531) letters, marks and digits of any script; a dot only between two of them. No quoted
// local part, comment, display name, route, group or list: nothing a mail transport could read as more than one
// mailbox or as another header.
const localPart = /^[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u
const octets = (text: string) => new TextEncoder().encode(text).length

/**
 * The one rule for an e-mail address, wherever one enters (dashboard sign-in, CLI, accounts) and before any mail is
 * sent: surrounding spaces dropped; no control, format or bidirectional character; exactly one `@`; a dot-atom local
 * part of at most 64 octets; a domain that is a host name of two labels or more (IDN as A-labels); at most 254
 * octets in all. The normal form is in lower case (addresses are matched case-insensitively, as mail providers do).
 */
export const parseEmailAddress = (text: string): Result.Result<EmailAddress, string> => {
  const trimmed = text.trim()
  const shown = JSON.stringify(trimmed.length > 80 ? `${trimmed.slice(0, 80)}…` : trimmed)
  const refused = (why: string) => Result.fail(`${shown} is not an e-mail address: ${why}`)
  // UTF-8 takes at least one octet for each UTF-16 unit: a longer text is refused before it is read.
  if (trimmed.length > emailLimits.total) return refused(`it is longer than ${emailLimits.total} octets`)
  const characters = labelProblem(trimmed)
  if (characters !== undefined) return refused(`it ${characters}`)
  const at = trimmed.indexOf("@")
  if (at < 0 || trimmed.indexOf("@", at + 1) >= 0) return refused("give one address, with one @")
  const local = trimmed.slice(0, at).toLowerCase()
  if (!localPart.test(local)) return refused("the part before @ has a character an address cannot have")
  if (octets(local) > emailLimits.localPart) {
    return refused(`the part before @ is longer than ${emailLimits.localPart} octets`)
  }
  const domain = parseHostName(trimmed.slice(at + 1), { singleLabel: false })
  if (Result.isFailure(domain) || domain.success.startsWith("[") || /^[\d.]+$/u.test(domain.success)) {
    return refused("the part after @ is not a domain name")
  }
  const address = `${local}@${domain.success}`
  if (octets(address) > emailLimits.total) return refused(`it is longer than ${emailLimits.total} octets`)
  return Result.succeed(EmailAddress.make(address))
}

/** Why an e-mail address is refused, or undefined. */
export const emailProblem = (text: string): string | undefined =>
  Result.match(parseEmailAddress(text), { onFailure: (problem) => problem, onSuccess: () => undefined })
