// OKPD2 codes as the search reads them: a code's term, its levels (a tender under a code is under each of them), and
// the CPV prefixes a level spans through the crosswalk (what a query for the level asks for).

/** The term of an OKPD2 code or level (dotted, as OKPD2 writes it). */
export const okpd2Term = (code: string): string => `okpd:${code}`

/**
 * Every level of an OKPD2 code, broadest first: its prefixes (`42.11.20.000` -> 42, 42.1, 42.11, 42.11.2, 42.11.20,
 * 42.11.20.0, ...), and for a subcategory its category, as OKPD2 nests them (`21.20.10.232`, analgesics, is in
 * `21.20.10.230`, medicines for the nervous system).
 */
export const okpd2Levels = (code: string): ReadonlyArray<string> => {
  const levels: Array<string> = []
  for (let n = 2; n <= code.length; n++) {
    const prefix = code.slice(0, n)
    if (/\d$/u.test(prefix)) levels.push(prefix)
  }
  if (/^\d\d\.\d\d\.\d\d\.\d\d[1-9]$/u.test(code)) levels.splice(levels.length - 1, 0, `${code.slice(0, 11)}0`)
  return levels
}

/**
 * The CPV prefixes whose tenders each OKPD2 level (typed in a query) spans through the crosswalk: those linked to a
 * code at or under the level. A tender holds every prefix of its CPV codes (and of those its OKPD2 codes link to),
 * so it matches one of them exactly when it would hold the level had the crosswalk been applied to it; a prefix
 * under another of the list adds nothing and is left out.
 */
export const cpvSpannedByLevel = (
  cpvToOkpd2: ReadonlyMap<string, ReadonlyArray<string>>
): ReadonlyMap<string, ReadonlyArray<string>> => {
  const spanned = new Map<string, Array<string>>()
  for (const [prefix, codes] of cpvToOkpd2)
    for (const level of new Set(codes.flatMap(okpd2Levels))) {
      const list = spanned.get(level)
      if (list === undefined) spanned.set(level, [prefix])
      else list.push(prefix)
    }
  for (const [level, prefixes] of spanned)
    spanned.set(
      level,
      prefixes.filter((p) => !prefixes.some((q) => q !== p && p.startsWith(q)))
    )
  return spanned
}
