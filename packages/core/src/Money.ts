import { BigDecimal, Option, Schema } from "effect"

const decimalPattern = /^-?\d+(\.\d+)?$/u

/** A decimal amount as the wire carries it: `^-?\d+(\.\d+)?$`, never an exponent. */
export const DecimalString = Schema.String.check(Schema.isPattern(decimalPattern))
export type DecimalString = typeof DecimalString.Type

/** Formats a BigDecimal as a plain decimal string (no exponent, no trailing zeros beyond the scale). */
export const formatDecimal = (value: BigDecimal.BigDecimal): DecimalString => {
  const normalized = BigDecimal.normalize(value)
  const negative = normalized.value < 0n
  const digits = (negative ? -normalized.value : normalized.value).toString()
  const scale = normalized.scale
  let out: string
  if (scale <= 0) {
    out = digits + "0".repeat(-scale)
  } else if (digits.length > scale) {
    out = `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`
  } else {
    out = `0.${"0".repeat(scale - digits.length)}${digits}`
  }
  return negative && out !== "0" ? `-${out}` : out
}

/** Parses a decimal string; `None` for anything that is not a plain decimal. */
export const parseDecimal = (input: string): Option.Option<BigDecimal.BigDecimal> =>
  decimalPattern.test(input) ? BigDecimal.fromString(input) : Option.none()

/** Converts a finite JS number (from JSON input) to a BigDecimal without binary artefacts. */
export const decimalFromNumber = (n: number): BigDecimal.BigDecimal =>
  BigDecimal.fromStringUnsafe(numberToPlainString(n))

const numberToPlainString = (n: number): string => {
  const text = String(n)
  if (!/e/i.test(text)) return text
  const [mantissa, exponentText] = text.toLowerCase().split("e") as [string, string]
  const exponent = Number(exponentText)
  const negative = mantissa.startsWith("-")
  const [intPart, fracPart = ""] = mantissa.replace("-", "").split(".") as [string, string?]
  const digits = intPart + fracPart
  const point = intPart.length + exponent
  const plain =
    point <= 0
      ? `0.${"0".repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + "0".repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`
  return negative ? `-${plain}` : plain
}
