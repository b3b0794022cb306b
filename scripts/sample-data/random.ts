/** The seeded source of every choice the sample generator makes: the same seed gives the same data. */
export interface Random {
  /** A float in [0, 1). */
  readonly next: () => number
  /** An integer from `lo` to `hi`, both included. */
  readonly int: (lo: number, hi: number) => number
  /** One element; draws even from an empty list (then `undefined`). */
  readonly pickOrUndefined: <T>(xs: ReadonlyArray<T>) => T | undefined
  /** One element of a non-empty list. */
  readonly pick: <T>(xs: ReadonlyArray<T>) => T
  readonly chance: (p: number) => boolean
  readonly shuffle: <T>(xs: ReadonlyArray<T>) => Array<T>
  /** `n` distinct elements in random order. */
  readonly sample: <T>(xs: ReadonlyArray<T>, n: number) => Array<T>
  /** One item, each as likely as its weight. */
  readonly weighted: <T>(pairs: ReadonlyArray<readonly [T, number]>) => T
  readonly hex: (n: number, upper?: boolean) => string
  /** `n` characters of `alphabet`. */
  readonly alnum: (n: number, alphabet: string) => string
  /** `n` decimal digits, the first not 0. */
  readonly digits: (n: number) => string
  /** A version 4 UUID. */
  readonly uuid: () => string
}

/** A `Random` over the mulberry32 generator. */
export const makeRandom = (seed: number): Random => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1))
  const pickOrUndefined = <T>(xs: ReadonlyArray<T>): T | undefined => xs[Math.floor(next() * xs.length)]
  const pick = <T>(xs: ReadonlyArray<T>): T => {
    const x = pickOrUndefined(xs)
    if (x === undefined) throw new Error("cannot pick from an empty list")
    return x
  }
  const shuffle = <T>(xs: ReadonlyArray<T>): Array<T> => {
    const a = [...xs]
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1))
      ;[a[i], a[j]] = [a[j], a[i]]
    }
    return a
  }
  const weighted = <T>(pairs: ReadonlyArray<readonly [T, number]>): T => {
    const total = pairs.reduce((s, [, w]) => s + w, 0)
    let r = next() * total
    for (const [item, w] of pairs) {
      r -= w
      if (r < 0) return item
    }
    const last = pairs.at(-1)
    if (last === undefined) throw new Error("cannot choose from no items")
    return last[0]
  }
  const chars = (n: number, alphabet: string) => {
    let s = ""
    for (let i = 0; i < n; i++) s += alphabet[int(0, alphabet.length - 1)]
    return s
  }
  const hex = (n: number, upper = false) => {
    const s = chars(n, "0123456789abcdef")
    return upper ? s.toUpperCase() : s
  }
  const digits = (n: number) => {
    let s = String(int(1, 9))
    for (let i = 1; i < n; i++) s += String(int(0, 9))
    return s
  }
  return {
    next,
    int,
    pickOrUndefined,
    pick,
    chance: (p) => next() < p,
    shuffle,
    sample: (xs, n) => shuffle(xs).slice(0, n),
    weighted,
    hex,
    alnum: chars,
    digits,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`
  }
}
