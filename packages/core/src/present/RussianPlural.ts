const rules = new Intl.PluralRules("ru")

/** The form of a Russian noun after the number `n`: one (1, 21), few (2-4, 22-24), many (5-20, 25...), other. */
export const russianPlural = (n: number, one: string, few: string, many: string): string => {
  const form = rules.select(n)
  return form === "one" ? one : form === "few" ? few : many
}
