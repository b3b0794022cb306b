/** ISO 3166-1 alpha-3 -> alpha-2 for the countries TED notices name (EU, EEA, candidates, neighbours, frequent others). */
export const alpha3ToAlpha2: ReadonlyMap<string, string> = new Map([
  // EU member states
  ["AUT", "AT"], ["BEL", "BE"], ["BGR", "BG"], ["HRV", "HR"], ["CYP", "CY"], ["CZE", "CZ"], ["DNK", "DK"],
  ["EST", "EE"], ["FIN", "FI"], ["FRA", "FR"], ["DEU", "DE"], ["GRC", "GR"], ["HUN", "HU"], ["IRL", "IE"],
  ["ITA", "IT"], ["LVA", "LV"], ["LTU", "LT"], ["LUX", "LU"], ["MLT", "MT"], ["NLD", "NL"], ["POL", "PL"],
  ["PRT", "PT"], ["ROU", "RO"], ["SVK", "SK"], ["SVN", "SI"], ["ESP", "ES"], ["SWE", "SE"],
  // EEA / EFTA, UK and European microstates
  ["ISL", "IS"], ["LIE", "LI"], ["NOR", "NO"], ["CHE", "CH"], ["GBR", "GB"], ["AND", "AD"], ["MCO", "MC"],
  ["SMR", "SM"], ["VAT", "VA"], ["GIB", "GI"], ["FRO", "FO"], ["GRL", "GL"],
  // candidates and neighbours
  ["ALB", "AL"], ["BIH", "BA"], ["MKD", "MK"], ["MNE", "ME"], ["SRB", "RS"], ["XKX", "XK"], ["TUR", "TR"],
  ["MDA", "MD"], ["UKR", "UA"], ["GEO", "GE"], ["ARM", "AM"], ["AZE", "AZ"], ["BLR", "BY"], ["RUS", "RU"],
  // French overseas departments (sometimes given instead of FRA)
  ["GUF", "GF"], ["GLP", "GP"], ["MTQ", "MQ"], ["REU", "RE"], ["MYT", "YT"],
  // frequent non-European buyers/places (EU delegations, development aid)
  ["USA", "US"], ["CAN", "CA"], ["MEX", "MX"], ["BRA", "BR"], ["ARG", "AR"], ["CHL", "CL"], ["COL", "CO"],
  ["PER", "PE"], ["CHN", "CN"], ["JPN", "JP"], ["KOR", "KR"], ["IND", "IN"], ["PAK", "PK"], ["BGD", "BD"],
  ["AUS", "AU"], ["NZL", "NZ"], ["ISR", "IL"], ["PSE", "PS"], ["JOR", "JO"], ["LBN", "LB"], ["SYR", "SY"],
  ["IRQ", "IQ"], ["EGY", "EG"], ["MAR", "MA"], ["DZA", "DZ"], ["TUN", "TN"], ["LBY", "LY"], ["ZAF", "ZA"],
  ["KEN", "KE"], ["ETH", "ET"], ["NGA", "NG"], ["SEN", "SN"], ["GHA", "GH"], ["UGA", "UG"], ["TZA", "TZ"],
  ["KAZ", "KZ"], ["UZB", "UZ"], ["KGZ", "KG"], ["TJK", "TJ"], ["AFG", "AF"], ["ARE", "AE"], ["SAU", "SA"]
])

/** Alpha-2 for a TED country code: alpha-3 via the table, a valid alpha-2 as is, anything else null. */
export const toAlpha2 = (code: string): string | null => {
  const upper = code.trim().toUpperCase()
  if (/^[A-Z]{2}$/u.test(upper)) return upper
  return alpha3ToAlpha2.get(upper) ?? null
}
