/**
 * A title template as the tables write it: `text`, `text|codes` or `text|codes|kind`. `{name}` fills in a value of
 * the context; `codes` (comma-separated) override the topic's classification, main code first; a template may be
 * split into lots when it has no codes or they end in `*`; `kind` overrides the topic's procurement kind.
 */
export interface Template {
  readonly text: string
  readonly codes: ReadonlyArray<string> | null
  readonly kind: string | undefined
  readonly lots: boolean
}

export const parseTemplate = (template: string): Template => {
  const [text = "", codes, kind] = template.split("|")
  return {
    text,
    codes: codes ? codes.replace(/\*$/u, "").split(",") : null,
    kind,
    lots: !codes || codes.endsWith("*")
  }
}

/** Values a template can name; a function is called only when a chosen template uses it. */
export type Context = Readonly<Record<string, string | number | (() => string) | undefined>>

const tokensOf = (text: string) => [...text.matchAll(/\{(\w+)\}/gu)].map((m) => m[1] ?? "")

/** Whether every `{name}` of the text has a value. */
export const canFill = (text: string, context: Context): boolean =>
  tokensOf(text).every((t) => context[t] !== undefined)

/** Whether the text names nothing but the given values. */
export const namesOnly = (text: string, names: ReadonlyArray<string>): boolean =>
  tokensOf(text).every((t) => names.includes(t))

export const fill = (template: string, context: Context): string =>
  template.replace(/\{(\w+)\}/gu, (_, key: string) => {
    const v = context[key]
    if (v === undefined) throw new Error(`no value for {${key}} in "${template}"`)
    return typeof v === "function" ? v() : String(v)
  })

export const lowerFirst = (s: string): string =>
  /^[A-Za-z0-9]/u.test(s) ? s : s.charAt(0).toLocaleLowerCase("hy") + s.slice(1)

export const unique = <T>(xs: ReadonlyArray<T>): Array<T> => [...new Set(xs)]
