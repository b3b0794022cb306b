// Reading the messages the notifier writes (tests of this package and end-to-end tests of the server).

/** Decodes the quoted-printable soft breaks and escapes of a raw message, good enough for assertions. */
export const decodeQuotedPrintable = (raw: string): string =>
  Buffer.from(
    raw
      .replaceAll(/=\r?\n/gu, "")
      .replaceAll(/=([0-9A-F]{2})/gu, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    "latin1"
  ).toString("utf8")

/** The decoded `Subject:` header of a raw message (unfolds lines, decodes RFC 2047 Q/B words). */
export const subjectOf = (raw: string): string => {
  const match = /^Subject: (.*(?:\r?\n[ \t].*)*)/imu.exec(raw)
  if (match === null) return ""
  const unfolded = (match[1] ?? "").replaceAll(/\?=\r?\n[ \t]+=\?/gu, "?==?").replaceAll(/\r?\n[ \t]+/gu, " ")
  return unfolded.replaceAll(
    /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/gu,
    (_m, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === "B"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replaceAll("_", " "))
  )
}

/** The decoded body of the `text/plain` or `text/html` part of a raw message (quoted-printable, base64 or 7bit). */
export const partOf = (raw: string, type: "text/plain" | "text/html"): string => {
  const start = raw.indexOf(`Content-Type: ${type}`)
  if (start < 0) return ""
  const [headers = "", ...rest] = raw.slice(start).split(/\r?\n\r?\n/u)
  const body = rest.join("\r\n\r\n").split(/\r?\n--/u)[0] ?? ""
  const encoding = /^Content-Transfer-Encoding: (\S+)/imu.exec(headers)?.[1]?.toLowerCase()
  if (encoding === "base64") return Buffer.from(body.replaceAll(/\s+/gu, ""), "base64").toString("utf8")
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body)
  return body
}
