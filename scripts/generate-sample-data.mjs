#!/usr/bin/env node
// Writes packages/cli/data/sample-tenders.jsonl: the bundled sample dataset (synthetic notices
// modelled on real ones from TED, gnumner.minfin.am/ARMEPS and zakupki.gov.ru).
// Deterministic: a seeded PRNG and a fixed anchor instant, so every run writes the same bytes.
// No dependencies; reads nothing. Usage: node scripts/generate-sample-data.mjs [--check]
const ANCHOR = "2026-11-21T00:00:00Z"
const SEED = 0x7e4d2611

import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "cli", "data", "sample-tenders.jsonl")

// ---------------------------------------------------------------- randomness
function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
const rand = mulberry32(SEED)
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1))
const pick = (xs) => xs[Math.floor(rand() * xs.length)]
const chance = (p) => rand() < p
const shuffle = (xs) => {
  const a = [...xs]
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[a[i], a[j]] = [a[j], a[i]]
  }
  return a
}
const weighted = (pairs) => {
  const total = pairs.reduce((s, [, w]) => s + w, 0)
  let r = rand() * total
  for (const [item, w] of pairs) {
    r -= w
    if (r < 0) return item
  }
  return pairs[pairs.length - 1][0]
}
const sample = (xs, n) => shuffle(xs).slice(0, n)
const hex = (n, upper = false) => {
  let s = ""
  for (let i = 0; i < n; i++) s += "0123456789abcdef"[int(0, 15)]
  return upper ? s.toUpperCase() : s
}
const alnum = (n, alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") => {
  let s = ""
  for (let i = 0; i < n; i++) s += alphabet[int(0, alphabet.length - 1)]
  return s
}
const digits = (n) => {
  let s = String(int(1, 9))
  for (let i = 1; i < n; i++) s += String(int(0, 9))
  return s
}
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`

// ---------------------------------------------------------------- time
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
const A = Date.parse(ANCHOR)
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z")
const weekday = (dayMs) => new Date(dayMs).getUTCDay()
// EU summer time: last Sunday of March 01:00Z to last Sunday of October 01:00Z.
const lastSunday = (y, m) => {
  const last = new Date(Date.UTC(y, m + 1, 0))
  return Date.UTC(y, m, last.getUTCDate() - last.getUTCDay(), 1)
}
const euZone = (base) => (ms) => {
  const y = new Date(ms).getUTCFullYear()
  return base + (ms >= lastSunday(y, 2) && ms < lastSunday(y, 9) ? 60 : 0)
}
const fixedZone = (minutes) => () => minutes
const ZONE = { WET: euZone(0), CET: euZone(60), EET: euZone(120), ATL: fixedZone(0) }
// Local wall-clock time on the calendar date `dayOffset` days after the anchor date, as UTC ms.
const localToUtc = (dayOffset, hms, zone) => {
  const [h, m, s] = hms
  const local = A + dayOffset * DAY + h * HOUR + m * MIN + s * 1000
  const first = local - zone(local) * MIN
  return local - zone(first) * MIN
}
const hms = (text) => {
  const [h, m, s = "0"] = text.split(":")
  return [Number(h), Number(m), Number(s)]
}

// ---------------------------------------------------------------- money
// Amounts are integers in the smallest written unit (cents, or whole units for `dp: 0`).
const fmtAmount = (units, dp) => {
  if (dp === 0) return String(units)
  const s = String(units).padStart(dp + 1, "0")
  return `${s.slice(0, -dp)}.${s.slice(-dp)}`
}
const round3 = (x) => {
  const p = 10 ** Math.max(0, Math.floor(Math.log10(x)) - 2)
  return Math.round(x / p) * p
}
// A plausible estimated value around `major` (in currency units): round, net of VAT, or odd.
const niceAmount = (major, dp, vat, style) => {
  const scale = dp === 0 ? 1 : 100
  if (style === "round") return Math.round(round3(major)) * scale
  if (style === "round4") return Math.round(round3(major * 10) / 10) * scale
  if (style === "net") return Math.round((round3(major * (1 + vat)) / (1 + vat)) * scale)
  return Math.round(major * scale)
}
const logUniform = (lo, hi) => Math.exp(Math.log(lo) + rand() * (Math.log(hi) - Math.log(lo)))
// Split `major` into n lot values that sum exactly to the returned total.
const splitAmounts = (major, n, dp, vat, style) => {
  const w = Array.from({ length: n }, () => 0.4 + rand() * 1.6)
  const sw = w.reduce((s, x) => s + x, 0)
  const parts = w.map((x) => Math.max(niceAmount((major * x) / sw, dp, vat, style), dp === 0 ? 1000 : 100000))
  return { parts, total: parts.reduce((s, x) => s + x, 0) }
}

// ---------------------------------------------------------------- text helpers
const fill = (template, ctx) =>
  template.replace(/\{(\w+)\}/g, (_, key) => {
    const v = ctx[key]
    if (v === undefined) throw new Error(`no value for {${key}} in "${template}"`)
    return typeof v === "function" ? v() : String(v)
  })
// "text|cpv" or "text|okpd,okpd" -> { text, codes }
const splitTpl = (tpl) => {
  const [text, codes, kind] = tpl.split("|")
  const lots = !codes || codes.endsWith("*")
  return { text, codes: codes ? codes.replace(/\*$/, "").split(",") : null, kind, lots }
}
const lowerFirst = (s) => (/^[A-Za-z0-9]/.test(s) ? s : s.charAt(0).toLocaleLowerCase("hy") + s.slice(1))
const uniq = (xs) => [...new Set(xs)]

// ---------------------------------------------------------------- CPV (8 digits, no check digit)
// English labels as TED prints them in the generated notice title ("Country – CPV label – title").
const CPV = {
  "03211300": "Rice",
  "03211900": "Grain products",
  "03221000": "Vegetables",
  "03222000": "Fruit and nuts",
  "09100000": "Fuels",
  "09123000": "Natural gas",
  "09132100": "Unleaded petrol",
  "09133000": "Liquefied Petroleum Gas (LPG)",
  "09134100": "Diesel oil",
  "09135100": "Heating oil",
  "09310000": "Electricity",
  "09332000": "Solar installation",
  15000000: "Food, beverages, tobacco and related products",
  15110000: "Meat",
  15111100: "Beef",
  15112130: "Chickens",
  15300000: "Fruit, vegetables and related products",
  15500000: "Dairy products",
  15511000: "Milk",
  15800000: "Miscellaneous food products",
  15811100: "Bread",
  18424300: "Disposable gloves",
  22852000: "Folders",
  30125100: "Toner cartridges",
  30163100: "Agency fuel cards",
  30192121: "Ballpoint pens",
  30192700: "Stationery",
  30197630: "Printing paper",
  30213000: "Personal computers",
  30213100: "Portable computers",
  30213200: "Tablet computer",
  30213300: "Desktop computer",
  30231300: "Display screens",
  30232110: "Laser printers",
  30237200: "Computer accessories",
  31154000: "Uninterruptible power supplies",
  31158100: "Battery chargers",
  32420000: "Network equipment",
  33100000: "Medical equipments",
  33112000: "Echo, ultrasound and doppler imaging equipment",
  33140000: "Medical consumables",
  33141110: "Dressings",
  33141310: "Syringes",
  33600000: "Pharmaceutical products",
  33610000: "Medicinal products for the alimentary tract and metabolism",
  33615000: "Medicinal products for diabetes",
  33615100: "Insulin",
  33621000: "Medicinal products for the blood and blood-forming organs",
  33651000: "General anti-infectives for systemic use and vaccines",
  33651600: "Vaccines",
  33652000: "Antineoplastic and immunomodulating agents",
  33661000: "Medicinal products for the nervous system",
  33692000: "Medical solutions",
  33696500: "Laboratory reagents",
  34121000: "Town and suburban buses",
  34144511: "Refuse-collection vehicles",
  34144900: "Electric vehicles",
  34928500: "Street-lighting equipment",
  38652100: "Projectors",
  39130000: "Office furniture",
  39160000: "School furniture",
  45112700: "Landscaping work",
  45214200: "Construction work for school buildings",
  45221119: "Bridge renovation construction work",
  45223220: "Structural shell work",
  45232120: "Irrigation works",
  45232150: "Works related to water-distribution pipelines",
  45232410: "Sewerage work",
  45233140: "Roadworks",
  45233141: "Road-maintenance works",
  45233142: "Road-repair works",
  45233120: "Road construction works",
  45233161: "Footpath construction work",
  45233222: "Paving and asphalting works",
  45233290: "Installation of road signs",
  45261210: "Roof-covering work",
  45261420: "Waterproofing work",
  45310000: "Electrical installation work",
  45316110: "Installation of road lighting equipment",
  45331000: "Heating, ventilation and air-conditioning installation work",
  45331100: "Central-heating installation work",
  45421100: "Installation of doors and windows and related components",
  45421141: "Installation of partitioning",
  45442100: "Painting work",
  45453000: "Overhaul and refurbishment work",
  48000000: "Software package and information systems",
  48310000: "Document creation software package",
  48761000: "Anti-virus software package",
  48820000: "Servers",
  50112000: "Repair and maintenance services of cars",
  55320000: "Meal-serving services",
  55523100: "School-meal services",
  55524000: "School catering services",
  66510000: "Insurance services",
  66514110: "Motor vehicle insurance services",
  71221000: "Architectural services for buildings",
  71240000: "Architectural, engineering and planning services",
  71320000: "Engineering design services",
  72267000: "Software maintenance and repair services",
  77310000: "Planting and maintenance services of green areas",
  79713000: "Guard services",
  79810000: "Printing services",
  79995100: "Archiving services",
  90511000: "Refuse collection services",
  90513100: "Household-refuse disposal services",
  90514000: "Refuse recycling services",
  90620000: "Snow-clearing services",
  90910000: "Cleaning services",
  90911200: "Building-cleaning services",
  90911300: "Window-cleaning services",
  90919200: "Office cleaning services",
  90919300: "School cleaning services"
}

// Default main CPV per topic (a template may override it with "|code").
const TOPIC_CPV = {
  road: "45233140",
  school: "45214200",
  medicines: "33600000",
  it: "30213000",
  cleaning: "90910000",
  fuel: "09134100",
  waste: "90511000",
  catering: "55524000",
  meddev: "33140000",
  software: "48000000",
  buses: "34121000",
  lighting: "34928500",
  engineering: "71320000",
  guard: "79713000",
  winter: "90620000",
  green: "77310000",
  energy: "09310000",
  lab: "33696500"
}
const DEMO_TOPICS = new Set(["road", "school", "medicines", "it", "cleaning", "fuel"])
const TYPE_TOPICS = {
  city: {
    road: 4,
    school: 3,
    cleaning: 3,
    it: 2,
    fuel: 2,
    waste: 2,
    catering: 1,
    lighting: 1,
    winter: 1,
    green: 1,
    energy: 1,
    software: 1,
    engineering: 1,
    guard: 1
  },
  health: {
    medicines: 6,
    meddev: 3,
    lab: 2,
    cleaning: 2,
    it: 2,
    software: 1,
    catering: 1,
    energy: 1,
    guard: 1,
    engineering: 1
  },
  healthcentral: { medicines: 6, meddev: 2, lab: 1, it: 1 },
  uni: { it: 3, lab: 2, cleaning: 2, software: 2, energy: 1, guard: 1, engineering: 1, catering: 1 },
  roads: { road: 6, winter: 2, engineering: 2, lighting: 1, fuel: 1 },
  estate: { school: 5, cleaning: 3, energy: 1, engineering: 1, guard: 1 },
  transport: { buses: 4, fuel: 3, cleaning: 2, it: 1, software: 1, guard: 1, energy: 1 },
  central: { it: 3, software: 2, fuel: 2, cleaning: 1, guard: 1, energy: 1 },
  utility: { energy: 2, it: 1, fuel: 2, waste: 2, engineering: 2, software: 1 }
}

// ---------------------------------------------------------------- TED: languages
// Procedure titles (title-proc) in the buyer's language; "|code" overrides the topic's main CPV.
const LANG = {
  de: {
    lot: "Los {i} – ",
    streets: [
      "Aachener Straße",
      "Bonner Straße",
      "Hauptstraße",
      "Bahnhofstraße",
      "Friedrich-Ebert-Straße",
      "Luisenstraße",
      "Kaiserstraße",
      "Lindenallee",
      "Goethestraße",
      "Ringstraße",
      "Mühlenweg",
      "Schillerstraße"
    ],
    schools: [
      "Grundschule Am Lindenhof",
      "Gesamtschule Nord",
      "Gymnasium am Stadtpark",
      "Realschule an der Burgmauer",
      "Grundschule Kastanienweg",
      "Berufskolleg Ost",
      "Grundschule Sonnenhang"
    ],
    topics: {
      road: [
        "Grundhafte Erneuerung der {street} zwischen {street2} und {street3}",
        "Fahrbahnerneuerung {road} zwischen {from} und {to}|45233142*",
        "Straßen- und Kanalbauarbeiten {street}",
        "Rahmenvereinbarung Straßenunterhaltungsarbeiten {year}–{year2}|45233141*",
        "Deckenerneuerung {landroad}, Ortsdurchfahrt {from}|45233222*"
      ],
      school: [
        "Generalsanierung {school}|45453000*",
        "Erweiterungsneubau {school} mit Mensa",
        "Energetische Sanierung der Sporthalle {school}|45453000*",
        "Neubau einer vierzügigen Grundschule mit Dreifachsporthalle in {district}"
      ],
      medicines: [
        "Lieferung von Arzneimitteln für die Krankenhausapotheke",
        "Rahmenvereinbarung über die Lieferung von Onkologika|33652000",
        "Arzneimittel – Biosimilars (Adalimumab, Trastuzumab)|33652000",
        "Impfstoffe für den Öffentlichen Gesundheitsdienst|33651600"
      ],
      it: [
        "Lieferung von Notebooks und Dockingstationen für die Schulen der Stadt {city}|30213100",
        "Beschaffung von Arbeitsplatz-PCs, Monitoren und Zubehör",
        "Rahmenvertrag Multifunktionsgeräte inkl. Wartung|30232110",
        "Lieferung von Apple iPads und Zubehör für Schulen|30213200"
      ],
      cleaning: [
        "Unterhalts- und Glasreinigung städtischer Gebäude",
        "Gebäudereinigung {site}|90911200",
        "Reinigungsdienstleistungen für Schulen und Kindertagesstätten|90919300"
      ],
      fuel: [
        "Lieferung von Kraftstoffen und Heizöl EL",
        "Tankkarten für den städtischen Fuhrpark|30163100",
        "Kraftstoffversorgung des Fuhrparks {year}–{year2}|09100000"
      ],
      waste: [
        "Sammlung und Transport von Restabfall, Bioabfall und Sperrmüll",
        "Verwertung von Altholz und Grünschnitt|90514000"
      ],
      catering: [
        "Mittagsverpflegung für Kindertagesstätten und Grundschulen|55523100",
        "Speisenversorgung der Ganztagsschulen"
      ],
      meddev: [
        "Lieferung von Ultraschallgeräten|33112000",
        "Medizinische Verbrauchsmaterialien – Spritzen, Kanülen, Handschuhe"
      ],
      software: [
        "Einführung eines Dokumentenmanagementsystems (E-Akte)",
        "Pflege und Weiterentwicklung des Krankenhausinformationssystems|72267000"
      ],
      buses: [
        "Lieferung von Batteriebussen (12 m) einschließlich Ladeinfrastruktur|34144900",
        "Beschaffung von Gelenkbussen mit Wasserstoff-Brennstoffzellenantrieb"
      ],
      lighting: ["Umrüstung der Straßenbeleuchtung auf LED-Technik|45316110"],
      engineering: [
        "Objektplanung Gebäude, Leistungsphasen 2–9, Neubau Feuerwache {district}|71221000",
        "Tragwerksplanung Ersatzneubau der Brücke {street}"
      ],
      guard: ["Bewachungs- und Sicherheitsdienstleistungen {site}"],
      winter: [
        "Winterdienst auf Bundes- und Landesstraßen im Bereich der Straßenmeisterei {landfrom}",
        "Winterdienst im Bereich der Autobahnmeisterei {ameister}"
      ],
      green: ["Pflege öffentlicher Grünanlagen {year}–{year2}"],
      energy: ["Lieferung von Ökostrom {year}–{year2}", "Erdgaslieferung für kommunale Liegenschaften|09123000"],
      lab: ["Laborreagenzien und Analysesysteme für die Klinische Chemie"]
    },
    lots: {
      road: [
        ["Straßenbauarbeiten", "45233140"],
        ["Kanalbauarbeiten", "45232410"],
        ["Verkehrszeichen und Markierung", "45233290"],
        ["Straßenbeleuchtung", "45316110"],
        ["Landschaftsbauarbeiten", "45112700"],
        ["Wasserleitungsbau", "45232150"]
      ],
      school: [
        ["Rohbauarbeiten", "45223220"],
        ["Dachabdichtungsarbeiten", "45261420"],
        ["Fenster und Außentüren", "45421100"],
        ["Heizung, Lüftung, Sanitär", "45331000"],
        ["Elektroinstallation", "45310000"],
        ["Trockenbauarbeiten", "45421141"],
        ["Maler- und Bodenbelagsarbeiten", "45442100"]
      ],
      medicines: [
        ["Antiinfektiva", "33651000"],
        ["Onkologika", "33652000"],
        ["Infusionslösungen", "33692000"],
        ["Insuline", "33615100"],
        ["Impfstoffe", "33651600"],
        ["Antikoagulanzien", "33621000"]
      ],
      it: [
        ["Notebooks", "30213100"],
        ["Desktop-PCs", "30213300"],
        ["Monitore", "30231300"],
        ["Multifunktionsgeräte", "30232110"],
        ["Tablets", "30213200"],
        ["Dockingstationen und Zubehör", "30237200"]
      ],
      cleaning: [
        ["Unterhaltsreinigung Verwaltungsgebäude", "90919200"],
        ["Unterhaltsreinigung Schulen", "90919300"],
        ["Unterhaltsreinigung Kindertagesstätten", "90911200"],
        ["Glasreinigung", "90911300"],
        ["Grundreinigung Sporthallen", "90911200"]
      ],
      waste: [
        ["Restabfall", "90511000"],
        ["Bioabfall", "90511000"],
        ["Sperrmüll", "90511000"],
        ["Altpapier", "90514000"]
      ],
      fuel: [
        ["Dieselkraftstoff", "09134100"],
        ["Ottokraftstoff Super E10", "09132100"],
        ["Heizöl EL", "09135100"]
      ],
      energy: [
        ["Strom Niederspannung", "09310000"],
        ["Strom Mittelspannung", "09310000"],
        ["Erdgas", "09123000"]
      ],
      catering: [
        ["Kindertagesstätten", "55523100"],
        ["Grundschulen", "55523100"],
        ["Weiterführende Schulen", "55524000"]
      ]
    }
  },
  fr: {
    lot: "Lot {i} : ",
    streets: [
      "Jean-Jaurès",
      "de la République",
      "Gambetta",
      "Victor-Hugo",
      "Pasteur",
      "du Général-de-Gaulle",
      "Foch",
      "des Lilas"
    ],
    schools: ["Jules-Ferry", "Louis-Pasteur", "Marie-Curie", "Jean-Moulin", "Paul-Bert", "Condorcet", "Simone-Veil"],
    topics: {
      road: [
        "Travaux de réfection de chaussées et de trottoirs – programme {year}|45233142*",
        "Accord-cadre de travaux d'entretien et de grosses réparations de voirie|45233141*",
        "Réaménagement de l'avenue {street}",
        "Travaux de renforcement de la RD {rn} entre {from} et {to}|45233222"
      ],
      school: [
        "Réhabilitation et extension du groupe scolaire {school}",
        "Rénovation énergétique du collège {school2}|45453000*",
        "Construction d'un gymnase pour le lycée {school2}"
      ],
      medicines: [
        "Fourniture de médicaments pour les établissements du groupement hospitalier de territoire",
        "Fourniture de spécialités pharmaceutiques anticancéreuses|33652000",
        "Fourniture de vaccins|33651600"
      ],
      it: [
        "Acquisition de postes de travail informatiques et de périphériques",
        "Fourniture d'ordinateurs portables pour les écoles de {city}|30213100",
        "Location et maintenance de copieurs multifonctions|30232110"
      ],
      cleaning: [
        "Prestations de nettoyage des locaux administratifs|90919200",
        "Nettoyage et entretien des bâtiments communaux",
        "Nettoyage des vitres et des surfaces vitrées|90911300"
      ],
      fuel: [
        "Fourniture de carburants par cartes accréditives|30163100",
        "Fourniture et livraison de gazole et de fioul domestique"
      ],
      waste: ["Collecte des déchets ménagers et assimilés", "Traitement des déchets verts des déchèteries|90513100"],
      catering: ["Fourniture de repas en liaison froide pour la restauration scolaire|55523100"],
      meddev: ["Fourniture de dispositifs médicaux stériles à usage unique", "Acquisition d'échographes|33112000"],
      software: [
        "Maintenance et évolution du système d'information des ressources humaines|72267000",
        "Acquisition d'une solution de gestion électronique des courriers et des documents"
      ],
      lighting: ["Rénovation de l'éclairage public en technologie LED|45316110"],
      engineering: ["Mission de maîtrise d'œuvre pour la construction d'un gymnase|71221000"],
      guard: ["Prestations de surveillance et de gardiennage des sites"],
      energy: [
        "Fourniture d'électricité et services associés",
        "Fourniture de gaz naturel pour les bâtiments publics|09123000"
      ],
      green: ["Entretien des espaces verts et élagage des arbres"],
      buses: ["Acquisition d'autobus électriques standards de 12 mètres|34144900"],
      lab: ["Fourniture de réactifs et consommables de laboratoire avec mise à disposition d'automates"]
    },
    lots: {
      road: [
        ["Terrassement et voirie", "45233140"],
        ["Réseaux d'assainissement", "45232410"],
        ["Éclairage public", "45316110"],
        ["Signalisation horizontale et verticale", "45233290"],
        ["Espaces verts", "45112700"]
      ],
      school: [
        ["Gros œuvre", "45223220"],
        ["Étanchéité", "45261420"],
        ["Menuiseries extérieures", "45421100"],
        ["Chauffage – ventilation – plomberie", "45331000"],
        ["Électricité courants forts et faibles", "45310000"],
        ["Peinture – revêtements de sols", "45442100"]
      ],
      medicines: [
        ["Anti-infectieux", "33651000"],
        ["Anticancéreux", "33652000"],
        ["Solutés massifs", "33692000"],
        ["Insulines", "33615100"],
        ["Vaccins", "33651600"],
        ["Anticoagulants", "33621000"]
      ],
      it: [
        ["Ordinateurs portables", "30213100"],
        ["Ordinateurs fixes", "30213300"],
        ["Écrans", "30231300"],
        ["Imprimantes et multifonctions", "30232110"],
        ["Tablettes", "30213200"]
      ],
      cleaning: [
        ["Hôtel de ville et annexes", "90919200"],
        ["Écoles maternelles et élémentaires", "90919300"],
        ["Vitrerie", "90911300"],
        ["Équipements sportifs", "90911200"]
      ],
      waste: [
        ["Ordures ménagères résiduelles", "90511000"],
        ["Collecte sélective", "90511000"],
        ["Encombrants", "90511000"],
        ["Tri et valorisation", "90514000"]
      ],
      energy: [
        ["Électricité – sites C5", "09310000"],
        ["Électricité – sites C4", "09310000"],
        ["Gaz naturel", "09123000"]
      ]
    }
  },
  es: {
    lot: "Lote {i}: ",
    streets: ["Alcalá", "Mayor", "del Sol", "Real", "de la Constitución", "San Vicente", "de Colón"],
    schools: [
      "Miguel de Cervantes",
      "Antonio Machado",
      "Federico García Lorca",
      "Ramón y Cajal",
      "Clara Campoamor",
      "Rosalía de Castro"
    ],
    topics: {
      road: [
        "Obras de rehabilitación del firme de la carretera {road}, tramo {from}–{to}|45233142",
        "Obras de mejora de la pavimentación de calles en el distrito de {district}|45233222*",
        "Acuerdo marco de obras de conservación de vías públicas|45233141",
        "Obras de reurbanización de la calle {street}"
      ],
      school: [
        "Obras de reforma y ampliación del CEIP {school}",
        "Rehabilitación energética del IES {school2}|45453000*",
        "Construcción de un pabellón deportivo en el CEIP {school}"
      ],
      medicines: [
        "Suministro de medicamentos con destino a los hospitales del {buyerShort}",
        "Acuerdo marco para el suministro de medicamentos antineoplásicos|33652000",
        "Suministro de vacunas antigripales para la campaña {year}-{year2}|33651600"
      ],
      it: [
        "Suministro de ordenadores de sobremesa y portátiles",
        "Adquisición de ordenadores portátiles para centros educativos|30213100",
        "Suministro de impresoras multifunción y consumibles|30232110"
      ],
      cleaning: [
        "Servicio de limpieza de edificios municipales",
        "Servicio de limpieza integral del {site}|90911200",
        "Servicio de limpieza de colegios públicos|90919300"
      ],
      fuel: [
        "Suministro de combustible para los vehículos del parque móvil municipal",
        "Suministro de gasóleo C para calefacción de centros educativos|09135100"
      ],
      waste: ["Servicio de recogida de residuos urbanos y limpieza viaria"],
      catering: ["Servicio de comedor escolar en centros públicos de educación infantil y primaria"],
      meddev: ["Suministro de material sanitario fungible", "Suministro de ecógrafos|33112000"],
      software: ["Servicio de mantenimiento evolutivo de las aplicaciones corporativas|72267000"],
      buses: ["Suministro de autobuses urbanos de propulsión eléctrica|34144900"],
      energy: ["Suministro de energía eléctrica en los puntos de consumo municipales"],
      guard: ["Servicio de vigilancia y seguridad en dependencias municipales"],
      engineering: ["Redacción del proyecto de construcción y dirección de obra de un centro de salud|71240000"],
      lab: ["Suministro de reactivos para el laboratorio de análisis clínicos"],
      green: ["Servicio de conservación de zonas verdes y arbolado viario"]
    },
    lots: {
      road: [
        ["Pavimentación", "45233222"],
        ["Saneamiento", "45232410"],
        ["Alumbrado público", "45316110"],
        ["Señalización", "45233290"]
      ],
      school: [
        ["Estructura y albañilería", "45223220"],
        ["Cubiertas", "45261210"],
        ["Carpintería exterior", "45421100"],
        ["Climatización y fontanería", "45331000"],
        ["Instalaciones eléctricas", "45310000"]
      ],
      medicines: [
        ["Antiinfecciosos", "33651000"],
        ["Antineoplásicos", "33652000"],
        ["Sueroterapia", "33692000"],
        ["Insulinas", "33615100"],
        ["Vacunas", "33651600"]
      ],
      it: [
        ["Ordenadores de sobremesa", "30213300"],
        ["Ordenadores portátiles", "30213100"],
        ["Monitores", "30231300"],
        ["Impresoras multifunción", "30232110"]
      ],
      cleaning: [
        ["Edificios administrativos", "90919200"],
        ["Colegios públicos", "90919300"],
        ["Instalaciones deportivas", "90911200"],
        ["Limpieza de cristales", "90911300"]
      ]
    }
  },
  it: {
    lot: "Lotto {i} – ",
    streets: ["Roma", "Garibaldi", "Mazzini", "Cavour", "XX Settembre", "Dante", "Matteotti"],
    schools: [
      "Giovanni Pascoli",
      "Alessandro Manzoni",
      "Don Milani",
      "Gianni Rodari",
      "Leonardo da Vinci",
      "Maria Montessori"
    ],
    topics: {
      road: [
        "Lavori di manutenzione straordinaria delle pavimentazioni stradali – anno {year}|45233142*",
        "Accordo quadro per la manutenzione ordinaria della viabilità|45233141*",
        "Riqualificazione di via {street}|45233140",
        "Lavori di messa in sicurezza della SP {rn} tra {from} e {to}|45233140"
      ],
      school: [
        "Lavori di adeguamento sismico ed efficientamento energetico della scuola primaria {school}|45453000",
        "Ristrutturazione della scuola secondaria di primo grado {school2}|45453000",
        "Realizzazione della nuova palestra dell'istituto comprensivo {school2}"
      ],
      medicines: [
        "Procedura aperta per la fornitura di farmaci per le aziende sanitarie regionali",
        "Fornitura di farmaci biosimilari|33652000",
        "Fornitura di vaccini antinfluenzali|33651600"
      ],
      it: [
        "Fornitura di personal computer desktop e notebook per gli uffici comunali",
        "Fornitura di notebook per le scuole|30213100"
      ],
      cleaning: [
        "Servizio di pulizia e sanificazione degli immobili comunali",
        "Servizi di pulizia dei presidi ospedalieri|90911200"
      ],
      fuel: [
        "Fornitura di carburante per autotrazione mediante fuel card|30163100",
        "Fornitura di gasolio per riscaldamento|09135100"
      ],
      waste: ["Servizio di raccolta e trasporto dei rifiuti urbani"],
      catering: ["Servizio di ristorazione scolastica"],
      meddev: ["Fornitura di dispositivi medici per emodinamica", "Fornitura di ecografi|33112000"],
      lab: ["Fornitura in service di sistemi diagnostici per il laboratorio analisi"],
      software: ["Servizi di manutenzione ed evoluzione del sistema informativo ospedaliero|72267000"],
      lighting: ["Riqualificazione energetica degli impianti di pubblica illuminazione|45316110"],
      engineering: ["Servizi di progettazione di fattibilità tecnico-economica ed esecutiva"],
      green: ["Servizio di manutenzione del verde pubblico"],
      guard: ["Servizio di vigilanza armata e portierato"]
    },
    lots: {
      road: [
        ["Zona Nord", "45233141"],
        ["Zona Sud", "45233141"],
        ["Zona Est", "45233141"],
        ["Zona Ovest", "45233141"],
        ["Segnaletica stradale", "45233290"]
      ],
      medicines: [
        ["Adalimumab", "33652000"],
        ["Trastuzumab", "33652000"],
        ["Meropenem", "33651000"],
        ["Enoxaparina sodica", "33621000"],
        ["Insulina glargine", "33615100"],
        ["Soluzione fisiologica", "33692000"]
      ],
      it: [
        ["Personal computer desktop", "30213300"],
        ["Notebook", "30213100"],
        ["Monitor", "30231300"],
        ["Stampanti multifunzione", "30232110"]
      ],
      cleaning: [
        ["Sedi amministrative", "90919200"],
        ["Plessi scolastici", "90919300"],
        ["Strutture sanitarie", "90911200"]
      ]
    }
  },
  pl: {
    lot: "Część {i}: ",
    streets: [
      "Mickiewicza",
      "Słowackiego",
      "Kościuszki",
      "Piłsudskiego",
      "Sienkiewicza",
      "Reymonta",
      "Kopernika",
      "Chopina"
    ],
    schools: [],
    topics: {
      road: [
        "Przebudowa ul. {street} – etap II|45233140",
        "Remonty cząstkowe nawierzchni dróg i ulic w {year} r.|45233142*",
        "Rozbudowa drogi krajowej nr {rn} na odcinku {from} – {to}|45233120",
        "Przebudowa skrzyżowania ul. {street} i ul. {street2}|45233140"
      ],
      school: [
        "Termomodernizacja budynku Szkoły Podstawowej nr {n}|45453000",
        "Rozbudowa Szkoły Podstawowej nr {n} o salę gimnastyczną"
      ],
      medicines: [
        "Dostawa produktów leczniczych",
        "Dostawa leków onkologicznych|33652000",
        "Dostawa produktów leczniczych, płynów infuzyjnych i szczepionek"
      ],
      it: ["Dostawa sprzętu komputerowego", "Dostawa laptopów dla szkół|30213100"],
      cleaning: [
        "Usługa sprzątania pomieszczeń biurowych|90919200",
        "Kompleksowe sprzątanie obiektów szpitalnych|90911200"
      ],
      fuel: ["Dostawa paliw płynnych do pojazdów służbowych|09100000*", "Sukcesywna dostawa oleju napędowego|09134100"],
      waste: ["Odbiór i zagospodarowanie odpadów komunalnych z nieruchomości zamieszkałych"],
      buses: ["Dostawa fabrycznie nowych autobusów elektrycznych|34144900"],
      catering: ["Przygotowanie i dostarczanie posiłków dla uczniów szkół podstawowych|55523100"],
      meddev: ["Dostawa sprzętu jednorazowego użytku i materiałów opatrunkowych"],
      energy: ["Dostawa energii elektrycznej dla obiektów Gminy"],
      winter: ["Zimowe utrzymanie dróg w sezonie {season}"]
    },
    lots: {
      road: [
        ["Rejon Północ", "45233142"],
        ["Rejon Południe", "45233142"],
        ["Rejon Wschód", "45233142"],
        ["Rejon Zachód", "45233142"]
      ],
      medicines: [
        ["Antybiotyki", "33651000"],
        ["Leki onkologiczne", "33652000"],
        ["Płyny infuzyjne", "33692000"],
        ["Insuliny", "33615100"],
        ["Heparyny drobnocząsteczkowe", "33621000"],
        ["Szczepionki", "33651600"]
      ],
      it: [
        ["Komputery stacjonarne", "30213300"],
        ["Laptopy", "30213100"],
        ["Monitory", "30231300"],
        ["Urządzenia wielofunkcyjne", "30232110"]
      ],
      fuel: [
        ["Olej napędowy", "09134100"],
        ["Benzyna bezołowiowa Pb95", "09132100"],
        ["Gaz LPG", "09133000"]
      ],
      meddev: [
        ["Strzykawki i igły", "33141310"],
        ["Rękawice diagnostyczne", "18424300"],
        ["Materiały opatrunkowe", "33141110"]
      ]
    }
  },
  nl: {
    lot: "Perceel {i}: ",
    streets: ["Stationsweg", "Kerkstraat", "Dorpsstraat", "Vaartweg", "Laan van Nieuw Oost-Indië", "Amstelveenseweg"],
    schools: ["OBS De Regenboog", "CBS De Wegwijzer", "Het Stedelijk Lyceum", "KC De Vlinder"],
    topics: {
      road: [
        "Groot onderhoud asfaltverhardingen {year}|45233142*",
        "Groot variabel onderhoud A{rn} {from} – {to}|45233142*",
        "Herinrichting {street}|45233140",
        "Raamovereenkomst onderhoud wegen en fietspaden|45233141*",
        "Reconstructie kruispunt {street} – {street2}|45233140"
      ],
      school: ["Nieuwbouw Integraal Kindcentrum {district}", "Renovatie en verduurzaming {school}|45453000"],
      medicines: ["Europese aanbesteding geneesmiddelen", "Levering van oncolytica|33652000"],
      it: ["Levering van laptops en werkplekapparatuur", "Raamovereenkomst multifunctionals|30232110"],
      cleaning: ["Schoonmaakdienstverlening gemeentelijke gebouwen", "Glasbewassing en gevelreiniging|90911300"],
      fuel: ["Levering van brandstoffen via tankpassen|30163100"],
      waste: ["Inzameling en transport van huishoudelijk afval"],
      energy: ["Levering van elektriciteit en aardgas"],
      software: ["Zaaksysteem en documentmanagementsysteem (SaaS)"],
      green: ["Onderhoud openbaar groen {year}–{year2}"],
      engineering: ["Ingenieursdiensten vervanging kademuren"],
      buses: ["Levering van zero-emissie stadsbussen|34144900"]
    },
    lots: {
      road: [
        ["Wegvakken Noord", "45233142"],
        ["Wegvakken Zuid", "45233142"],
        ["Markeringen", "45233290"]
      ],
      cleaning: [
        ["Kantoorpanden", "90919200"],
        ["Sportaccommodaties", "90911200"],
        ["Glasbewassing", "90911300"]
      ],
      energy: [
        ["Elektriciteit", "09310000"],
        ["Aardgas", "09123000"]
      ],
      it: [
        ["Laptops", "30213100"],
        ["Desktops", "30213300"],
        ["Beeldschermen", "30231300"]
      ]
    }
  },
  sv: {
    lot: "Anbudsområde {i}: ",
    streets: ["Drottninggatan", "Kungsgatan", "Storgatan", "Vasagatan", "Sveavägen"],
    schools: ["Vasaskolan", "Hagaskolan", "Björkskolan", "Kungsholmens grundskola"],
    topics: {
      road: [
        "Beläggningsarbeten {year}|45233222",
        "Drift och underhåll av gator och vägar i {town}|45233141",
        "Ombyggnad av {street}"
      ],
      school: ["Ombyggnad av {school}|45453000", "Nybyggnad av förskola i {district}"],
      medicines: ["Läkemedel för slutenvård", "Läkemedel – onkologi|33652000"],
      it: ["Datorer, skärmar och tillbehör", "Bärbara datorer till grundskolan|30213100"],
      cleaning: ["Lokalvård för kommunens verksamheter", "Städtjänster och fönsterputs"],
      fuel: ["Drivmedel och drivmedelskort|30163100"],
      winter: ["Vinterväghållning {year}–{year3}"],
      catering: ["Livsmedel till kommunens måltidsverksamhet|15000000*"],
      buses: ["Elbussar för stadstrafik|34144900"]
    },
    lots: {
      cleaning: [
        ["Förskolor", "90919300"],
        ["Grundskolor", "90919300"],
        ["Förvaltningslokaler", "90919200"],
        ["Fönsterputs", "90911300"]
      ],
      catering: [
        ["Mejeriprodukter", "15500000"],
        ["Kött och chark", "15110000"],
        ["Frukt och grönsaker", "15300000"],
        ["Kolonialvaror", "15800000"]
      ],
      it: [
        ["Stationära datorer", "30213300"],
        ["Bärbara datorer", "30213100"],
        ["Skärmar", "30231300"]
      ]
    }
  },
  cs: {
    lot: "Část {i} – ",
    streets: ["Vinohradská", "Husova", "Masarykova", "Palackého", "Nádražní", "Komenského"],
    schools: ["Masarykova", "Komenského", "Slovanské náměstí", "Kunratice"],
    topics: {
      road: [
        "Rekonstrukce ulice {street}",
        "Oprava silnice I/{rn} v úseku {from} – {to}|45233142*",
        "Souvislé opravy povrchů vozovek {year}|45233222"
      ],
      school: ["Stavební úpravy a přístavba ZŠ {school}", "Zateplení budovy ZŠ {school2}|45453000"],
      medicines: ["Dodávky léčivých přípravků", "Léčivé přípravky – onkologie|33652000"],
      it: ["Dodávka výpočetní techniky", "Notebooky pro základní školy|30213100"],
      cleaning: ["Úklidové služby v administrativních budovách|90919200"],
      fuel: ["Dodávky pohonných hmot prostřednictvím platebních karet|30163100"],
      buses: ["Dodávka nízkopodlažních elektrobusů|34144900"],
      winter: ["Zimní údržba místních komunikací"]
    },
    lots: {
      medicines: [
        ["Antibiotika", "33651000"],
        ["Onkologika", "33652000"],
        ["Infuzní roztoky", "33692000"]
      ],
      it: [
        ["Notebooky", "30213100"],
        ["Stolní počítače", "30213300"],
        ["Monitory", "30231300"]
      ]
    }
  },
  ro: {
    lot: "Lotul {i} – ",
    streets: [],
    schools: ["Mihai Eminescu", "Ion Creangă", "Lucian Blaga", "Grigore Moisil", "Nicolae Bălcescu"],
    topics: {
      road: [
        "Modernizare străzi în Municipiul {town}",
        "Reabilitare DN{rn} {from} – {to}|45233142",
        "Lucrări de întreținere periodică a drumurilor|45233141"
      ],
      school: [
        "Reabilitarea și modernizarea Școlii Gimnaziale nr. {n}|45453000",
        "Creșterea eficienței energetice a Liceului Teoretic „{school}”|45453000"
      ],
      medicines: ["Furnizare medicamente", "Furnizare medicamente citostatice|33652000"],
      it: ["Achiziție echipamente IT", "Furnizare laptopuri pentru unitățile de învățământ|30213100"],
      cleaning: ["Servicii de curățenie"],
      fuel: ["Furnizare carburanți auto pe bază de carduri|30163100"],
      waste: ["Delegarea serviciului de colectare și transport al deșeurilor municipale"],
      buses: ["Achiziție autobuze electrice|34144900"],
      meddev: ["Furnizare materiale sanitare"]
    },
    lots: {
      medicines: [
        ["Antibiotice", "33651000"],
        ["Citostatice", "33652000"],
        ["Soluții perfuzabile", "33692000"],
        ["Insuline", "33615100"]
      ],
      it: [
        ["Laptopuri", "30213100"],
        ["Calculatoare desktop", "30213300"],
        ["Imprimante multifuncționale", "30232110"]
      ]
    }
  },
  pt: {
    lot: "Lote {i} – ",
    streets: ["de Santa Catarina", "Augusta", "do Almada", "de Cedofeita", "da Liberdade", "Direita"],
    schools: ["de Alvalade", "do Bonfim", "Eugénio de Andrade", "Camões"],
    topics: {
      road: [
        "Empreitada de requalificação da Rua {street}",
        "Beneficiação da EN{rn} entre {from} e {to}|45233142",
        "Repavimentação de arruamentos na freguesia de {district}|45233222"
      ],
      school: [
        "Empreitada de requalificação da Escola Básica {school}|45453000",
        "Remodelação e ampliação da Escola Secundária {school2}"
      ],
      medicines: ["Aquisição de medicamentos", "Aquisição de medicamentos citotóxicos|33652000"],
      it: ["Aquisição de equipamento informático", "Fornecimento de computadores portáteis para as escolas|30213100"],
      cleaning: ["Aquisição de serviços de limpeza"],
      fuel: ["Fornecimento de combustíveis rodoviários|09100000"],
      waste: ["Recolha de resíduos urbanos indiferenciados"],
      catering: ["Fornecimento de refeições escolares|55523100"],
      energy: ["Fornecimento de energia elétrica em regime de mercado livre"]
    },
    lots: {
      medicines: [
        ["Antibióticos", "33651000"],
        ["Citotóxicos", "33652000"],
        ["Soluções injetáveis de grande volume", "33692000"]
      ],
      it: [
        ["Computadores portáteis", "30213100"],
        ["Computadores de secretária", "30213300"],
        ["Monitores", "30231300"]
      ]
    }
  },
  hu: {
    lot: "{i}. rész – ",
    streets: [],
    schools: [],
    topics: {
      road: [
        "Útfelújítási munkák {town} belterületén|45233142",
        "A {rn}. számú főút {from} és {to} közötti szakaszának felújítása|45233142",
        "Kerékpárút építése {town} területén"
      ],
      school: ["Iskolaépület energetikai korszerűsítése|45453000", "Tornaterem építése"],
      medicines: ["Gyógyszerek beszerzése", "Onkológiai készítmények beszerzése|33652000"],
      it: ["Számítástechnikai eszközök beszerzése"],
      cleaning: ["Takarítási szolgáltatás ellátása"],
      fuel: ["Üzemanyag beszerzése üzemanyagkártyás rendszerben|30163100"],
      catering: ["Közétkeztetési szolgáltatás ellátása"]
    },
    lots: {
      medicines: [
        ["Antibiotikumok", "33651000"],
        ["Onkológiai készítmények", "33652000"],
        ["Infúziós oldatok", "33692000"]
      ]
    }
  },
  bg: {
    lot: "Обособена позиция № {i} – ",
    streets: [],
    schools: ["ОУ „Христо Ботев“", "СУ „Васил Левски“", "ПГ по туризъм „Алеко Константинов“"],
    topics: {
      road: [
        "Основен ремонт на улици и тротоари на територията на {buyerShort}|45233142",
        "Рехабилитация на път II-{rn} {from} – {to}|45233142"
      ],
      school: ["Въвеждане на мерки за енергийна ефективност в сградата на {school}|45453000"],
      medicines: [
        "Доставка на лекарствени продукти",
        "Доставка на лекарствени продукти за лечение на онкологични заболявания|33652000"
      ],
      it: ["Доставка на компютърна техника и периферни устройства"],
      cleaning: ["Почистване на административни сгради|90919200"],
      fuel: ["Доставка на горива за нуждите на автопарка чрез карти за безналично плащане|30163100"]
    },
    lots: {
      medicines: [
        ["Антибиотици", "33651000"],
        ["Противотуморни лекарствени продукти", "33652000"],
        ["Инфузионни разтвори", "33692000"]
      ]
    }
  },
  da: {
    lot: "Delaftale {i}: ",
    streets: ["Nørrebrogade", "Vesterbrogade", "Åboulevard", "Jagtvej"],
    schools: ["Hellerup Skole", "Nørre Fælled Skole", "Skjoldhøjskolen", "Vesterbro Ny Skole"],
    topics: {
      road: ["Vejvedligeholdelse og asfaltarbejder {year}–{year2}|45233141", "Renovering af {street}"],
      school: ["Renovering af {school}|45453000", "Udbygning af {school2}"],
      medicines: ["Lægemidler til hospitalerne"],
      it: ["Indkøb af bærbare computere og tilbehør|30213100"],
      cleaning: ["Rengøring af kommunale institutioner"],
      winter: ["Vintertjeneste på kommunale veje og stier"],
      fuel: ["Levering af brændstof og fyringsolie"]
    },
    lots: {}
  },
  fi: {
    lot: "Osa {i}: ",
    streets: [],
    schools: ["Kalevan koulun", "Hervannan koulun", "Pohjois-Haagan yhteiskoulun", "Puolalanmäen koulun"],
    topics: {
      road: ["Katujen ja teiden päällystystyöt {year}|45233222", "Maantien {rn} parantaminen välillä {from}–{to}"],
      school: ["{school} peruskorjaus|45453000", "{school} laajennus ja perusparannus"],
      medicines: ["Lääkkeiden hankinta"],
      it: ["Kannettavien tietokoneiden ja oheislaitteiden hankinta|30213100"],
      cleaning: ["Siivouspalvelut"],
      winter: ["Katujen talvikunnossapito"],
      catering: ["Elintarvikkeiden hankinta|15000000"]
    },
    lots: {}
  },
  no: {
    lot: "Delkontrakt {i}: ",
    streets: [],
    schools: ["Ulsrud skole", "Fjell skole", "Kalvskinnet skole", "Sandslihaugen skole"],
    topics: {
      road: ["Reasfaltering av kommunale veier {year}|45233222", "Rehabilitering av fylkesvei {rn}|45233142"],
      school: ["Rehabilitering av {school}|45453000", "Ny barneskole på {district}"],
      medicines: ["Legemidler til spesialisthelsetjenesten"],
      it: ["Rammeavtale for kjøp av PC-er og tilhørende utstyr"],
      cleaning: ["Renhold av kommunale bygg"],
      winter: ["Vintervedlikehold av kommunale veier"],
      fuel: ["Drivstoff og drivstoffkort|30163100"]
    },
    lots: {}
  },
  is: {
    lot: "Hluti {i}: ",
    streets: [],
    schools: [],
    topics: {
      winter: ["Vetrarþjónusta gatna og stíga"],
      cleaning: ["Ræsting í grunnskólum|90919300"],
      medicines: ["Kaup á lyfjum fyrir Landspítala"],
      road: ["Malbikun gatna {year}|45233222"],
      it: ["Kaup á fartölvum|30213100"]
    },
    lots: {}
  },
  en: {
    lot: "Lot {i}: ",
    streets: [],
    schools: [
      "Scoil Mhuire National School",
      "St. Patrick's Boys' National School",
      "Coláiste Íde",
      "Gaelscoil na Cille"
    ],
    topics: {
      road: [
        "Resurfacing of Regional and Local Roads {year}|45233142*",
        "N{rn} {from} to {to} Road Improvement Scheme|45233120",
        "Framework for Road Maintenance and Surface Dressing Works|45233141*"
      ],
      school: ["Extension and Refurbishment of {school}", "Deep Energy Retrofit of {school2}|45453000"],
      medicines: [
        "Supply of Oncology Medicines|33652000*",
        "Supply of Biosimilar Medicines",
        "Supply of Vaccines for the National Immunisation Programme|33651600"
      ],
      it: ["Supply of Laptops and Desktop Computers", "Provision of End User Devices and Associated Services"],
      cleaning: [
        "Provision of Cleaning Services to Civic Offices and Libraries|90919200*",
        "Cleaning Services for {site}|90911200"
      ],
      fuel: ["Supply and Delivery of Road Fuels and Heating Oil", "Provision of Fuel Cards|30163100"],
      waste: ["Collection of Household Waste and Recycling"],
      software: [
        "Provision of a Cloud-based Housing Management System",
        "Supply and Implementation of a Financial Management System"
      ],
      engineering: ["Multidisciplinary Design Team Services for a New Primary Care Centre|71240000"],
      catering: ["Provision of Catering Services|55320000"],
      guard: ["Provision of Security Services"],
      green: ["Grounds Maintenance Services"],
      lighting: ["Public Lighting LED Retrofit Programme|45316110"],
      lab: ["Supply of Laboratory Reagents and Consumables"],
      winter: ["Winter Maintenance (Gritting) Services"]
    },
    lots: {
      road: [
        ["Surface Dressing", "45233142"],
        ["Road Resurfacing", "45233142"],
        ["Footpath Reconstruction", "45233161"],
        ["Road Markings", "45233290"]
      ],
      medicines: [
        ["Trastuzumab", "33652000"],
        ["Bevacizumab", "33652000"],
        ["Rituximab", "33652000"],
        ["Adalimumab", "33652000"]
      ],
      it: [
        ["Laptops", "30213100"],
        ["Desktop Computers", "30213300"],
        ["Monitors", "30231300"],
        ["Docking Stations and Peripherals", "30237200"]
      ],
      cleaning: [
        ["Civic Offices", "90919200"],
        ["Libraries", "90911200"],
        ["Leisure Centres", "90911200"]
      ]
    }
  }
}

// ---------------------------------------------------------------- TED: countries, buyers, platforms
const COUNTRY = {
  DE: { en: "Germany", zone: "CET", cur: "EUR", vat: 0.19, n: 22 },
  FR: { en: "France", zone: "CET", cur: "EUR", vat: 0.2, n: 18 },
  ES: { en: "Spain", zone: "CET", cur: "EUR", vat: 0.21, n: 14 },
  IT: { en: "Italy", zone: "CET", cur: "EUR", vat: 0.22, n: 14 },
  PL: { en: "Poland", zone: "CET", cur: "PLN", vat: 0.23, n: 12 },
  NL: { en: "Netherlands", zone: "CET", cur: "EUR", vat: 0.21, n: 8 },
  BE: { en: "Belgium", zone: "CET", cur: "EUR", vat: 0.21, n: 7 },
  AT: { en: "Austria", zone: "CET", cur: "EUR", vat: 0.2, n: 6 },
  IE: { en: "Ireland", zone: "WET", cur: "EUR", vat: 0.23, n: 8 },
  PT: { en: "Portugal", zone: "WET", cur: "EUR", vat: 0.23, n: 6 },
  CZ: { en: "Czechia", zone: "CET", cur: "CZK", vat: 0.21, n: 6 },
  RO: { en: "Romania", zone: "EET", cur: "RON", vat: 0.21, n: 6 },
  SE: { en: "Sweden", zone: "CET", cur: "SEK", vat: 0.25, n: 7 },
  DK: { en: "Denmark", zone: "CET", cur: "DKK", vat: 0.25, n: 4 },
  FI: { en: "Finland", zone: "EET", cur: "EUR", vat: 0.255, n: 4 },
  NO: { en: "Norway", zone: "CET", cur: "NOK", vat: 0.25, n: 4 },
  HU: { en: "Hungary", zone: "CET", cur: "HUF", vat: 0.27, n: 4 },
  BG: { en: "Bulgaria", zone: "EET", cur: "EUR", vat: 0.2, n: 4 },
  IS: { en: "Iceland", zone: "ATL", cur: "ISK", vat: 0.24, n: 2 },
  CH: { en: "Switzerland", zone: "CET", cur: "CHF", vat: 0.081, n: 3 },
  LU: { en: "Luxembourg", zone: "CET", cur: "EUR", vat: 0.17, n: 1 }
}
// Rough units of each currency per EUR, only to size realistic budgets (not the reference rates).
const SIZE_RATE = {
  EUR: 1,
  PLN: 4.25,
  CZK: 25,
  SEK: 11.2,
  DKK: 7.46,
  NOK: 11.7,
  RON: 5.05,
  HUF: 400,
  ISK: 145,
  CHF: 0.94,
  BGN: 1.95583
}
const DECIMALS = { HUF: 0, ISK: 0, AMD: 0 }
const TOPIC_EUR = {
  road: [400e3, 12e6],
  school: [300e3, 9e6],
  medicines: [150e3, 25e6],
  it: [60e3, 2.5e6],
  cleaning: [150e3, 6e6],
  fuel: [80e3, 4e6],
  waste: [600e3, 30e6],
  catering: [200e3, 8e6],
  meddev: [80e3, 3e6],
  software: [120e3, 5e6],
  buses: [3e6, 40e6],
  lighting: [200e3, 5e6],
  engineering: [90e3, 2e6],
  guard: [150e3, 5e6],
  winter: [200e3, 6e6],
  green: [100e3, 3e6],
  energy: [500e3, 40e6],
  lab: [150e3, 6e6]
}

// [country, language, type, name, city, NUTS 3 (or 2) code, platform, extra]
const TED_BUYERS = [
  [
    "DE",
    "de",
    "estate",
    "Stadt Köln – Gebäudewirtschaft",
    "Köln",
    "DEA23",
    "nrw",
    {
      districts: ["Köln-Ehrenfeld", "Köln-Porz", "Köln-Kalk", "Köln-Nippes"],
      short: "Gebäudewirtschaft der Stadt Köln"
    }
  ],
  [
    "DE",
    "de",
    "city",
    "Landeshauptstadt München, Baureferat",
    "München",
    "DE212",
    "dtvp",
    { districts: ["München-Freiham", "München-Riem", "München-Moosach"] }
  ],
  [
    "DE",
    "de",
    "roads",
    "Freie und Hansestadt Hamburg, Landesbetrieb Straßen, Brücken und Gewässer",
    "Hamburg",
    "DE600",
    "dtvp",
    { places: ["Harburg", "Bergedorf", "Wandsbek", "Altona"], roads: ["B 75", "B 5", "B 4"], urban: true }
  ],
  [
    "DE",
    "de",
    "health",
    "Universitätsklinikum Heidelberg",
    "Heidelberg",
    "DE125",
    "dtvp",
    { site: "Kopfklinik und Chirurgische Klinik" }
  ],
  [
    "DE",
    "de",
    "transport",
    "Berliner Verkehrsbetriebe (BVG) AöR",
    "Berlin",
    "DE300",
    "dtvp",
    { site: "Betriebshof Lichtenberg" }
  ],
  ["DE", "de", "utility", "Stadtwerke Leipzig GmbH", "Leipzig", "DED51", "dtvp", {}],
  [
    "DE",
    "de",
    "estate",
    "Stadt Frankfurt am Main – Amt für Bau und Immobilien",
    "Frankfurt am Main",
    "DE712",
    "dtvp",
    { districts: ["Frankfurt-Riedberg", "Frankfurt-Höchst", "Frankfurt-Bornheim"] }
  ],
  [
    "DE",
    "de",
    "health",
    "Charité – Universitätsmedizin Berlin",
    "Berlin",
    "DE300",
    "evergabe",
    { site: "Campus Virchow-Klinikum" }
  ],
  [
    "DE",
    "de",
    "roads",
    "Die Autobahn GmbH des Bundes, Niederlassung Südbayern",
    "München",
    "DE212",
    "evergabe",
    { places: ["Holzkirchen", "Rosenheim", "Weyarn", "Inzell"], roads: ["A 8", "A 95", "A 99", "A 94"], autobahn: true }
  ],
  [
    "DE",
    "de",
    "estate",
    "Landeshauptstadt Dresden, Amt für Hochbau und Immobilienverwaltung",
    "Dresden",
    "DED21",
    "dtvp",
    { districts: ["Dresden-Pieschen", "Dresden-Prohlis", "Dresden-Gorbitz"] }
  ],
  ["DE", "de", "uni", "Technische Universität Dresden", "Dresden", "DED21", "dtvp", { site: "Hörsaalzentrum" }],
  [
    "DE",
    "de",
    "central",
    "Bundesamt für Ausrüstung, Informationstechnik und Nutzung der Bundeswehr",
    "Koblenz",
    "DEB11",
    "evergabe",
    { site: "Liegenschaft Koblenz, Rheinkaserne" }
  ],
  [
    "DE",
    "de",
    "roads",
    "Stadt Nürnberg – Servicebetrieb Öffentlicher Raum",
    "Nürnberg",
    "DE254",
    "dtvp",
    { districts: ["Nürnberg-Langwasser", "Nürnberg-Gostenhof"], urban: true }
  ],
  [
    "DE",
    "de",
    "roads",
    "Landeshauptstadt Stuttgart, Tiefbauamt",
    "Stuttgart",
    "DE111",
    "dtvp",
    { districts: ["Stuttgart-Feuerbach", "Stuttgart-Vaihingen"], urban: true }
  ],
  [
    "FR",
    "fr",
    "roads",
    "Ville de Paris – Direction de la Voirie et des Déplacements",
    "Paris",
    "FR101",
    "maximilien",
    { districts: ["Paris 13e", "Paris 19e", "Paris 11e"], urban: true }
  ],
  [
    "FR",
    "fr",
    "city",
    "Métropole de Lyon",
    "Lyon",
    "FRK26",
    "place",
    {
      places: ["Tassin-la-Demi-Lune", "Écully", "Caluire-et-Cuire", "Vénissieux", "Bron", "Rillieux-la-Pape"],
      roadNums: [383, 306, 342]
    }
  ],
  [
    "FR",
    "fr",
    "health",
    "Assistance Publique – Hôpitaux de Paris (AP-HP)",
    "Paris",
    "FR101",
    "maximilien",
    { site: "Hôpital Bichat – Claude-Bernard" }
  ],
  ["FR", "fr", "estate", "Région Occitanie / Pyrénées-Méditerranée", "Toulouse", "FRJ23", "achatpublic", {}],
  ["FR", "fr", "city", "Bordeaux Métropole", "Bordeaux", "FRI12", "achatpublic", {}],
  [
    "FR",
    "fr",
    "health",
    "Centre Hospitalier Universitaire de Nantes",
    "Nantes",
    "FRG01",
    "place",
    { site: "Hôtel-Dieu" }
  ],
  ["FR", "fr", "uni", "Université de Strasbourg", "Strasbourg", "FRF11", "place", { site: "campus de l'Esplanade" }],
  ["FR", "fr", "city", "Rennes Métropole", "Rennes", "FRH03", "megalis", {}],
  ["FR", "fr", "central", "Ministère des Armées – Service du commissariat des armées", "Paris", "FR101", "place", {}],
  ["FR", "fr", "city", "Ville de Montpellier", "Montpellier", "FRJ13", "achatpublic", {}],
  [
    "ES",
    "es",
    "healthcentral",
    "Servicio Madrileño de Salud",
    "Madrid",
    "ES300",
    "placsp",
    { short: "Servicio Madrileño de Salud" }
  ],
  [
    "ES",
    "es",
    "city",
    "Ayuntamiento de Madrid – Área de Gobierno de Urbanismo, Medio Ambiente y Movilidad",
    "Madrid",
    "ES300",
    "placsp",
    { districts: ["Carabanchel", "Vallecas", "Tetuán", "Usera"] }
  ],
  [
    "ES",
    "es",
    "city",
    "Ajuntament de Barcelona",
    "Barcelona",
    "ES511",
    "cat",
    { districts: ["Sant Martí", "Nou Barris", "Sants-Montjuïc"] }
  ],
  [
    "ES",
    "es",
    "health",
    "Institut Català de la Salut",
    "Barcelona",
    "ES511",
    "cat",
    { site: "Hospital Universitari Vall d'Hebron", short: "Institut Català de la Salut" }
  ],
  [
    "ES",
    "es",
    "city",
    "Ayuntamiento de Valencia",
    "València",
    "ES523",
    "placsp",
    { districts: ["Benimaclet", "Campanar", "Russafa"] }
  ],
  [
    "ES",
    "es",
    "health",
    "Servicio Andaluz de Salud – Hospital Universitario Virgen del Rocío",
    "Sevilla",
    "ES618",
    "placsp",
    { site: "Hospital Universitario Virgen del Rocío", short: "Servicio Andaluz de Salud" }
  ],
  ["ES", "es", "transport", "Metro de Madrid, S.A.", "Madrid", "ES300", "placsp", {}],
  [
    "ES",
    "es",
    "city",
    "Ayuntamiento de Zaragoza",
    "Zaragoza",
    "ES243",
    "placsp",
    { districts: ["Delicias", "Actur-Rey Fernando", "Torrero"] }
  ],
  [
    "ES",
    "es",
    "roads",
    "Consejería de Movilidad del Principado de Asturias",
    "Oviedo",
    "ES120",
    "placsp",
    { places: ["Mieres", "Langreo", "Avilés", "Grado"], roads: ["AS-17", "AS-112", "AS-15"] }
  ],
  [
    "IT",
    "it",
    "city",
    "Roma Capitale – Dipartimento Sviluppo Infrastrutture e Manutenzione Urbana",
    "Roma",
    "ITI43",
    "mepa",
    {}
  ],
  ["IT", "it", "city", "Comune di Milano", "Milano", "ITC4C", "sintel", {}],
  ["IT", "it", "health", "ATS della Città Metropolitana di Milano", "Milano", "ITC4C", "sintel", {}],
  [
    "IT",
    "it",
    "health",
    "Azienda Ospedaliero-Universitaria Careggi",
    "Firenze",
    "ITI14",
    "start",
    { site: "presidio ospedaliero di Careggi" }
  ],
  [
    "IT",
    "it",
    "healthcentral",
    "ESTAR – Ente di Supporto Tecnico Amministrativo Regionale",
    "Firenze",
    "ITI14",
    "start",
    {}
  ],
  [
    "IT",
    "it",
    "roads",
    "Città metropolitana di Torino – Direzione Viabilità",
    "Torino",
    "ITC11",
    "mepa",
    { roadNums: [23, 24, 460, 589], places: ["Pinerolo", "Chieri", "Ivrea", "Rivarolo Canavese", "Lanzo Torinese"] }
  ],
  ["IT", "it", "health", "Azienda Sanitaria Locale Napoli 1 Centro", "Napoli", "ITF33", "mepa", {}],
  ["IT", "it", "city", "Comune di Bologna", "Bologna", "ITH55", "intercent", {}],
  ["IT", "it", "uni", "Università degli Studi di Padova", "Padova", "ITH36", "mepa", {}],
  ["IT", "it", "city", "Comune di Verona", "Verona", "ITH31", "mepa", {}],
  ["PL", "pl", "roads", "Zarząd Dróg Miejskich w Warszawie", "Warszawa", "PL911", "ezam", { urban: true }],
  ["PL", "pl", "city", "Gmina Miejska Kraków – Zarząd Inwestycji Miejskich w Krakowie", "Kraków", "PL213", "pzp", {}],
  ["PL", "pl", "health", "Uniwersyteckie Centrum Kliniczne w Gdańsku", "Gdańsk", "PL634", "pzp", {}],
  [
    "PL",
    "pl",
    "roads",
    "Generalna Dyrekcja Dróg Krajowych i Autostrad Oddział w Poznaniu",
    "Poznań",
    "PL415",
    "ezam",
    { roadNums: [5, 11, 92, 15], places: ["Swarzędz", "Kórnik", "Śrem", "Gniezno", "Września"] }
  ],
  [
    "PL",
    "pl",
    "transport",
    "Miejskie Przedsiębiorstwo Komunikacyjne we Wrocławiu sp. z o.o.",
    "Wrocław",
    "PL514",
    "pzp",
    {}
  ],
  ["PL", "pl", "health", "Szpital Uniwersytecki w Krakowie", "Kraków", "PL213", "pzp", {}],
  ["PL", "pl", "city", "Gmina Lublin", "Lublin", "PL814", "ezam", {}],
  ["PL", "pl", "city", "Miasto Łódź – Zarząd Inwestycji Miejskich", "Łódź", "PL711", "ezam", {}],
  [
    "NL",
    "nl",
    "city",
    "Gemeente Amsterdam",
    "Amsterdam",
    "NL329",
    "tenderned",
    { districts: ["Amsterdam-Noord", "Nieuw-West", "IJburg"] }
  ],
  [
    "NL",
    "nl",
    "city",
    "Gemeente Rotterdam",
    "Rotterdam",
    "NL33C",
    "tenderned",
    { districts: ["Feijenoord", "Rotterdam-Zuid", "Kralingen"] }
  ],
  [
    "NL",
    "nl",
    "roads",
    "Rijkswaterstaat",
    "Utrecht",
    "NL310",
    "tenderned",
    { roadNums: [2, 12, 27, 28], places: ["Utrecht", "Amersfoort", "Hoevelaken", "Everdingen", "Gorinchem"] }
  ],
  ["NL", "nl", "health", "Universitair Medisch Centrum Utrecht", "Utrecht", "NL310", "tenderned", {}],
  [
    "NL",
    "nl",
    "city",
    "Gemeente Eindhoven",
    "Eindhoven",
    "NL414",
    "tenderned",
    { districts: ["Woensel-Noord", "Strijp", "Meerhoven"] }
  ],
  [
    "NL",
    "nl",
    "city",
    "Gemeente Den Haag",
    "Den Haag",
    "NL332",
    "tenderned",
    { districts: ["Escamp", "Laak", "Leidschenveen"] }
  ],
  ["BE", "fr", "city", "Ville de Bruxelles", "Bruxelles", "BE100", "bosa", {}],
  ["BE", "nl", "city", "Stad Antwerpen", "Antwerpen", "BE211", "bosa", { districts: ["Berchem", "Deurne", "Hoboken"] }],
  [
    "BE",
    "nl",
    "city",
    "Stad Gent",
    "Gent",
    "BE234",
    "bosa",
    { districts: ["Gentbrugge", "Ledeberg", "Sint-Amandsberg"] }
  ],
  ["BE", "nl", "uni", "Universiteit Gent", "Gent", "BE234", "bosa", {}],
  ["BE", "fr", "city", "Ville de Liège", "Liège", "BE332", "bosa", {}],
  [
    "BE",
    "fr",
    "roads",
    "SPW Mobilité et Infrastructures",
    "Namur",
    "BE352",
    "bosa",
    { places: ["Andenne", "Gembloux", "Dinant", "Ciney"] }
  ],
  [
    "AT",
    "de",
    "estate",
    "Stadt Wien – Wiener Wohnen",
    "Wien",
    "AT130",
    "vergabeportal",
    { districts: ["Wien-Favoriten", "Wien-Floridsdorf", "Wien-Donaustadt"], site: "Wohnhausanlage Rennbahnweg" }
  ],
  ["AT", "de", "central", "Bundesbeschaffung GmbH", "Wien", "AT130", "vergabeportal", {}],
  [
    "AT",
    "de",
    "roads",
    "Land Steiermark, Abteilung 16 Verkehr und Landeshochbau",
    "Graz",
    "AT221",
    "vergabeportal",
    {
      places: ["Leoben", "Bruck an der Mur", "Kapfenberg", "Gleisdorf"],
      roads: ["B 67", "B 70", "B 115"],
      meisterei: true
    }
  ],
  [
    "AT",
    "de",
    "health",
    "Tirol Kliniken GmbH",
    "Innsbruck",
    "AT332",
    "vergabeportal",
    { site: "Landeskrankenhaus Innsbruck" }
  ],
  [
    "AT",
    "de",
    "utility",
    "LINZ AG für Energie, Telekommunikation, Verkehr und Kommunale Dienste",
    "Linz",
    "AT312",
    "vergabeportal",
    {}
  ],
  ["IE", "en", "city", "Dublin City Council", "Dublin", "IE061", "etenders", { site: "Civic Offices, Wood Quay" }],
  [
    "IE",
    "en",
    "roads",
    "Cork County Council",
    "Cork",
    "IE053",
    "etenders",
    { roadNums: [22, 71, 25, 20], places: ["Ballincollig", "Macroom", "Bandon", "Mallow", "Fermoy"] }
  ],
  ["IE", "en", "healthcentral", "Health Service Executive (HSE)", "Dublin", "IE061", "etenders", {}],
  [
    "IE",
    "en",
    "roads",
    "Transport Infrastructure Ireland",
    "Dublin",
    "IE061",
    "etenders",
    { places: ["Ballyvourney", "Macroom", "Adare", "Foynes"], roadNums: [22, 69, 21] }
  ],
  ["IE", "en", "city", "Galway City Council", "Galway", "IE042", "etenders", { site: "Galway City Museum" }],
  ["IE", "en", "uni", "University College Dublin", "Dublin", "IE061", "etenders", { site: "Belfield Campus" }],
  ["IE", "en", "central", "Office of Government Procurement", "Dublin", "IE061", "etenders", {}],
  [
    "IE",
    "en",
    "city",
    "Limerick City and County Council",
    "Limerick",
    "IE051",
    "etenders",
    { site: "Limerick City Library" }
  ],
  [
    "PT",
    "pt",
    "city",
    "Câmara Municipal de Lisboa",
    "Lisboa",
    "PT170",
    "base",
    { districts: ["Alvalade", "Arroios", "Marvila", "Benfica"] }
  ],
  [
    "PT",
    "pt",
    "city",
    "Câmara Municipal do Porto",
    "Porto",
    "PT11A",
    "base",
    { districts: ["Campanhã", "Bonfim", "Paranhos"] }
  ],
  ["PT", "pt", "health", "Unidade Local de Saúde de São João, E.P.E.", "Porto", "PT11A", "base", {}],
  [
    "PT",
    "pt",
    "roads",
    "Infraestruturas de Portugal, S.A.",
    "Almada",
    "PT170",
    "base",
    { places: ["Abrantes", "Tomar", "Ourém", "Leiria"], roadNums: [110, 113, 356] }
  ],
  ["PT", "pt", "uni", "Universidade de Coimbra", "Coimbra", "PT16E", "base", {}],
  [
    "PT",
    "pt",
    "healthcentral",
    "SPMS – Serviços Partilhados do Ministério da Saúde, E.P.E.",
    "Lisboa",
    "PT170",
    "base",
    {}
  ],
  ["CZ", "cs", "city", "Hlavní město Praha", "Praha", "CZ010", "ezak:zakazky.praha.eu", {}],
  ["CZ", "cs", "city", "Statutární město Brno", "Brno", "CZ064", "ezak:ezak.brno.cz", {}],
  [
    "CZ",
    "cs",
    "roads",
    "Ředitelství silnic a dálnic s. p.",
    "Praha",
    "CZ010",
    "nen",
    { roadNums: [43, 23, 52], places: ["Kuřim", "Tišnov", "Blansko", "Pohořelice", "Rajhrad"] }
  ],
  ["CZ", "cs", "health", "Fakultní nemocnice Ostrava", "Ostrava", "CZ080", "ezak:zakazky.fno.cz", {}],
  [
    "CZ",
    "cs",
    "transport",
    "Dopravní podnik hl. m. Prahy, akciová společnost",
    "Praha",
    "CZ010",
    "ezak:zakazky.dpp.cz",
    {}
  ],
  ["CZ", "cs", "uni", "Masarykova univerzita", "Brno", "CZ064", "ezak:zakazky.muni.cz", {}],
  ["RO", "ro", "city", "Municipiul Cluj-Napoca", "Cluj-Napoca", "RO113", "seap", {}],
  ["RO", "ro", "health", "Spitalul Clinic Județean de Urgență Cluj", "Cluj-Napoca", "RO113", "seap", {}],
  [
    "RO",
    "ro",
    "roads",
    "Compania Națională de Administrare a Infrastructurii Rutiere S.A.",
    "București",
    "RO321",
    "seap",
    { roadNums: ["1", "1C", "1F"], places: ["Cluj-Napoca", "Dej", "Gherla", "Zalău", "Huedin"] }
  ],
  ["RO", "ro", "city", "Municipiul Timișoara", "Timișoara", "RO424", "seap", {}],
  ["RO", "ro", "uni", "Universitatea „Alexandru Ioan Cuza” din Iași", "Iași", "RO213", "seap", {}],
  ["RO", "ro", "city", "Municipiul Brașov", "Brașov", "RO122", "seap", {}],
  ["SE", "sv", "roads", "Stockholms stad, Trafikkontoret", "Stockholm", "SE110", "tendsign", { urban: true }],
  ["SE", "sv", "healthcentral", "Region Skåne", "Malmö", "SE224", "tendsign", {}],
  [
    "SE",
    "sv",
    "estate",
    "Göteborgs Stad, Lokalförvaltningen",
    "Göteborg",
    "SE232",
    "kommers",
    { districts: ["Angered", "Biskopsgården", "Majorna"] }
  ],
  ["SE", "sv", "uni", "Uppsala universitet", "Uppsala", "SE121", "tendsign", {}],
  ["SE", "sv", "city", "Umeå kommun", "Umeå", "SE331", "kommers", { districts: ["Ersboda", "Holmsund", "Tomtebo"] }],
  ["SE", "sv", "transport", "Västtrafik AB", "Göteborg", "SE232", "tendsign", {}],
  ["DK", "da", "city", "Københavns Kommune", "København", "DK011", "mercell", {}],
  ["DK", "da", "healthcentral", "Region Hovedstaden", "Hillerød", "DK013", "mercell", {}],
  ["DK", "da", "city", "Aarhus Kommune", "Aarhus", "DK042", "mercell", {}],
  ["FI", "fi", "city", "Helsingin kaupunki, Kaupunkiympäristön toimiala", "Helsinki", "FI1B1", "hilma", {}],
  ["FI", "fi", "healthcentral", "HUS-yhtymä", "Helsinki", "FI1B1", "hilma", {}],
  ["FI", "fi", "city", "Tampereen kaupunki", "Tampere", "FI197", "hilma", {}],
  [
    "NO",
    "no",
    "city",
    "Oslo kommune, Bymiljøetaten",
    "Oslo",
    "NO081",
    "doffin",
    { districts: ["Furuset", "Bjerke", "Grorud"] }
  ],
  ["NO", "no", "healthcentral", "Sykehusinnkjøp HF", "Vadsø", "NO074", "doffin", {}],
  [
    "NO",
    "no",
    "city",
    "Bergen kommune",
    "Bergen",
    "NO0A2",
    "doffin",
    { districts: ["Fyllingsdalen", "Åsane", "Laksevåg"] }
  ],
  [
    "NO",
    "no",
    "city",
    "Trondheim kommune",
    "Trondheim",
    "NO060",
    "doffin",
    { districts: ["Ranheim", "Tiller", "Byåsen"] }
  ],
  ["HU", "hu", "city", "Budapest Főváros Önkormányzata", "Budapest", "HU110", "ekr", {}],
  ["HU", "hu", "health", "Semmelweis Egyetem", "Budapest", "HU110", "ekr", {}],
  [
    "HU",
    "hu",
    "roads",
    "Magyar Közút Nonprofit Zrt.",
    "Budapest",
    "HU110",
    "ekr",
    { roadNums: [4, 6, 8, 47, 33], places: ["Cegléd", "Szolnok", "Debrecen", "Szeged", "Hódmezővásárhely"] }
  ],
  ["HU", "hu", "city", "Debrecen Megyei Jogú Város Önkormányzata", "Debrecen", "HU321", "ekr", {}],
  ["BG", "bg", "city", "Столична община", "София", "BG411", "eop", { short: "Столична община" }],
  ["BG", "bg", "health", "УМБАЛ „Св. Георги“ ЕАД", "Пловдив", "BG421", "eop", {}],
  [
    "BG",
    "bg",
    "roads",
    "Агенция „Пътна инфраструктура“",
    "София",
    "BG411",
    "eop",
    { roadNums: [86, 56, 64], places: ["Пловдив", "Асеновград", "Карлово", "Пазарджик", "Смолян"] }
  ],
  ["BG", "bg", "city", "Община Варна", "Варна", "BG331", "eop", { short: "Община Варна" }],
  ["IS", "is", "city", "Reykjavíkurborg", "Reykjavík", "IS001", "tendsign-is", {}],
  ["IS", "is", "healthcentral", "Landspítali", "Reykjavík", "IS001", "tendsign-is", {}],
  [
    "CH",
    "de",
    "roads",
    "Stadt Zürich, Tiefbauamt",
    "Zürich",
    "CH040",
    "simap",
    { districts: ["Zürich-Oerlikon", "Zürich-Altstetten"], urban: true }
  ],
  ["CH", "fr", "health", "Hôpitaux Universitaires de Genève (HUG)", "Genève", "CH013", "simap", {}],
  ["CH", "de", "city", "Kanton Basel-Stadt, Bau- und Verkehrsdepartement", "Basel", "CH031", "simap", {}],
  ["LU", "fr", "city", "Ville de Luxembourg", "Luxembourg", "LU000", "pmp", {}]
].map(([c, lang, type, name, city, nuts, plat, extra]) => ({ c, lang, type, name, city, nuts, plat, ...extra }))

const PLATFORM = {
  evergabe: () => `https://www.evergabe-online.de/tenderdetails.html?id=${int(860000, 899999)}`,
  dtvp: () => `https://www.dtvp.de/Satellite/notice/CXP4${alnum(7)}/documents`,
  nrw: () => `https://www.evergabe.nrw.de/VMPSatellite/notice/CXPN${alnum(7)}/documents`,
  place: () =>
    `https://www.marches-publics.gouv.fr/entreprise/consultation/${int(2700000, 2899999)}?orgAcronyme=${alnum(3, "abcdefghijklmnopqrstuvwxyz0123456789")}`,
  maximilien: () =>
    `https://marches.maximilien.fr/entreprise/consultation/${int(1100000, 1199999)}?orgAcronyme=${alnum(3, "abcdefghijklmnopqrstuvwxyz0123456789")}`,
  achatpublic: () =>
    `https://www.achatpublic.com/sdm/ent/gen/ent_detail.do?PCSLID=CSL_2026_${alnum(10, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")}`,
  megalis: () =>
    `https://marches.megalis.bretagne.bzh/entreprise/consultation/${int(980000, 999999)}?orgAcronyme=${alnum(3, "abcdefghijklmnopqrstuvwxyz0123456789")}`,
  placsp: () =>
    `https://contrataciondelestado.es/wps/poc?uri=deeplink:detalle_licitacion&idEvl=${alnum(20, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")}%3D%3D`,
  cat: () => `https://contractaciopublica.cat/ca/detall-publicacio/${int(300100000, 300199999)}`,
  sintel: () => `https://www.sintel.regione.lombardia.it/eprocdata/auctionDetail.xhtml?id=${int(190000000, 199999999)}`,
  start: () => `https://start.toscana.it/tendering/tenders/0${int(20000, 29999)}-2026/view/detail/1`,
  mepa: () => `https://www.acquistinretepa.it/opencms/opencms/scheda_bando.html?idBando=${hex(16)}`,
  intercent: () =>
    `https://piattaformaintercenter.regione.emilia-romagna.it/portale/index.php/bandi?layout=dettaglio&idBando=${int(180000, 199999)}`,
  ezam: () => `https://ezamowienia.gov.pl/mp-client/search/list/ocds-148610-${uuid()}`,
  pzp: () => `https://platformazakupowa.pl/transakcja/${int(1100000, 1199999)}`,
  tenderned: () => `https://www.tenderned.nl/aankondigingen/overzicht/${int(420000, 449999)}`,
  bosa: () => `https://publicprocurement.be/publication-workspaces/${uuid()}/documents`,
  vergabeportal: () => `https://vergabeportal.at/Detail/${int(190000, 209999)}`,
  etenders: () => `https://www.etenders.gov.ie/epps/cft/prepareViewCfTWS.do?resourceId=${int(6400000, 6599999)}`,
  base: () => `https://www.base.gov.pt/Base4/pt/detalhe/?type=anuncios&id=${int(720000, 769999)}`,
  nen: () => `https://nen.nipez.cz/verejne-zakazky/detail-zakazky/N006-26-V000${int(10000, 39999)}`,
  seap: () => `https://www.e-licitatie.ro/pub/notices/c-notice/v2/view/${int(100190000, 100219999)}`,
  tendsign: () => `https://tendsign.com/doc.aspx?MeFormsNoticeId=${int(110000, 129999)}`,
  kommers: () => `https://www.kommersannons.se/elite/Notice/NoticeOverview.aspx?ProcurementId=${int(560000, 599999)}`,
  mercell: () => `https://permalink.mercell.com/${int(260000000, 269999999)}.aspx`,
  hilma: () =>
    `https://www.hankintailmoitukset.fi/fi/public/procedure/${int(180000, 199999)}/enotice/${int(250000, 279999)}/`,
  doffin: () => `https://doffin.no/notices/2026-${int(110000, 139999)}`,
  "tendsign-is": () => `https://tendsign.is/doc.aspx?MeFormsNoticeId=${int(30000, 39999)}`,
  simap: () => `https://www.simap.ch/de/project-detail/${uuid()}`,
  ekr: () => `https://ekr.gov.hu/portal/kozbeszerzes/eljarasok/EKR00${int(1400000, 1899999)}2026`,
  eop: () => `https://app.eop.bg/today/${int(560000, 599999)}`,
  pmp: () =>
    `https://pmp.b2g.etat.lu/entreprise/consultation/${int(1100000, 1199999)}?orgAcronyme=${alnum(3, "abcdefghijklmnopqrstuvwxyz0123456789")}`
}
const platformUrl = (plat) =>
  plat.startsWith("ezak:") ? `https://${plat.slice(5)}/contract_display_${int(1200, 9999)}.html` : PLATFORM[plat]()

// ---------------------------------------------------------------- statuses and dates (all sources)
// Per source: exact status quotas; open/amended deadlines: 8 within 24 h after the anchor, a few
// without deadline, 3 open-status ones already past (the service treats those as not open).
const statusPlan = (n, { amended, cancelled, closed, closedNoDeadline = 0, noDeadline = 3 }) => {
  const open = n - amended - cancelled - closed
  const live = [...Array(open).fill("open"), ...Array(amended).fill("amended")]
  const kinds = live.map((status, i) => {
    if (i < 7 || i === open) return "soon" // 7 open + 1 amended
    if (i >= 7 && i < 10) return "pastOpen"
    if ((i >= 10 && i < 10 + noDeadline) || i === open + 1) return "none"
    return "future"
  })
  const plan = live.map((status, i) => ({ status, dl: kinds[i] }))
  for (let i = 0; i < closed; i++) plan.push({ status: "closed", dl: i < closedNoDeadline ? "none" : "past" })
  for (let i = 0; i < cancelled; i++) plan.push({ status: "cancelled", dl: i % 5 < 3 ? "future" : "past" })
  return shuffle(plan)
}

const futureDays = () =>
  weighted([
    [[2, 7], 15],
    [[8, 20], 35],
    [[21, 40], 35],
    [[41, 60], 15]
  ])
const makeDeadline = (kind, zone, times, weekdaysOnly) => {
  if (kind === "none") return null
  for (let attempt = 0; attempt < 500; attempt++) {
    let k
    if (kind === "soon") k = pick([0, 0, 0, 1])
    else if (kind === "future") k = int(...futureDays())
    else if (kind === "past") k = -int(1, 25)
    else k = -int(1, 6)
    const wd = weekday(A + k * DAY)
    if (weekdaysOnly && kind !== "soon" && (wd === 0 || wd === 6) && !chance(0.04)) continue
    const utc = localToUtc(k, hms(pick(times)), zone)
    if (kind === "soon" && !(utc >= A && utc < A + DAY)) continue
    if (kind === "future" && utc < A + DAY) continue
    if ((kind === "past" || kind === "pastOpen") && utc >= A - HOUR) continue
    return utc
  }
  throw new Error(`cannot place a ${kind} deadline`)
}
// publishedAt: 2–40 calendar days before the anchor date; pubTime(k) gives the instant on day -k.
const makePublished = (deadline, pubTime, [minDays, maxDays], weekdayShare) => {
  const days = shuffle(Array.from({ length: 39 }, (_, i) => i + 2)).filter((k) => {
    const wd = weekday(A - k * DAY)
    return !(wd === 0 || wd === 6) || rand() > weekdayShare
  })
  const tiers = [
    (u) => deadline === null || (deadline - u >= minDays * DAY && deadline - u <= maxDays * DAY),
    (u) => deadline === null || deadline - u >= minDays * DAY,
    (u) => deadline === null || deadline - u >= 2 * DAY
  ]
  for (const ok of tiers) {
    for (const k of days) {
      const u = pubTime(k)
      if (u <= A - DAY && u >= A - 40 * DAY && ok(u)) return { utc: u, k }
    }
  }
  throw new Error("cannot place publishedAt")
}

// Budget for one record (and its lots). Returns strings; lots get null budgets when `lotBudgets` is false.
const makeBudget = ({ hasBudget, major, dp, vat, style, lotCount, lotBudgets }) => {
  if (!hasBudget) return { budget: null, lotValues: Array(lotCount).fill(null) }
  if (lotCount > 1) {
    const { parts, total } = splitAmounts(major, lotCount, dp, vat, style)
    return { budget: fmtAmount(total, dp), lotValues: parts.map((p) => (lotBudgets ? fmtAmount(p, dp) : null)) }
  }
  const total = niceAmount(major, dp, vat, style)
  return { budget: fmtAmount(total, dp), lotValues: Array(lotCount).fill(lotBudgets ? fmtAmount(total, dp) : null) }
}
const budgetStyle = () =>
  weighted([
    ["round", 55],
    ["net", 30],
    ["odd", 15]
  ])

const tokensOf = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1])
const canFill = (text, ctx) => tokensOf(text).every((t) => ctx[t] !== undefined && ctx[t] !== null)

// A record in the import format: exactly these keys, in this order.
const record = (r) => ({
  id: r.id,
  source: r.source,
  nativeId: r.nativeId,
  title: r.title,
  buyer: r.buyer,
  country: r.country,
  region: r.region,
  budget: r.budget,
  currency: r.currency,
  deadline: r.deadline === null ? null : iso(r.deadline),
  publishedAt: r.publishedAt === null ? null : iso(r.publishedAt),
  status: r.status,
  url: r.url,
  cpvCodes: r.cpvCodes,
  okpd2Codes: r.okpd2Codes,
  lots: r.lots,
  docsUrl: r.docsUrl
})

// ---------------------------------------------------------------- TED
const TED_DEADLINE_TIMES = [
  "10:00",
  "12:00",
  "11:00",
  "09:00",
  "14:00",
  "10:30",
  "13:00",
  "15:00",
  "23:59:59",
  "12:00",
  "10:00",
  "16:00"
]
const weekdaysSinceNewYear = (dayMs) => {
  let n = 0
  for (let d = Date.UTC(2026, 0, 1); d <= dayMs; d += DAY) if (weekday(d) !== 0 && weekday(d) !== 6) n++
  return n
}

const tedContext = (buyer, L) => {
  const streets = shuffle(L.streets)
  const schools = shuffle(L.schools)
  const places = shuffle(buyer.places ?? [])
  const road = buyer.roads ? pick(buyer.roads) : undefined
  const townish = buyer.type !== "roads" || buyer.urban === true
  return {
    city: buyer.city,
    town: townish ? buyer.city : undefined,
    street: townish ? streets[0] : undefined,
    street2: streets[1],
    street3: streets[2],
    school: schools[0],
    school2: schools[1] ?? schools[0],
    district: buyer.districts ? pick(buyer.districts) : undefined,
    road,
    landroad: road && /^[BLK] /.test(road) ? road : undefined,
    from: places[0],
    to: places[1],
    landfrom: buyer.meisterei ? places[0] : undefined,
    ameister: buyer.autobahn ? places[0] : undefined,
    rn: buyer.roadNums ? pick(buyer.roadNums) : undefined,
    n: int(2, 98),
    year: 2027,
    year2: pick([2028, 2029]),
    year3: 2030,
    season: "2026/2027",
    site: buyer.site,
    buyerShort: buyer.short
  }
}

const buildTed = (plan) => {
  const countries = shuffle(Object.entries(COUNTRY).flatMap(([c, m]) => Array(m.n).fill(c)))
  if (countries.length !== plan.length) throw new Error(`TED: ${countries.length} countries for ${plan.length} plans`)
  const queues = {}
  const nextBuyer = (c) => {
    if (!queues[c] || queues[c].length === 0) queues[c] = shuffle(TED_BUYERS.filter((b) => b.c === c))
    return queues[c].pop()
  }
  const titles = new Set()
  const ids = new Set()
  let bgnLeft = 2
  return plan.map((p, idx) => {
    const c = countries[idx]
    const meta = COUNTRY[c]
    let buyer, L, topic, tpl, proc, title
    for (let attempt = 0; attempt < 60; attempt++) {
      buyer = attempt % 6 === 0 || !buyer ? nextBuyer(c) : buyer
      L = LANG[buyer.lang]
      const topicWeights = Object.entries(TYPE_TOPICS[buyer.type])
        .filter(([t]) => L.topics[t])
        .map(([t, w]) => [t, DEMO_TOPICS.has(t) ? w * 2 : w])
      topic = weighted(topicWeights)
      const ctx = tedContext(buyer, L)
      const tpls = L.topics[topic].map(splitTpl).filter((t) => canFill(t.text, ctx))
      if (tpls.length === 0) continue
      tpl = pick(tpls)
      proc = fill(tpl.text, ctx)
      const main = tpl.codes ? tpl.codes[0] : TOPIC_CPV[topic]
      title = `${meta.en} – ${CPV[main]} – ${proc}`
      if (!titles.has(title)) break
    }
    titles.add(title)
    const mainCpv = tpl.codes ? tpl.codes[0] : TOPIC_CPV[topic]

    // lots
    const lotDefs = L.lots[topic]
    const multi = tpl.lots && lotDefs && lotDefs.length >= 2 && chance(0.45)
    // Works split by trade always keep the main trade (first entry) as lot 1.
    const keepFirst = topic === "road" || topic === "school"
    const pool = lotDefs ? lotDefs.map((d, i) => [...d, i]) : []
    const chosen = multi
      ? (keepFirst
          ? [pool[0], ...sample(pool.slice(1), int(1, Math.min(5, pool.length - 1)))]
          : sample(pool, int(2, Math.min(6, pool.length)))
        ).sort((a, b) => a[2] - b[2])
      : [[proc, mainCpv]]
    const prefixed = multi && chance(0.6)
    let currency = meta.cur
    if (c === "BG" && bgnLeft > 0) {
      currency = "BGN"
      bgnLeft--
    }
    const dp = DECIMALS[currency] ?? 2
    const [lo, hi] = TOPIC_EUR[topic]
    const { budget, lotValues } = makeBudget({
      hasBudget: !chance(0.15),
      major: logUniform(lo, hi) * SIZE_RATE[currency],
      dp,
      vat: meta.vat,
      style: budgetStyle(),
      lotCount: chosen.length,
      lotBudgets: !(multi && chance(0.2))
    })
    const lots = chosen.map(([name, cpv], i) => ({
      title: prefixed ? fill(L.lot, { i: i + 1 }) + name : name,
      budget: lotValues[i],
      currency: lotValues[i] === null ? null : currency,
      cpvCodes: [cpv]
    }))

    // dates and identity
    const zone = ZONE[meta.zone]
    const deadline = makeDeadline(p.dl, zone, TED_DEADLINE_TIMES, true)
    const pub = makePublished(deadline, (k) => localToUtc(-k, [0, 0, 0], ZONE.CET), [12, 52], 1)
    let nativeId
    do {
      nativeId = `${Math.floor(weekdaysSinceNewYear(A - pub.k * DAY) * 3360) + int(0, 3359)}-2026`
    } while (ids.has(nativeId))
    ids.add(nativeId)
    const pdf = `https://ted.europa.eu/en/notice/${nativeId}/pdf`
    const docsRoll = rand()
    const docsUrl =
      docsRoll < 0.7 ? [platformUrl(buyer.plat)] : docsRoll < 0.85 ? [platformUrl(buyer.plat), pdf] : [pdf]

    return record({
      id: `ted-${nativeId}`,
      source: "ted",
      nativeId,
      title,
      buyer: buyer.name,
      country: c,
      region: chance(0.03) ? null : buyer.nuts,
      budget,
      currency: budget === null ? null : currency,
      deadline,
      publishedAt: pub.utc,
      status: p.status,
      url: `https://ted.europa.eu/en/notice/-/detail/${nativeId}`,
      cpvCodes: uniq([mainCpv, ...lots.flatMap((l) => l.cpvCodes)]),
      okpd2Codes: [],
      lots,
      docsUrl
    })
  })
}

// ---------------------------------------------------------------- gnumner (Armenia)
const HY_LATIN = {
  ա: "a",
  բ: "b",
  գ: "g",
  դ: "d",
  ե: "e",
  զ: "z",
  է: "e",
  ը: "y",
  թ: "t",
  ժ: "zh",
  ի: "i",
  լ: "l",
  խ: "kh",
  ծ: "ts",
  կ: "k",
  հ: "h",
  ձ: "dz",
  ղ: "gh",
  ճ: "ch",
  մ: "m",
  յ: "y",
  ն: "n",
  շ: "sh",
  ո: "o",
  չ: "ch",
  պ: "p",
  ջ: "j",
  ռ: "r",
  ս: "s",
  վ: "v",
  տ: "t",
  ր: "r",
  ց: "ts",
  ւ: "v",
  փ: "p",
  ք: "k",
  և: "ev",
  օ: "o",
  ֆ: "f"
}
// "ՀՀ ՖՆ ԷԱՃԱՊՁԲ-26/15" -> "hh-fn-eachapdzb-26-15"
const armenianSlug = (code) =>
  code
    .normalize("NFC")
    .toLocaleLowerCase("hy")
    .replace(/ու/g, "u")
    .replace(/./gu, (ch) => HY_LATIN[ch] ?? ch)
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
// Genitive + "for the needs of": "ՀՀ ֆինանսների նախարարություն" -> "ՀՀ ֆինանսների նախարարության կարիքների համար"
const hyNeeds = (name) => {
  let gen
  if (name.endsWith("ություն")) gen = `${name.slice(0, -"ություն".length)}ության`
  else if (name.endsWith("ՓԲԸ") || name.endsWith("»")) gen = `${name}-ի`
  else gen = `${name}ի`
  return `${gen} կարիքների համար`
}

const HY_STREETS = [
  "Մաշտոցի փողոց",
  "Գարեգին Նժդեհի փողոց",
  "Երիտասարդական փողոց",
  "Անկախության փողոց",
  "Խանջյան փողոց",
  "Կենտրոնական փողոց",
  "Շահումյան փողոց",
  "Իսահակյան փողոց"
]
const HY_TOPICS = {
  road: {
    kind: "works",
    cpv: "45233142",
    amd: [30e6, 2.5e9],
    tpls: [
      "{c}Ներհամայնքային ճանապարհների ասֆալտապատման աշխատանքներ|45233222*",
      "{c}Համայնքի փողոցների ընթացիկ նորոգման աշխատանքներ",
      "{cityGen} փողոցների ասֆալտբետոնե ծածկի նորոգման աշխատանքներ",
      "Երևան քաղաքի {streetGen} ասֆալտբետոնե ծածկի հիմնանորոգման աշխատանքներ|45233142",
      "Միջպետական նշանակության {mroad} ավտոճանապարհի կմ{km1}-կմ{km2} հատվածի հիմնանորոգման աշխատանքներ|45233140",
      "Հանրապետական նշանակության Հ-{hroad} ավտոճանապարհի վերանորոգման աշխատանքներ|45233142",
      "Ճանապարհային նշանների տեղադրման և գծանշման աշխատանքներ|45233290"
    ],
    lots: HY_STREETS.map((s) => [s, "45233142"])
  },
  school: {
    kind: "works",
    cpv: "45453000",
    amd: [40e6, 900e6],
    tpls: [
      "{schoolGen} շենքի հիմնանորոգման աշխատանքներ",
      "{schoolGen} տանիքի վերանորոգման աշխատանքներ|45261210",
      "{schoolGen} մարզադահլիճի վերանորոգման աշխատանքներ",
      "{schoolGen} շենքի սեյսմիկ ուժեղացման աշխատանքներ",
      "{kgGen} շենքի էներգաարդյունավետ վերանորոգման աշխատանքներ"
    ],
    lots: [
      ["Ընդհանուր շինարարական աշխատանքներ", "45453000"],
      ["Տանիքի վերանորոգում", "45261210"],
      ["Ջեռուցման համակարգի տեղադրում", "45331100"],
      ["Էլեկտրամոնտաժային աշխատանքներ", "45310000"],
      ["Պատուհանների և դռների փոխարինում", "45421100"]
    ]
  },
  medicines: {
    kind: "goods",
    cpv: "33600000",
    amd: [5e6, 450e6],
    tpls: [
      "Դեղորայքի ձեռքբերում",
      "Դեղորայքի և բժշկական նշանակության ապրանքների ձեռքբերում",
      "Հակաուռուցքային դեղերի ձեռքբերում|33652000",
      "Ինսուլինի պատրաստուկների ձեռքբերում|33615100",
      "Հակաբիոտիկների ձեռքբերում|33651000"
    ],
    lots: [
      ["Պարացետամոլ, դեղահատ 500 մգ", "33661000"],
      ["Ամօքսիցիլին, դեղապատիճ 500 մգ", "33651000"],
      ["Ցեֆտրիաքսոն, փոշի ներարկման լուծույթի 1 գ", "33651000"],
      ["Մետֆորմին, դեղահատ 850 մգ", "33615000"],
      ["Նատրիումի քլորիդ, լուծույթ 0,9% 500 մլ", "33692000"],
      ["Էնօքսապարին նատրիում, ներարկման լուծույթ 40 մգ/0,4 մլ", "33621000"],
      ["Օմեպրազոլ, դեղապատիճ 20 մգ", "33610000"],
      ["Ինսուլին գլարգին 100 ՄՄ/մլ", "33615100"]
    ]
  },
  vaccines: {
    kind: "goods",
    cpv: "33651600",
    amd: [50e6, 1.5e9],
    tpls: ["Պատվաստանյութերի ձեռքբերում", "Ազգային պատվաստումների օրացույցով նախատեսված պատվաստանյութերի ձեռքբերում"]
  },
  meddev: {
    kind: "goods",
    cpv: "33140000",
    amd: [5e6, 300e6],
    tpls: [
      "Բժշկական նշանակության ապրանքների ձեռքբերում",
      "Միանգամյա օգտագործման ներարկիչների և ձեռնոցների ձեռքբերում|33141310*",
      "Ուլտրաձայնային հետազոտության սարքի ձեռքբերում|33112000",
      "Բժշկական սարքավորումների ձեռքբերում|33100000"
    ],
    lots: [
      ["Ներարկիչ 5 մլ, միանգամյա օգտագործման", "33141310"],
      ["Ներարկիչ 10 մլ, միանգամյա օգտագործման", "33141310"],
      ["Ձեռնոցներ զննման, ոչ ստերիլ", "18424300"],
      ["Բինտ ստերիլ 7 մ x 14 սմ", "33141110"],
      ["Բամբակ բժշկական 100 գ", "33141110"]
    ]
  },
  lab: {
    kind: "goods",
    cpv: "33696500",
    amd: [10e6, 200e6],
    tpls: [
      "Լաբորատոր ռեագենտների ձեռքբերում",
      "Կլինիկական լաբորատորիայի համար ռեագենտների և սպառվող նյութերի ձեռքբերում"
    ]
  },
  it: {
    kind: "goods",
    cpv: "30213000",
    amd: [2e6, 150e6],
    tpls: [
      "Համակարգչային տեխնիկայի ձեռքբերում",
      "Համակարգիչների, մոնիտորների և տպիչների ձեռքբերում",
      "HP LaserJet տպիչների քարթրիջների ձեռքբերում|30125100",
      "Նոութբուքերի ձեռքբերում|30213100",
      "Ցանցային սարքավորումների ձեռքբերում|32420000",
      "Սերվերային սարքավորումների ձեռքբերում|48820000"
    ],
    lots: [
      ["Համակարգչային համալիր (համակարգչային բլոկ, մոնիտոր, ստեղնաշար, մկնիկ)", "30213300"],
      ["Նոութբուք", "30213100"],
      ["Մոնիտոր 24 դյույմ", "30231300"],
      ["Լազերային տպիչ HP LaserJet Pro", "30232110"],
      ["Բազմաֆունկցիոնալ սարք (տպիչ, պատճենահանող, սկաներ)", "30232110"],
      ["Անխափան սնուցման սարք (UPS)", "31154000"],
      ["Պրոյեկտոր", "38652100"]
    ]
  },
  software: {
    kind: "goods",
    cpv: "48000000",
    amd: [3e6, 60e6],
    tpls: [
      "Microsoft Office ծրագրային ապահովման լիցենզիաների ձեռքբերում|48310000",
      "Kaspersky Endpoint Security հակավիրուսային ծրագրի լիցենզիաների ձեռքբերում|48761000",
      "Հաշվապահական հաշվառման ծրագրի սպասարկման ծառայությունների ձեռքբերում|72267000|services"
    ]
  },
  cleaning: {
    kind: "services",
    cpv: "90910000",
    amd: [3e6, 80e6],
    tpls: [
      "Վարչական շենքի մաքրման ծառայությունների ձեռքբերում|90919200",
      "Մաքրման ծառայությունների ձեռքբերում",
      "Աղբահանության և սանիտարական մաքրման ծառայությունների ձեռքբերում|90511000",
      "Դպրոցների մաքրման ծառայությունների ձեռքբերում|90919300"
    ]
  },
  hcleaning: {
    kind: "services",
    cpv: "90911200",
    amd: [10e6, 120e6],
    tpls: [
      "Հիվանդանոցային տարածքների սանիտարական մաքրման ծառայությունների ձեռքբերում",
      "Մաքրման և ախտահանման ծառայությունների ձեռքբերում"
    ]
  },
  fuel: {
    kind: "goods",
    cpv: "09100000",
    amd: [2e6, 200e6],
    tpls: [
      "Ավտոմեքենաների համար վառելիքի ձեռքբերում",
      "Բենզինի և դիզելային վառելիքի ձեռքբերում|09132100*",
      "Վառելիքի կտրոնների ձեռքբերում|30163100*",
      "Բնական գազի ձեռքբերում|09123000"
    ],
    lots: [
      ["Բենզին ռեգուլյար", "09132100"],
      ["Բենզին պրեմիում", "09132100"],
      ["Դիզելային վառելիք", "09134100"],
      ["Սեղմված բնական գազ", "09123000"]
    ]
  },
  food: {
    kind: "goods",
    cpv: "15000000",
    amd: [3e6, 80e6],
    tpls: ["Սննդամթերքի ձեռքբերում", "Մանկապարտեզների համար սննդամթերքի ձեռքբերում", "Հացամթերքի ձեռքբերում|15811100"],
    lots: [
      ["Հաց", "15811100"],
      ["Կաթ", "15511000"],
      ["Տավարի միս", "15111100"],
      ["Հավի միս", "15112130"],
      ["Բրինձ", "03211300"],
      ["Հնդկաձավար", "03211900"],
      ["Թարմ բանջարեղեն", "03221000"],
      ["Մրգեր", "03222000"]
    ]
  },
  stationery: {
    kind: "goods",
    cpv: "30192700",
    amd: [1e6, 20e6],
    tpls: [
      "Գրենական պիտույքների ձեռքբերում",
      "Տպագրական թղթի ձեռքբերում|30197630",
      "Գրասենյակային ապրանքների ձեռքբերում"
    ],
    lots: [
      ["Գրենական պիտույքներ", "30192700"],
      ["Տպագրական թուղթ A4", "30197630"],
      ["Գնդիկավոր գրիչներ", "30192121"],
      ["Թղթապանակներ", "22852000"]
    ]
  },
  furniture: {
    kind: "goods",
    cpv: "39130000",
    amd: [2e6, 60e6],
    tpls: ["Գրասենյակային կահույքի ձեռքբերում", "Դպրոցական կահույքի ձեռքբերում|39160000"]
  },
  guard: {
    kind: "services",
    cpv: "79713000",
    amd: [5e6, 90e6],
    tpls: [
      "Պահպանության ծառայությունների ձեռքբերում",
      "Շենքերի և տարածքների ֆիզիկական պահպանության ծառայությունների ձեռքբերում"
    ]
  },
  vehicle: {
    kind: "services",
    cpv: "50112000",
    amd: [2e6, 30e6],
    tpls: ["Ավտոմեքենաների տեխնիկական սպասարկման և վերանորոգման ծառայությունների ձեռքբերում"]
  },
  insurance: {
    kind: "services",
    cpv: "66514110",
    amd: [1e6, 15e6],
    tpls: ["Ավտոտրանսպորտային միջոցների ապահովագրության ծառայությունների ձեռքբերում"]
  },
  lighting: {
    kind: "works",
    cpv: "45316110",
    amd: [20e6, 400e6],
    tpls: [
      "Փողոցային լուսավորության ցանցի արդիականացման աշխատանքներ",
      "Փողոցային լուսավորության LED լուսատուների ձեռքբերում|34928500|goods"
    ]
  },
  water: {
    kind: "works",
    cpv: "45232150",
    amd: [30e6, 700e6],
    tpls: [
      "Խմելու ջրի ներքին ցանցի վերակառուցման աշխատանքներ",
      "Ոռոգման ցանցի վերանորոգման աշխատանքներ|45232120",
      "Կոյուղու ցանցի վերանորոգման աշխատանքներ|45232410"
    ]
  },
  green: {
    kind: "services",
    cpv: "77310000",
    amd: [5e6, 80e6],
    tpls: ["Կանաչ տարածքների խնամքի և պահպանման ծառայությունների ձեռքբերում"]
  },
  buses: {
    kind: "goods",
    cpv: "34121000",
    amd: [150e6, 3e9],
    tpls: [
      "Ավտոբուսների ձեռքբերում",
      "Աղբատար մեքենաների ձեռքբերում|34144511",
      "Էլեկտրական ավտոբուսների ձեռքբերում|34144900"
    ]
  },
  winter: {
    kind: "services",
    cpv: "90620000",
    amd: [10e6, 250e6],
    tpls: [
      "Ավտոճանապարհների ձմեռային պահպանման ծառայությունների ձեռքբերում",
      "Ձյան մաքրման և հակասառցային նյութերով մշակման ծառայությունների ձեռքբերում"
    ]
  },
  solar: {
    kind: "works",
    cpv: "09332000",
    amd: [20e6, 300e6],
    tpls: ["Ֆոտովոլտային կայանի տեղադրման աշխատանքներ", "Արևային ֆոտովոլտային կայանների կառուցման աշխատանքներ"]
  },
  printing: { kind: "services", cpv: "79810000", amd: [1e6, 20e6], tpls: ["Տպագրական ծառայությունների ձեռքբերում"] },
  archive: { kind: "services", cpv: "79995100", amd: [2e6, 15e6], tpls: ["Արխիվացման ծառայությունների ձեռքբերում"] }
}
const HY_TYPE_TOPICS = {
  city: {
    road: 4,
    school: 3,
    cleaning: 2,
    fuel: 2,
    it: 2,
    food: 2,
    lighting: 1,
    water: 1,
    green: 1,
    furniture: 1,
    stationery: 1,
    buses: 1,
    winter: 1,
    solar: 1,
    insurance: 1,
    vehicle: 1
  },
  central: {
    it: 3,
    software: 2,
    fuel: 2,
    stationery: 2,
    furniture: 1,
    cleaning: 1,
    guard: 1,
    insurance: 1,
    vehicle: 1,
    printing: 1,
    archive: 1
  },
  health: { medicines: 6, meddev: 3, lab: 2, hcleaning: 1, food: 1, fuel: 1, it: 1 },
  healthcentral: { medicines: 5, vaccines: 2, meddev: 2, it: 1 },
  edu: { school: 6, furniture: 2, it: 2, fuel: 1, stationery: 1 },
  roads: { road: 7, winter: 2, fuel: 1 },
  transport: { fuel: 3, buses: 2, cleaning: 2, it: 1, guard: 1, vehicle: 1 },
  uni: { it: 3, software: 1, cleaning: 2, lab: 1, furniture: 1, stationery: 1, guard: 1, solar: 1 },
  fund: { water: 3, school: 2, road: 2, solar: 1 }
}
const HY_DEMO = new Set(["road", "school", "medicines", "it", "cleaning", "fuel"])

// [name, procurement-code buyer part, region (marz) or null, type, weight, extra]
const HY_BUYERS = [
  ["ՀՀ ֆինանսների նախարարություն", "ՀՀ ՖՆ", "Երևան", "central", 5, { sep: " " }],
  [
    "Երևանի քաղաքապետարան",
    "ԵՔ",
    "Երևան",
    "city",
    10,
    {
      streetGen: [
        "Կոմիտասի պողոտայի",
        "Բաղրամյան պողոտայի",
        "Արշակունյաց պողոտայի",
        "Րաֆֆու փողոցի",
        "Շիրազի փողոցի",
        "Բաբաջանյան փողոցի",
        "Տիգրան Մեծի պողոտայի",
        "Ծովակալ Իսակովի պողոտայի"
      ],
      schoolGen: [
        "Երևանի թիվ 57 հիմնական դպրոցի",
        "Երևանի թիվ 131 միջնակարգ դպրոցի",
        "Երևանի թիվ 23 ավագ դպրոցի",
        "Երևանի թիվ 176 հիմնական դպրոցի"
      ],
      kgGen: ["Երևանի թիվ 8 մանկապարտեզի", "Երևանի թիվ 142 մանկապարտեզի"]
    }
  ],
  ["ՀՀ առողջապահության նախարարություն", "ՀՀ ԱՆ", "Երևան", "healthcentral", 5, {}],
  [
    "ՀՀ կրթության, գիտության, մշակույթի և սպորտի նախարարություն",
    "ՀՀ ԿԳՄՍՆ",
    null,
    "edu",
    5,
    {
      schoolGen: [
        "Գավառի թիվ 3 ավագ դպրոցի",
        "Սպիտակի թիվ 1 հիմնական դպրոցի",
        "Մեղրու միջնակարգ դպրոցի",
        "Արմավիրի թիվ 4 հիմնական դպրոցի",
        "Դիլիջանի թիվ 2 միջնակարգ դպրոցի"
      ],
      kgGen: ["Մարտունու թիվ 1 մանկապարտեզի"]
    }
  ],
  ["ՀՀ տարածքային կառավարման և ենթակառուցվածքների նախարարություն", "ՀՀ ՏԿԵՆ", null, "roads", 4, {}],
  ["«Ճանապարհային դեպարտամենտ» հիմնադրամ", "ՃԴ", null, "roads", 5, { usd: 0.3 }],
  ["ՀՀ ներքին գործերի նախարարություն", "ՀՀ ՆԳՆ", "Երևան", "central", 3, {}],
  ["ՀՀ պետական եկամուտների կոմիտե", "ՀՀ ՊԵԿ", "Երևան", "central", 3, {}],
  ["ՀՀ արտակարգ իրավիճակների նախարարություն", "ՀՀ ԱԻՆ", "Երևան", "central", 2, {}],
  ["ՀՀ կադաստրի կոմիտե", "ՀՀ ԿԿ", "Երևան", "central", 2, {}],
  [
    "Գյումրու համայնքապետարան",
    "ՇՄԳՀ",
    "Շիրակ",
    "city",
    5,
    {
      cityGen: "Գյումրի քաղաքի",
      schoolGen: ["Գյումրու թիվ 5 հիմնական դպրոցի", "Գյումրու թիվ 27 միջնակարգ դպրոցի"],
      kgGen: ["Գյումրու թիվ 14 մանկապարտեզի"]
    }
  ],
  [
    "Վանաձորի համայնքապետարան",
    "ԼՄՎՀ",
    "Լոռի",
    "city",
    4,
    {
      cityGen: "Վանաձոր քաղաքի",
      schoolGen: ["Վանաձորի թիվ 11 հիմնական դպրոցի", "Վանաձորի թիվ 4 ավագ դպրոցի"],
      kgGen: ["Վանաձորի թիվ 20 մանկապարտեզի"]
    }
  ],
  [
    "Հրազդանի համայնքապետարան",
    "ԿՄՀՀ",
    "Կոտայք",
    "city",
    2,
    { cityGen: "Հրազդան քաղաքի", kgGen: ["Հրազդանի թիվ 3 մանկապարտեզի"] }
  ],
  ["Աբովյանի համայնքապետարան", "ԿՄԱՀ", "Կոտայք", "city", 2, { cityGen: "Աբովյան քաղաքի" }],
  [
    "Վաղարշապատի համայնքապետարան",
    "ԱՄՎՀ",
    "Արմավիր",
    "city",
    2,
    { cityGen: "Վաղարշապատ քաղաքի", schoolGen: ["Վաղարշապատի թիվ 8 հիմնական դպրոցի"] }
  ],
  [
    "Կապանի համայնքապետարան",
    "ՍՄԿՀ",
    "Սյունիք",
    "city",
    3,
    { cityGen: "Կապան քաղաքի", schoolGen: ["Կապանի թիվ 3 ավագ դպրոցի"] }
  ],
  ["Գորիսի համայնքապետարան", "ՍՄԳՀ", "Սյունիք", "city", 2, { cityGen: "Գորիս քաղաքի" }],
  [
    "Իջևանի համայնքապետարան",
    "ՏՄԻՀ",
    "Տավուշ",
    "city",
    2,
    { cityGen: "Իջևան քաղաքի", kgGen: ["Իջևանի թիվ 2 մանկապարտեզի"] }
  ],
  ["Սևանի համայնքապետարան", "ԳՄՍՀ", "Գեղարքունիք", "city", 2, { cityGen: "Սևան քաղաքի" }],
  [
    "Արտաշատի համայնքապետարան",
    "ԱՐՄԱՀ",
    "Արարատ",
    "city",
    2,
    { cityGen: "Արտաշատ քաղաքի", schoolGen: ["Արտաշատի թիվ 6 հիմնական դպրոցի"] }
  ],
  ["Աշտարակի համայնքապետարան", "ԱԳՄԱՀ", "Արագածոտն", "city", 2, { cityGen: "Աշտարակ քաղաքի" }],
  ["Եղեգնաձորի համայնքապետարան", "ՎՁՄԵՀ", "Վայոց ձոր", "city", 1, { cityGen: "Եղեգնաձոր քաղաքի" }],
  [
    "ՀՀ Շիրակի մարզպետարան",
    "ՀՀ ՇՄՊ",
    "Շիրակ",
    "edu",
    2,
    { schoolGen: ["Արթիկի թիվ 2 միջնակարգ դպրոցի", "Մարալիկի միջնակարգ դպրոցի", "Ամասիայի միջնակարգ դպրոցի"] }
  ],
  [
    "ՀՀ Լոռու մարզպետարան",
    "ՀՀ ԼՄՊ",
    "Լոռի",
    "edu",
    2,
    { schoolGen: ["Ալավերդու թիվ 8 հիմնական դպրոցի", "Ստեփանավանի թիվ 1 ավագ դպրոցի"] }
  ],
  [
    "ՀՀ Սյունիքի մարզպետարան",
    "ՀՀ ՍՄՊ",
    "Սյունիք",
    "edu",
    1,
    { schoolGen: ["Սիսիանի թիվ 2 միջնակարգ դպրոցի", "Քաջարանի միջնակարգ դպրոցի"] }
  ],
  ["«Սուրբ Գրիգոր Լուսավորիչ» բժշկական կենտրոն ՓԲԸ", "ՍԳԼԲԿ", "Երևան", "health", 3, {}],
  ["«Էրեբունի» բժշկական կենտրոն ՓԲԸ", "ԷԲԿ", "Երևան", "health", 3, {}],
  ["«Գյումրու բժշկական կենտրոն» ՓԲԸ", "ԳԲԿ", "Շիրակ", "health", 2, {}],
  ["«Վանաձորի բժշկական կենտրոն» ՓԲԸ", "ՎԲԿ", "Լոռի", "health", 2, {}],
  ["«Մխիթար Հերացու անվան Երևանի պետական բժշկական համալսարան» հիմնադրամ", "ԵՊԲՀ", "Երևան", "uni", 2, {}],
  ["«Երևանի պետական համալսարան» հիմնադրամ", "ԵՊՀ", "Երևան", "uni", 2, {}],
  ["«Հայաստանի ազգային պոլիտեխնիկական համալսարան» հիմնադրամ", "ՀԱՊՀ", "Երևան", "uni", 2, {}],
  ["«Կարեն Դեմիրճյանի անվան Երևանի մետրոպոլիտեն» ՓԲԸ", "ԵՄ", "Երևան", "transport", 2, {}],
  ["«Երևանի ավտոբուս» ՓԲԸ", "ԵԱ", "Երևան", "transport", 2, {}],
  [
    "«Հայաստանի տարածքային զարգացման հիմնադրամ»",
    "ՀՏԶՀ",
    null,
    "fund",
    2,
    {
      usd: 1,
      schoolGen: ["Թալինի թիվ 1 միջնակարգ դպրոցի", "Նոյեմբերյանի հիմնական դպրոցի"],
      kgGen: ["Ճամբարակի մանկապարտեզի"]
    }
  ]
].map(([name, code, region, type, w, extra]) => ({ name, code, region, type, w, sep: "-", ...extra }))

const HY_MROADS = [
  "Մ-1 Երևան-Գյումրի-Վրաստանի սահման",
  "Մ-2 Երևան-Երասխ-Գորիս-Մեղրի-Իրանի սահման",
  "Մ-4 Երևան-Սևան-Իջևան-Ադրբեջանի սահման",
  "Մ-6 Վանաձոր-Ալավերդի-Վրաստանի սահման"
]
const HY_DEADLINE_TIMES = ["09:00", "10:00", "10:30", "11:00", "11:10", "12:00", "14:00", "14:30", "15:00", "16:00"]
const YEREVAN = fixedZone(240)

const buildGnumner = (plan, forced) => {
  const titles = new Set()
  const codes = new Set()
  const ids = new Set()
  const seqs = new Map()
  return plan.map((p, idx) => {
    const f = forced[idx]
    let buyer, topic, def, tpl, title, bare
    for (let attempt = 0; attempt < 80; attempt++) {
      buyer = f ? HY_BUYERS.find((b) => b.code === f.code) : weighted(HY_BUYERS.map((b) => [b, b.w]))
      topic = f
        ? f.topic
        : weighted(Object.entries(HY_TYPE_TOPICS[buyer.type]).map(([t, w]) => [t, HY_DEMO.has(t) ? w * 2 : w]))
      def = HY_TOPICS[topic]
      const ctx = {
        cityGen: buyer.cityGen,
        streetGen: buyer.streetGen && pick(buyer.streetGen),
        schoolGen: buyer.schoolGen && pick(buyer.schoolGen),
        kgGen: buyer.kgGen && pick(buyer.kgGen),
        mroad: buyer.type === "roads" ? pick(HY_MROADS) : undefined,
        km1: 0,
        km2: 0,
        hroad: buyer.type === "roads" ? int(2, 50) : undefined,
        c: buyer.type === "city" || buyer.type === "fund" ? "" : undefined
      }
      const km1 = int(2, 140)
      ctx.km1 = km1
      ctx.km2 = km1 + int(3, 18)
      const tpls = def.tpls.map(splitTpl).filter((t) => canFill(t.text, ctx))
      if (tpls.length === 0) continue
      tpl = f ? tpls.find((t) => t.text.includes(f.match)) : pick(tpls)
      bare = fill(tpl.text, ctx)
      const generic = tokensOf(tpl.text).every((t) => t === "c")
      title = generic && !bare.includes("համար") && chance(0.3) ? `${hyNeeds(buyer.name)} ${lowerFirst(bare)}` : bare
      if (!titles.has(title)) break
    }
    titles.add(title)
    const kind = tpl.kind ?? def.kind
    const mainCpv = tpl.codes ? tpl.codes[0] : def.cpv

    // budget and lots
    const currency = buyer.usd && chance(buyer.usd) ? "USD" : "AMD"
    const dp = currency === "USD" ? 2 : 0
    const majorAmd = logUniform(...def.amd)
    const lotRoll = rand()
    const lotMode = def.lots && tpl.lots && lotRoll < 0.5 ? "multi" : lotRoll < 0.62 ? "single" : "none"
    const chosen =
      lotMode === "multi"
        ? sample(
            def.lots.map((d, i) => [...d, i]),
            int(2, Math.min(6, def.lots.length))
          ).sort((a, b) => a[2] - b[2])
        : lotMode === "single"
          ? [[bare, mainCpv]]
          : []
    const { budget, lotValues } = makeBudget({
      hasBudget: !chance(0.18),
      major: currency === "USD" ? majorAmd / 390 : majorAmd,
      dp,
      vat: 0.2,
      style:
        currency === "USD"
          ? budgetStyle()
          : weighted([
              ["round", 60],
              ["round4", 40]
            ]),
      lotCount: Math.max(chosen.length, 1),
      lotBudgets: chance(0.85)
    })
    const lots = chosen.map(([name, cpv], i) => ({
      title: name,
      budget: lotValues[i],
      currency: lotValues[i] === null ? null : currency,
      cpvCodes: [cpv]
    }))

    // procedure code: <buyer>-<procedure><subject>-26/<seq>
    const small = majorAmd < 70e6
    const proc =
      kind === "works"
        ? small
          ? "ԳՀ"
          : "ԲՄ"
        : small
          ? pick(["ԳՀ", "ԷԱՃ"])
          : weighted([
              ["ԷԱՃ", 60],
              ["ԲՄ", 40]
            ])
    const subject = { goods: "ԱՊՁԲ", services: "ԾՁԲ", works: "ԱՇՁԲ" }[kind]
    let nativeId
    do {
      const next = (seqs.get(buyer.code) ?? int(3, buyer.w * 12)) + int(1, 9)
      seqs.set(buyer.code, next)
      nativeId = `${buyer.code}${buyer.sep}${proc}${subject}-26/${next}`
    } while (codes.has(nativeId))
    codes.add(nativeId)
    const id = `gnumner-${armenianSlug(nativeId)}`
    if (ids.has(id)) throw new Error(`slug collision ${id}`)
    ids.add(id)

    // resource URL and documents
    const file = () =>
      `https://gnumner.minfin.am/website/images/original/${hex(8)}.${pick(["docx", "docx", "pdf", "zip"])}`
    let url, docsUrl
    if (proc === "ԷԱՃ" && chance(0.85)) {
      url = `https://eauction.armeps.am/hy/public/tender_details/tmid/${uuid()}`
      docsUrl = [`https://eauction.armeps.am/application/documents/public_invitation/tender_${int(47700, 49400)}.zip`]
    } else if (chance(0.75)) {
      url = `https://armeps.am/epps/cft/listContractDocuments.do?resourceId=${int(12490000, 12620000)}`
      docsUrl = chance(0.6) ? [url] : [url, file()]
    } else {
      url = file()
      docsUrl = [url]
    }

    const deadline = makeDeadline(p.dl, YEREVAN, HY_DEADLINE_TIMES, true)
    const pub = makePublished(
      deadline,
      (k) => localToUtc(-k, [int(9, 18), int(0, 59), int(0, 59)], YEREVAN),
      [7, 30],
      0.95
    )
    return record({
      id,
      source: "gnumner",
      nativeId,
      title,
      buyer: buyer.name,
      country: "AM",
      region: buyer.region,
      budget,
      currency,
      deadline,
      publishedAt: pub.utc,
      status: p.status,
      url,
      cpvCodes: uniq([mainCpv, ...lots.flatMap((l) => l.cpvCodes)]),
      okpd2Codes: [],
      lots,
      docsUrl
    })
  })
}

// ---------------------------------------------------------------- eaeu (zakupki.gov.ru, 44-FZ and 223-FZ)
const DRUGS = [
  ["Меропенем", "21.20.10.191", "порошок для приготовления раствора для внутривенного введения, 1 г"],
  [
    "Цефтриаксон",
    "21.20.10.191",
    "порошок для приготовления раствора для внутривенного и внутримышечного введения, 1 г"
  ],
  ["Ванкомицин", "21.20.10.191", "лиофилизат для приготовления раствора для инфузий, 1000 мг"],
  ["Левофлоксацин", "21.20.10.191", "раствор для инфузий, 5 мг/мл, 100 мл"],
  ["Эноксапарин натрия", "21.20.10.131", "раствор для инъекций, 4000 анти-Ха МЕ/0,4 мл"],
  ["Апиксабан", "21.20.10.131", "таблетки, покрытые пленочной оболочкой, 5 мг"],
  ["Метамизол натрия", "21.20.10.232", "раствор для внутривенного и внутримышечного введения, 500 мг/мл"],
  ["Парацетамол", "21.20.10.232", "раствор для инфузий, 10 мг/мл, 100 мл"],
  ["Осельтамивир", "21.20.10.194", "капсулы, 75 мг"],
  ["Умифеновир", "21.20.10.194", "капсулы, 200 мг"]
]
const RU_STREETS = ["Ленина", "Гагарина", "Советская", "Мира", "Победы", "Октябрьская", "Кирова", "Пушкина"]
const RU_TOPICS = {
  road: {
    rub: [8e6, 900e6],
    tpls: [
      "Выполнение работ по капитальному ремонту автомобильной дороги {roadName}|42.11.20.000",
      "Выполнение работ по ремонту автомобильных дорог общего пользования местного значения {placeIn}|42.11.20.000",
      "Выполнение работ по ремонту асфальтобетонного покрытия ул. {street}|42.11.20.000",
      "Выполнение работ по ремонту объектов дорожного хозяйства {okrug}|42.11.20.000",
      "Выполнение работ по устройству тротуаров и пешеходных дорожек {placeIn}|42.11.20.000"
    ]
  },
  yard: {
    rub: [2e6, 60e6],
    tpls: [
      "Выполнение работ по благоустройству дворовых территорий {placeIn}|43.99.90.190",
      "Выполнение работ по благоустройству общественной территории «Сквер Победы»|43.99.90.190"
    ]
  },
  winter: {
    rub: [1e6, 40e6],
    tpls: [
      "Оказание услуг по механизированной уборке и вывозу снега|81.29.12.000",
      "Оказание услуг по содержанию автомобильных дорог в зимний период|81.29.12.000"
    ]
  },
  school: {
    rub: [5e6, 150e6],
    tpls: [
      "Выполнение работ по капитальному ремонту здания {school}|41.20.40.000,43.39.19.190",
      "Выполнение работ по замене оконных блоков в здании {school}|43.32.10.110",
      "Выполнение работ по капитальному ремонту спортивного зала {school}|43.99.90.190",
      "Выполнение работ по ремонту кровли здания {school}|43.99.90.190"
    ]
  },
  medicines: {
    rub: [1e5, 60e6],
    tpls: [
      "Поставка лекарственного препарата для медицинского применения МНН {mnn}",
      "Поставка лекарственного препарата {mnn}",
      "Поставка лекарственных препаратов (антибактериальные препараты системного действия)|21.20.10.191"
    ],
    lots: DRUGS.map(([mnn, code, form]) => [`${mnn}, ${form}`, code])
  },
  meddev: {
    rub: [2e5, 25e6],
    tpls: [
      "Поставка медицинских изделий (шприцы инъекционные однократного применения)|32.50.13.110",
      "Поставка катетеров периферических внутривенных|32.50.13.110",
      "Поставка медицинского изделия – система ультразвуковой визуализации универсальная|26.60.12.110",
      "Поставка реагентов и расходных материалов для клинико-диагностической лаборатории|21.20.23.110"
    ]
  },
  it: {
    rub: [3e5, 30e6],
    tpls: [
      "Поставка компьютерной техники|26.20.15.000,26.20.17.110",
      "Поставка персональных компьютеров (системных блоков) и мониторов|26.20.15.000,26.20.17.110",
      "Поставка ноутбуков|26.20.11.110",
      "Поставка многофункциональных устройств|26.20.18.000",
      "Поставка картриджей для принтеров и МФУ HP LaserJet и Kyocera ECOSYS|20.59.12.120",
      "Поставка серверного оборудования|26.20.14.000",
      "Поставка коммутаторов и маршрутизаторов|26.30.11.190,26.30.11.130"
    ],
    lots: [
      ["Ноутбуки", "26.20.11.110"],
      ["Системные блоки", "26.20.15.000"],
      ["Мониторы", "26.20.17.110"],
      ["Многофункциональные устройства", "26.20.18.000"],
      ["Коммутаторы", "26.30.11.190"]
    ]
  },
  software: {
    rub: [2e5, 25e6],
    tpls: [
      "Предоставление неисключительных прав на использование программного обеспечения Microsoft Office и Windows Server|58.29.50.000",
      "Предоставление права использования антивирусного программного обеспечения Kaspersky Endpoint Security для бизнеса|58.29.50.000",
      "Оказание услуг по сопровождению программного продукта 1С:Предприятие 8|62.02.30.000",
      "Предоставление права использования операционной системы Astra Linux Special Edition|58.29.50.000"
    ]
  },
  cleaning: {
    rub: [5e5, 40e6],
    tpls: [
      "Оказание услуг по комплексной уборке помещений|81.21.10.000",
      "Оказание услуг по уборке помещений и прилегающей территории|81.21.10.000,81.29.12.000",
      "Оказание услуг по комплексной уборке помещений {site}|81.21.10.000"
    ],
    lots: [
      ["Уборка станций Сокольнической линии", "81.21.10.000"],
      ["Уборка станций Замоскворецкой линии", "81.21.10.000"],
      ["Уборка станций Арбатско-Покровской линии", "81.21.10.000"],
      ["Уборка станций Кольцевой линии", "81.21.10.000"],
      ["Уборка электродепо «Северное»", "81.21.10.000"]
    ]
  },
  fuel: {
    rub: [3e5, 25e6],
    tpls: [
      "Поставка бензина АИ-92 и дизельного топлива через АЗС с использованием топливных карт|19.20.21.100,19.20.21.300",
      "Поставка бензина автомобильного АИ-95 (топливные карты)|19.20.21.100",
      "Поставка дизельного топлива|19.20.21.300"
    ],
    lots: [
      ["Бензин автомобильный АИ-92", "19.20.21.100"],
      ["Бензин автомобильный АИ-95", "19.20.21.100"],
      ["Топливо дизельное", "19.20.21.300"]
    ]
  },
  security: {
    rub: [5e5, 20e6],
    tpls: [
      "Оказание услуг по охране объектов и имущества|80.10.12.000",
      "Оказание услуг частной охраны объектов|80.10.12.000"
    ],
    lots: [
      ["Охрана административного здания", "80.10.12.000"],
      ["Охрана производственной базы", "80.10.12.000"],
      ["Охрана складского комплекса", "80.10.12.000"]
    ]
  },
  vehicles: {
    rub: [3e5, 5e6],
    tpls: ["Оказание услуг по техническому обслуживанию и ремонту служебных автомобилей|45.20.11.100"]
  },
  lighting: {
    rub: [2e6, 80e6],
    tpls: [
      "Выполнение работ по модернизации сетей наружного освещения с заменой светильников на светодиодные|43.21.10.140"
    ]
  },
  repair: {
    rub: [5e5, 15e6],
    tpls: [
      "Выполнение работ по текущему ремонту служебных помещений|43.39.19.190",
      "Выполнение работ по текущему ремонту помещений жилого комплекса|43.39.19.190"
    ]
  }
}
const RU_TYPE_TOPICS = {
  city: { road: 4, yard: 3, school: 2, winter: 2, lighting: 1, cleaning: 1, fuel: 1, it: 1, security: 1 },
  health: { medicines: 6, meddev: 3, cleaning: 1, it: 1, security: 1, fuel: 1 },
  health223: { medicines: 6, meddev: 2, cleaning: 1 },
  roads: { road: 6, winter: 2 },
  builder: { road: 4, school: 3 },
  school: { school: 4, cleaning: 2, security: 2, it: 1 },
  federal: { it: 4, software: 2, cleaning: 1, security: 1, fuel: 1 },
  transport223: { cleaning: 3, fuel: 3, it: 1, security: 1 },
  utility223: { it: 2, software: 2, fuel: 2, security: 2, vehicles: 1 },
  embassy: { cleaning: 2, fuel: 2, repair: 2, vehicles: 1 }
}
// Titles of 223-FZ purchases split into several lots.
const RU_MULTI_TITLE = {
  medicines: (names) => `Поставка лекарственных препаратов (${names.map((n) => n.split(",")[0]).join(", ")})`,
  it: (names) => `Поставка вычислительной техники (${names.map((n) => n.toLocaleLowerCase("ru")).join(", ")})`,
  cleaning: () => "Оказание услуг по уборке станций и электродепо метрополитена",
  fuel: () => "Поставка нефтепродуктов (бензин автомобильный, дизельное топливо)",
  security: (names) => `Оказание услуг по охране объектов (${names.length} лота)`
}
// Narrower value ranges (RUB) for templates whose scope is smaller than the topic's.
const RU_TPL_RUB = [
  ["тротуаров", [3e6, 60e6]],
  ["оконных блоков", [1e6, 25e6]],
  ["кровли", [2e6, 40e6]],
  ["спортивного зала", [3e6, 45e6]],
  ["покрытия ул.", [5e6, 120e6]],
  ["лекарственного препарата", [1e5, 12e6]],
  ["ультразвуковой", [4e6, 25e6]],
  ["картриджей", [1e5, 3e6]],
  ["катетеров", [2e5, 4e6]]
]
const RU_DEMO = new Set(["road", "school", "medicines", "it", "cleaning", "fuel"])
const DEFAULT_SCHOOLS = [
  "МБОУ «СОШ № 12»",
  "МАОУ «Лицей № 7»",
  "МБОУ «Гимназия № 3»",
  "МБДОУ «Детский сад № 45»",
  "МБОУ «СОШ № 31»"
]

// [full name, region, EIS region code, level (1 federal, 2 regional, 3 municipal), law, UTC offset (h), type, weight, extra]
const RU_BUYERS = [
  [
    'ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ ГОРОДА МОСКВЫ "ГОРОДСКАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА № 52 ДЕПАРТАМЕНТА ЗДРАВООХРАНЕНИЯ ГОРОДА МОСКВЫ"',
    "Москва",
    "73",
    "2",
    44,
    3,
    "health",
    4,
    {}
  ],
  [
    'ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ГОРОДА МОСКВЫ "АВТОМОБИЛЬНЫЕ ДОРОГИ"',
    "Москва",
    "73",
    "2",
    44,
    3,
    "roads",
    3,
    {
      okrug: pick.bind(null, [
        "Юго-Западного административного округа города Москвы",
        "Северо-Восточного административного округа города Москвы",
        "Западного административного округа города Москвы"
      ])
    }
  ],
  [
    'ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ ГОРОДА МОСКВЫ "ШКОЛА № 1362"',
    "Москва",
    "73",
    "2",
    44,
    3,
    "school",
    2,
    { schools: ["ГБОУ Школа № 1362 (корпус 2)", "ГБОУ Школа № 1362"] }
  ],
  [
    'ГОСУДАРСТВЕННОЕ УНИТАРНОЕ ПРЕДПРИЯТИЕ ГОРОДА МОСКВЫ "МОСКОВСКИЙ МЕТРОПОЛИТЕН"',
    "Москва",
    "73",
    "2",
    223,
    3,
    "transport223",
    3,
    {}
  ],
  [
    'ФЕДЕРАЛЬНОЕ ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ ОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ ВЫСШЕГО ОБРАЗОВАНИЯ "МОСКОВСКИЙ ГОСУДАРСТВЕННЫЙ ТЕХНИЧЕСКИЙ УНИВЕРСИТЕТ ИМЕНИ Н.Э. БАУМАНА (НАЦИОНАЛЬНЫЙ ИССЛЕДОВАТЕЛЬСКИЙ УНИВЕРСИТЕТ)"',
    "Москва",
    "73",
    "1",
    44,
    3,
    "federal",
    2,
    { site: "учебно-лабораторного корпуса" }
  ],
  [
    'ФЕДЕРАЛЬНОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ЦЕНТР ПО ОБЕСПЕЧЕНИЮ ДЕЯТЕЛЬНОСТИ КАЗНАЧЕЙСТВА РОССИИ"',
    "Москва",
    "73",
    "1",
    44,
    3,
    "federal",
    3,
    {}
  ],
  ['ПУБЛИЧНОЕ АКЦИОНЕРНОЕ ОБЩЕСТВО "РОССЕТИ МОСКОВСКИЙ РЕГИОН"', "Москва", "73", "2", 223, 3, "utility223", 2, {}],
  [
    "АДМИНИСТРАЦИЯ ГОРОДСКОГО ОКРУГА ПОДОЛЬСК МОСКОВСКОЙ ОБЛАСТИ",
    "Московская область",
    "48",
    "3",
    44,
    3,
    "city",
    3,
    { placeIn: "городского округа Подольск" }
  ],
  [
    "АДМИНИСТРАЦИЯ ГОРОДСКОГО ОКРУГА ХИМКИ МОСКОВСКОЙ ОБЛАСТИ",
    "Московская область",
    "48",
    "3",
    44,
    3,
    "city",
    2,
    { placeIn: "городского округа Химки" }
  ],
  [
    'ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ МОСКОВСКОЙ ОБЛАСТИ "МЫТИЩИНСКАЯ ОБЛАСТНАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА"',
    "Московская область",
    "48",
    "2",
    44,
    3,
    "health",
    2,
    {}
  ],
  [
    'САНКТ-ПЕТЕРБУРГСКОЕ ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ДИРЕКЦИЯ ТРАНСПОРТНОГО СТРОИТЕЛЬСТВА"',
    "Санкт-Петербург",
    "72",
    "2",
    44,
    3,
    "roads",
    2,
    {
      roadNames: [
        "Широкая улица – проспект Маршала Блюхера",
        "Пулковское шоссе на участке от Дунайского проспекта до Пулковской развязки"
      ]
    }
  ],
  [
    'САНКТ-ПЕТЕРБУРГСКОЕ ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ "ГОРОДСКАЯ МНОГОПРОФИЛЬНАЯ БОЛЬНИЦА № 2"',
    "Санкт-Петербург",
    "72",
    "2",
    44,
    3,
    "health",
    3,
    {}
  ],
  [
    "АДМИНИСТРАЦИЯ ПЕТРОГРАДСКОГО РАЙОНА САНКТ-ПЕТЕРБУРГА",
    "Санкт-Петербург",
    "72",
    "2",
    44,
    3,
    "city",
    2,
    { placeIn: "Петроградского района" }
  ],
  [
    "САНКТ-ПЕТЕРБУРГСКОЕ ГОСУДАРСТВЕННОЕ УНИТАРНОЕ ПРЕДПРИЯТИЕ ПАССАЖИРСКОГО АВТОМОБИЛЬНОГО ТРАНСПОРТА",
    "Санкт-Петербург",
    "72",
    "2",
    223,
    3,
    "transport223",
    2,
    {}
  ],
  [
    'ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ГЛАВНОЕ ИНВЕСТИЦИОННО-СТРОИТЕЛЬНОЕ УПРАВЛЕНИЕ РЕСПУБЛИКИ ТАТАРСТАН"',
    "Республика Татарстан",
    "11",
    "2",
    44,
    3,
    "builder",
    3,
    {
      roadNames: [
        "Казань – Оренбург на участке км 23 – км 31",
        "Набережные Челны – Заинск – Альметьевск, км 41+200 – км 49+800"
      ],
      schools: ["МБОУ «Гимназия № 2» Приволжского района г. Казани"]
    }
  ],
  [
    'ГОСУДАРСТВЕННОЕ АВТОНОМНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ "РЕСПУБЛИКАНСКАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА МИНИСТЕРСТВА ЗДРАВООХРАНЕНИЯ РЕСПУБЛИКИ ТАТАРСТАН"',
    "Республика Татарстан",
    "11",
    "2",
    223,
    3,
    "health223",
    3,
    {}
  ],
  [
    "ИСПОЛНИТЕЛЬНЫЙ КОМИТЕТ МУНИЦИПАЛЬНОГО ОБРАЗОВАНИЯ ГОРОДА КАЗАНИ",
    "Республика Татарстан",
    "11",
    "3",
    44,
    3,
    "city",
    3,
    { placeIn: "города Казани" }
  ],
  [
    "ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ УПРАВЛЕНИЕ ДОРОЖНОГО ХОЗЯЙСТВА РЕСПУБЛИКИ БАШКОРТОСТАН",
    "Республика Башкортостан",
    "01",
    "2",
    44,
    5,
    "roads",
    3,
    { roadNames: ["Уфа – Бирск – Янаул, км 4+500 – км 11+200", "Стерлитамак – Магнитогорск на участке км 86 – км 97"] }
  ],
  [
    "АДМИНИСТРАЦИЯ ГОРОДСКОГО ОКРУГА ГОРОД УФА РЕСПУБЛИКИ БАШКОРТОСТАН",
    "Республика Башкортостан",
    "01",
    "3",
    44,
    5,
    "city",
    3,
    { placeIn: "городского округа город Уфа" }
  ],
  [
    'ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ СВЕРДЛОВСКОЙ ОБЛАСТИ "УПРАВЛЕНИЕ АВТОМОБИЛЬНЫХ ДОРОГ"',
    "Свердловская область",
    "62",
    "2",
    44,
    5,
    "roads",
    3,
    {
      roadNames: [
        "Екатеринбург – Реж – Алапаевск, км 12+400 – км 18+950",
        "подъезд к г. Верхняя Пышма от км 3+200 до км 9+700"
      ]
    }
  ],
  [
    'ГОСУДАРСТВЕННОЕ АВТОНОМНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ СВЕРДЛОВСКОЙ ОБЛАСТИ "СВЕРДЛОВСКАЯ ОБЛАСТНАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА № 1"',
    "Свердловская область",
    "62",
    "2",
    223,
    5,
    "health223",
    2,
    {}
  ],
  [
    "МУНИЦИПАЛЬНОЕ АВТОНОМНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ СРЕДНЯЯ ОБЩЕОБРАЗОВАТЕЛЬНАЯ ШКОЛА № 23",
    "Свердловская область",
    "62",
    "3",
    44,
    5,
    "school",
    2,
    { schools: ["МАОУ СОШ № 23"] }
  ],
  [
    'ФЕДЕРАЛЬНОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "УПРАВЛЕНИЕ ФЕДЕРАЛЬНЫХ АВТОМОБИЛЬНЫХ ДОРОГ "УРАЛ" ФЕДЕРАЛЬНОГО ДОРОЖНОГО АГЕНТСТВА"',
    "Свердловская область",
    "62",
    "1",
    44,
    5,
    "roads",
    2,
    {
      roadNames: [
        "Р-351 Екатеринбург – Тюмень, км 45+000 – км 57+600",
        "Р-242 Пермь – Екатеринбург на участке км 287+000 – км 301+000"
      ]
    }
  ],
  [
    'МУНИЦИПАЛЬНОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ ГОРОДА НОВОСИБИРСКА "УПРАВЛЕНИЕ ДОРОЖНОГО СТРОИТЕЛЬСТВА"',
    "Новосибирская область",
    "51",
    "3",
    44,
    7,
    "roads",
    2,
    { placeIn: "города Новосибирска" }
  ],
  [
    'ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ НОВОСИБИРСКОЙ ОБЛАСТИ "ГОРОДСКАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА № 1"',
    "Новосибирская область",
    "51",
    "2",
    44,
    7,
    "health",
    2,
    {}
  ],
  [
    'ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ КРАСНОДАРСКОГО КРАЯ "КРАСНОДАРАВТОДОР"',
    "Краснодарский край",
    "18",
    "2",
    44,
    3,
    "roads",
    2,
    {
      roadNames: [
        "Краснодар – Ейск, км 45+300 – км 52+100",
        "Темрюк – Краснодар – Кропоткин на участке км 101 – км 108"
      ]
    }
  ],
  [
    "АДМИНИСТРАЦИЯ МУНИЦИПАЛЬНОГО ОБРАЗОВАНИЯ ГОРОДСКОЙ ОКРУГ ГОРОД-КУРОРТ СОЧИ КРАСНОДАРСКОГО КРАЯ",
    "Краснодарский край",
    "18",
    "3",
    44,
    3,
    "city",
    2,
    { placeIn: "городского округа город-курорт Сочи" }
  ],
  [
    "АДМИНИСТРАЦИЯ ГОРОДА НИЖНЕГО НОВГОРОДА",
    "Нижегородская область",
    "32",
    "3",
    44,
    3,
    "city",
    3,
    { placeIn: "города Нижнего Новгорода" }
  ],
  [
    'ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ НИЖЕГОРОДСКОЙ ОБЛАСТИ "НИЖЕГОРОДСКАЯ ОБЛАСТНАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА ИМ. Н.А. СЕМАШКО"',
    "Нижегородская область",
    "32",
    "2",
    44,
    3,
    "health",
    2,
    {}
  ],
  [
    "ДЕПАРТАМЕНТ ГРАДОСТРОИТЕЛЬСТВА ГОРОДСКОГО ОКРУГА САМАРА",
    "Самарская область",
    "42",
    "3",
    44,
    4,
    "city",
    2,
    { placeIn: "городского округа Самара" }
  ],
  [
    'МУНИЦИПАЛЬНОЕ БЮДЖЕТНОЕ ОБЩЕОБРАЗОВАТЕЛЬНОЕ УЧРЕЖДЕНИЕ "ШКОЛА № 148" ГОРОДСКОГО ОКРУГА САМАРА',
    "Самарская область",
    "42",
    "3",
    44,
    4,
    "school",
    1,
    { schools: ["МБОУ Школа № 148 г.о. Самара"] }
  ],
  [
    "КОМИТЕТ ДОРОЖНОГО ХОЗЯЙСТВА ГОРОДА ЧЕЛЯБИНСКА",
    "Челябинская область",
    "69",
    "3",
    44,
    5,
    "roads",
    2,
    { placeIn: "города Челябинска" }
  ],
  [
    'ГОСУДАРСТВЕННОЕ АВТОНОМНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ "ОБЛАСТНАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА № 3"',
    "Челябинская область",
    "69",
    "2",
    223,
    5,
    "health223",
    1,
    {}
  ],
  [
    "ДЕПАРТАМЕНТ АВТОМОБИЛЬНЫХ ДОРОГ И ОРГАНИЗАЦИИ ДОРОЖНОГО ДВИЖЕНИЯ ГОРОДА РОСТОВА-НА-ДОНУ",
    "Ростовская область",
    "58",
    "3",
    44,
    3,
    "roads",
    2,
    { placeIn: "города Ростова-на-Дону" }
  ],
  ['АКЦИОНЕРНОЕ ОБЩЕСТВО "ВОДОКАНАЛ РОСТОВА-НА-ДОНУ"', "Ростовская область", "58", "3", 223, 3, "utility223", 1, {}],
  [
    'ОБЛАСТНОЕ ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ ЗДРАВООХРАНЕНИЯ "ИРКУТСКАЯ ОРДЕНА "ЗНАК ПОЧЕТА" ОБЛАСТНАЯ КЛИНИЧЕСКАЯ БОЛЬНИЦА"',
    "Иркутская область",
    "34",
    "2",
    44,
    8,
    "health",
    2,
    {}
  ],
  [
    'КРАЕВОЕ ГОСУДАРСТВЕННОЕ КАЗЕННОЕ УЧРЕЖДЕНИЕ "ПРИМОРАВТОДОР"',
    "Приморский край",
    "20",
    "2",
    44,
    10,
    "roads",
    2,
    { roadNames: ["Владивосток – Находка – порт Восточный, км 12 – км 19", "Артём – Находка на участке км 34 – км 41"] }
  ],
  [
    "АДМИНИСТРАЦИЯ ГОРОДА ВЛАДИВОСТОКА",
    "Приморский край",
    "20",
    "3",
    44,
    10,
    "city",
    2,
    { placeIn: "Владивостокского городского округа" }
  ],
  [
    'АДМИНИСТРАЦИЯ ГОРОДСКОГО ОКРУГА "ГОРОД КАЛИНИНГРАД"',
    "Калининградская область",
    "35",
    "3",
    44,
    2,
    "city",
    2,
    { placeIn: "городского округа «Город Калининград»" }
  ],
  [
    'ГОСУДАРСТВЕННОЕ БЮДЖЕТНОЕ УЧРЕЖДЕНИЕ РЕСПУБЛИКИ САХА (ЯКУТИЯ) "РЕСПУБЛИКАНСКАЯ БОЛЬНИЦА № 1 - НАЦИОНАЛЬНЫЙ ЦЕНТР МЕДИЦИНЫ ИМЕНИ М.Е. НИКОЛАЕВА"',
    "Республика Саха (Якутия)",
    "16",
    "2",
    44,
    9,
    "health",
    2,
    {}
  ],
  [
    "ПОСОЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ В РЕСПУБЛИКЕ КАЗАХСТАН",
    "Астана",
    "73",
    "1",
    44,
    5,
    "embassy",
    0,
    { country: "KZ", currency: "KZT" }
  ],
  [
    "ГЕНЕРАЛЬНОЕ КОНСУЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ В АЛМАТЫ",
    "Алматы",
    "73",
    "1",
    44,
    5,
    "embassy",
    0,
    { country: "KZ", currency: "KZT" }
  ],
  [
    "ПОСОЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ В РЕСПУБЛИКЕ БЕЛАРУСЬ",
    "Минск",
    "73",
    "1",
    44,
    3,
    "embassy",
    0,
    { country: "BY", currency: "BYN" }
  ],
  [
    "ГЕНЕРАЛЬНОЕ КОНСУЛЬСТВО РОССИЙСКОЙ ФЕДЕРАЦИИ В БРЕСТЕ",
    "Брестская область",
    "73",
    "1",
    44,
    3,
    "embassy",
    0,
    { country: "BY", currency: "BYN" }
  ]
].map(([name, region, rc, lvl, law, tz, type, w, extra]) => ({
  name,
  region,
  rc,
  lvl,
  law,
  zone: fixedZone(tz * 60),
  type,
  w,
  country: "RU",
  currency: "RUB",
  ...extra
}))
for (const b of RU_BUYERS)
  b.regNum = `0${pick(["1", "3", "3", "8"])}${b.rc}${b.lvl}${String(int(1, 999999)).padStart(6, "0")}`
// Rough sizing of foreign-currency purchases by Russian missions abroad.
const RUB_TO = { RUB: 1, KZT: 5.6, BYN: 1 / 27 }
const RU_DEADLINE_TIMES = ["08:00", "09:00", "10:00", "10:00", "11:00", "08:00", "09:00", "12:00"]
const MOSCOW = fixedZone(180)

const buildEaeu = (plan, forced) => {
  const titles = new Set()
  const ids = new Set()
  const seqs = new Map()
  const embassies = RU_BUYERS.filter((b) => b.type === "embassy")
  return plan.map((p, idx) => {
    const f = forced[idx]
    let buyer, topic, def, tpl, title, codes
    for (let attempt = 0; attempt < 80; attempt++) {
      if (f) buyer = RU_BUYERS.find((b) => b.name.includes(f.buyer))
      else if (idx >= plan.length - embassies.length) buyer = embassies[plan.length - 1 - idx]
      else buyer = weighted(RU_BUYERS.map((b) => [b, b.w]))
      topic = f
        ? f.topic
        : weighted(Object.entries(RU_TYPE_TOPICS[buyer.type]).map(([t, w]) => [t, RU_DEMO.has(t) ? w * 2 : w]))
      def = RU_TOPICS[topic]
      const drug = pick(DRUGS)
      const ctx = {
        roadName: buyer.roadNames && pick(buyer.roadNames),
        placeIn: buyer.placeIn,
        street: buyer.placeIn || buyer.type === "city" ? pick(RU_STREETS) : undefined,
        okrug: buyer.okrug,
        school: pick(buyer.schools ?? (buyer.type === "city" ? DEFAULT_SCHOOLS : [])) ?? undefined,
        site: buyer.site,
        mnn: drug[0]
      }
      const tpls = def.tpls.map(splitTpl).filter((t) => canFill(t.text, ctx))
      if (tpls.length === 0) continue
      tpl = f ? tpls.find((t) => t.text.includes(f.match)) : pick(tpls)
      title = fill(tpl.text, ctx)
      codes = tpl.codes ?? [drug[1]]
      if (!titles.has(title)) break
    }
    titles.add(title)

    const is223 = buyer.law === 223
    const currency = buyer.currency
    const metroOnly = topic === "cleaning" && !buyer.name.includes("МЕТРОПОЛИТЕН")
    const lotDefs = def.lots && is223 && !metroOnly && chance(0.6) ? def.lots : null
    const chosen = lotDefs
      ? sample(
          lotDefs.map((d, i) => [...d, i]),
          int(2, Math.min(5, lotDefs.length))
        ).sort((a, b) => a[2] - b[2])
      : [[title, null]]
    if (lotDefs) {
      title = RU_MULTI_TITLE[topic](chosen.map(([name]) => name))
      titles.add(title)
    }
    const range = RU_TPL_RUB.find(([needle]) => title.includes(needle))?.[1] ?? def.rub
    const major = logUniform(...range) * RUB_TO[currency]
    const { budget, lotValues } = makeBudget({
      hasBudget: !(is223 && chance(0.1)),
      major,
      dp: 2,
      vat: 0.22,
      style: weighted([
        ["round", 50],
        ["odd", 50]
      ]),
      lotCount: chosen.length,
      lotBudgets: true
    })
    const okpd2Codes = lotDefs ? uniq(chosen.map(([, code]) => code)) : codes
    const lots = chosen.map(([name], i) => ({
      title: name,
      budget: lotValues[i],
      currency: lotValues[i] === null ? null : currency,
      cpvCodes: []
    }))

    let nativeId, url, docsUrl
    if (is223) {
      do nativeId = `326${digits(8)}`
      while (ids.has(nativeId))
      const base = "https://zakupki.gov.ru/223/purchase/public/purchase/info"
      url = `${base}/common-info.html?regNumber=${nativeId}`
      docsUrl = [`${base}/documents.html?regNumber=${nativeId}`]
      if (chance(0.5))
        docsUrl.push(
          `https://zakupki.gov.ru/223/purchase/public/download/download.html?id=${int(140000000, 149999999)}`
        )
    } else {
      do {
        const next = (seqs.get(buyer.regNum) ?? int(40, 400)) + int(1, 12)
        seqs.set(buyer.regNum, next)
        nativeId = `${buyer.regNum}26${String(next).padStart(6, "0")}`
      } while (ids.has(nativeId))
      const rubValue = major / RUB_TO[currency]
      const works = codes.some((c) => /^4[1-3]\./.test(c))
      const seg = rubValue < 3e6 && !works && chance(0.4) ? "zk20" : rubValue > 5e6 && chance(0.15) ? "ok20" : "ea20"
      const base = `https://zakupki.gov.ru/epz/order/notice/${seg}/view`
      url = `${base}/common-info.html?regNumber=${nativeId}`
      docsUrl = [`${base}/documents.html?regNumber=${nativeId}`]
      for (let i = int(0, 3); i > 0; i--)
        docsUrl.push(`https://zakupki.gov.ru/44fz/filestore/public/1.0/download/priz/file.html?uid=${hex(32, true)}`)
    }
    ids.add(nativeId)

    const deadline = makeDeadline(p.dl, buyer.zone, RU_DEADLINE_TIMES, true)
    const pub = makePublished(
      deadline,
      (k) => localToUtc(-k, [int(8, 20), int(0, 59), int(0, 59)], MOSCOW),
      is223 ? [8, 30] : [8, 20],
      0.9
    )
    return record({
      id: `eaeu-${nativeId}`,
      source: "eaeu",
      nativeId,
      title,
      buyer: buyer.name,
      country: buyer.country,
      region: buyer.region,
      budget,
      currency: budget === null ? null : currency,
      deadline,
      publishedAt: pub.utc,
      status: p.status,
      url,
      cpvCodes: [],
      okpd2Codes,
      lots,
      docsUrl
    })
  })
}

// ---------------------------------------------------------------- main
const CURRENCIES = new Set([
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "NOK",
  "ISK",
  "SEK",
  "DKK",
  "PLN",
  "CZK",
  "HUF",
  "RON",
  "BGN",
  "AMD",
  "RUB",
  "KZT",
  "BYN"
])
const KEYS = [
  "id",
  "source",
  "nativeId",
  "title",
  "buyer",
  "country",
  "region",
  "budget",
  "currency",
  "deadline",
  "publishedAt",
  "status",
  "url",
  "cpvCodes",
  "okpd2Codes",
  "lots",
  "docsUrl"
]
const DECIMAL = /^-?\d+(\.\d+)?$/
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/

const verify = (records) => {
  const fail = (r, msg) => {
    throw new Error(`${r.id}: ${msg}`)
  }
  const ids = new Set()
  for (const r of records) {
    if (JSON.stringify(Object.keys(r)) !== JSON.stringify(KEYS)) fail(r, "keys")
    if (!/^[A-Za-z0-9._-]+$/.test(r.id) || !r.id.startsWith(`${r.source}-`)) fail(r, "id shape")
    if (ids.has(r.id)) fail(r, "duplicate id")
    ids.add(r.id)
    if (r.source !== "gnumner" && r.id !== `${r.source}-${r.nativeId}`) fail(r, "id != source-nativeId")
    if (!r.title || /lorem|ipsum|\btest\b|sample/i.test(r.title)) fail(r, "title")
    if (r.country !== null && !/^[A-Z]{2}$/.test(r.country)) fail(r, "country")
    for (const [b, c] of [[r.budget, r.currency], ...r.lots.map((l) => [l.budget, l.currency])]) {
      if (b !== null && !DECIMAL.test(b)) fail(r, `budget ${b}`)
      if (b !== null && (c === null || !CURRENCIES.has(c))) fail(r, `currency ${c}`)
    }
    for (const d of [r.deadline, r.publishedAt]) if (d !== null && !UTC.test(d)) fail(r, `date ${d}`)
    const pub = Date.parse(r.publishedAt)
    if (pub > A - DAY || pub < A - 40 * DAY - 2 * HOUR) fail(r, "publishedAt out of range")
    if (r.deadline !== null && Date.parse(r.deadline) <= pub) fail(r, "deadline before publication")
    for (const code of [...r.cpvCodes, ...r.lots.flatMap((l) => l.cpvCodes)])
      if (!/^\d{8}$/.test(code) || !CPV[code]) fail(r, `cpv ${code}`)
    for (const code of r.okpd2Codes) if (!/^\d{2}\.\d{2}\.\d{2}\.\d{3}$/.test(code)) fail(r, `okpd2 ${code}`)
    if (r.source !== "eaeu" && r.okpd2Codes.length > 0) fail(r, "okpd2 outside eaeu")
    if (!r.url.startsWith("https://") || r.docsUrl.some((u) => !u.startsWith("https://"))) fail(r, "url")
    if (!["open", "amended", "cancelled", "closed"].includes(r.status)) fail(r, "status")
  }
}

const summary = (records) => {
  const out = {}
  for (const r of records) {
    const s = (out[r.source] ??= {
      total: 0,
      open: 0,
      amended: 0,
      cancelled: 0,
      closed: 0,
      within24h: 0,
      pastOpen: 0,
      noDeadline: 0,
      noBudget: 0,
      multiLot: 0,
      currencies: {}
    })
    s.total++
    s[r.status]++
    const d = r.deadline === null ? null : Date.parse(r.deadline)
    if (d === null) s.noDeadline++
    else if (d >= A && d < A + DAY && (r.status === "open" || r.status === "amended")) s.within24h++
    if (d !== null && d < A && r.status === "open") s.pastOpen++
    if (r.budget === null) s.noBudget++
    else s.currencies[r.currency] = (s.currencies[r.currency] ?? 0) + 1
    if (r.lots.length > 1) s.multiLot++
  }
  return out
}

const main = () => {
  const ted = buildTed(statusPlan(160, { amended: 16, cancelled: 11, closed: 16, closedNoDeadline: 2 }))
  const gnumner = buildGnumner(statusPlan(100, { amended: 10, cancelled: 7, closed: 10 }), [
    { code: "ՀՀ ՖՆ", topic: "it", match: "HP LaserJet" },
    { code: "ՀՀ ՊԵԿ", topic: "software", match: "Microsoft Office" },
    { code: "ԵՔ", topic: "road", match: "Երևան քաղաքի" }
  ])
  const eaeu = buildEaeu(statusPlan(100, { amended: 10, cancelled: 7, closed: 10 }), [
    { buyer: "РОССЕТИ", topic: "software", match: "Microsoft Office" },
    { buyer: "КАЗНАЧЕЙСТВА", topic: "it", match: "HP LaserJet" },
    { buyer: "БАУМАНА", topic: "software", match: "Kaspersky" }
  ])
  const records = [...ted, ...gnumner, ...eaeu].sort((a, b) =>
    a.publishedAt === b.publishedAt ? (a.id < b.id ? -1 : 1) : a.publishedAt < b.publishedAt ? 1 : -1
  )
  verify(records)
  const text = `${records.map((r) => JSON.stringify(r)).join("\n")}\n`
  if (process.argv.includes("--check")) {
    const current = readFileSync(OUT, "utf8")
    if (current !== text) {
      console.error(`${OUT} is out of date: run node scripts/generate-sample-data.mjs`)
      process.exit(1)
    }
  } else {
    mkdirSync(dirname(OUT), { recursive: true })
    writeFileSync(OUT, text)
  }
  console.log(`${records.length} records (anchor ${ANCHOR}) -> ${OUT}`)
  console.log(JSON.stringify(summary(records), null, 1))
}

main()
