import { html, linkedUrl, russianPlural, type SignInMessage, type UiLanguage } from "@tenders/core"

/** The rendered parts of one sign-in e-mail. */
export interface RenderedSignIn {
  readonly subject: string
  readonly text: string
  readonly html: string
}

/** The wording of the message in one language; the link goes between `open` and `validity`. */
interface SignInCopy {
  readonly subject: string
  readonly greeting: string
  readonly open: string
  readonly validity: (minutes: number) => string
  readonly ignore: string
}

const copies: Record<UiLanguage, SignInCopy> = {
  en: {
    subject: "Sign in to Tenders",
    greeting: "Hello,",
    open: "To sign in to Tenders, open this link:",
    validity: (minutes) => `The link works once, within the next ${minutes} ${minutes === 1 ? "minute" : "minutes"}.`,
    ignore: "If you did not ask to sign in, you can ignore this e-mail."
  },
  ru: {
    subject: "Вход в Tenders",
    greeting: "Здравствуйте!",
    open: "Чтобы войти в Tenders, откройте эту ссылку:",
    // "в течение" takes the genitive: 1, 21, 31 минуты; 2, 5, 11 минут.
    validity: (minutes) =>
      `Ссылкой можно воспользоваться один раз в течение ${minutes} ` +
      `${russianPlural(minutes, "минуты", "минут", "минут")}.`,
    ignore: "Если вы не запрашивали вход, просто проигнорируйте это письмо."
  },
  hy: {
    subject: "Մուտք Tenders համակարգ",
    greeting: "Բարև Ձեզ։",
    open: "Tenders համակարգ մուտք գործելու համար բացեք հետևյալ հղումը։",
    // A noun after a numeral stays singular in Armenian.
    validity: (minutes) => `Հղումը կարող եք օգտագործել մեկ անգամ՝ առաջիկա ${minutes} րոպեի ընթացքում։`,
    ignore: "Եթե Դուք չեք խնդրել այս հղումը, պարզապես անտեսեք այս նամակը։"
  }
}

// The markup is written as it is sent, one element a line (prettier would reflow it).
// prettier-ignore
const htmlPart = (message: SignInMessage, copy: SignInCopy, validity: string) => html`<!doctype html>
<html lang="${message.language}"><head><meta charset="utf-8"><title>${copy.subject}</title></head><body>
<p>${copy.greeting}</p>
<p>${copy.open}</p>
<p>${linkedUrl(message.url)}</p>
<p>${validity}</p>
<p>${copy.ignore}</p>
</body></html>
`

/** Renders a sign-in link in the message's language as subject, plain text and HTML (the URL escaped by `html`). */
export const renderSignIn = (message: SignInMessage): RenderedSignIn => {
  const copy = copies[message.language]
  const validity = copy.validity(message.minutes)
  const text = `${[copy.greeting, copy.open, message.url, validity, copy.ignore].join("\n\n")}\n`
  return { subject: copy.subject, text, html: htmlPart(message, copy, validity).markup }
}
