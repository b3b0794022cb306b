// Generates data/classifications/cpv-labels-extra.jsonl: Russian labels of the CPV 2008 codes, from the Russian
// CPV file of the Ukrainian Prozorro system (ProzorroUKR/standards, classifiers/cpv_ru.json, Apache-2.0). That file
// has no Russian text for the 45 divisions and 6 other codes (it repeats the code or the English word); those labels
// are our own translations, below, and so are the corrections of labels we found wrong while checking the crosswalk
// (correctedRu). No Armenian labels: no public machine-readable copy was found.
//
//   node packages/search-text/scripts/classifications/cpv-labels-extra.mjs --ru cpv_ru.json
import { readFileSync } from "node:fs"
import { byCode, cleanLabel, dataFile, fail, parseArgs, readJsonl, writeJsonl } from "./lib.mjs"

const usage = `usage: cpv-labels-extra.mjs --ru cpv_ru.json [--cpv cpv.jsonl] [--out cpv-labels-extra.jsonl]`
const args = parseArgs(process.argv.slice(2), usage)
if (!args.ru) fail(usage)

/** Our translations where the source has none. */
export const manualRu = {
  "03000000": "Продукция сельского хозяйства, животноводства, рыболовства, лесного хозяйства и сопутствующая продукция",
  "09000000": "Нефтепродукты, топливо, электроэнергия и прочие источники энергии",
  14000000: "Продукция горнодобывающей промышленности, основные металлы и сопутствующая продукция",
  15000000: "Продукты питания, напитки, табак и сопутствующая продукция",
  16000000: "Сельскохозяйственная техника",
  18000000: "Одежда, обувь, дорожные изделия и аксессуары",
  19000000: "Кожаные и текстильные материалы, пластмассовые и резиновые материалы",
  22000000: "Печатная продукция и сопутствующие изделия",
  24000000: "Химическая продукция",
  24311800: "Углерод",
  24311900: "Хлор",
  30000000: "Офисная и вычислительная техника, оборудование и принадлежности, кроме мебели и пакетов программ",
  30133000: "Оборудование для отправки почты",
  30237380: "Компакт-диски CD-ROM",
  31000000: "Электрические машины, аппараты, оборудование и расходные материалы; освещение",
  31350000: "Электрические проводники для передачи данных и управления",
  32000000: "Радио-, телевизионное, коммуникационное, телекоммуникационное и сопутствующее оборудование",
  33000000: "Медицинское оборудование, фармацевтическая продукция и средства личной гигиены",
  34000000: "Транспортное оборудование и вспомогательные изделия для транспорта",
  35000000: "Оборудование для обеспечения безопасности, пожаротушения, полиции и обороны",
  37000000: "Музыкальные инструменты, спортивные товары, игры, игрушки, изделия ремесел, материалы для творчества",
  38000000: "Лабораторное, оптическое и точное оборудование (кроме очков)",
  39000000: "Мебель (включая офисную), предметы интерьера, бытовая техника (кроме осветительной) и чистящие средства",
  41000000: "Собранная и очищенная вода",
  42000000: "Промышленное оборудование",
  43000000: "Оборудование для горных работ, разработки карьеров и строительства",
  43312200: "Щебнераспределители",
  44000000: "Строительные конструкции и материалы; вспомогательные строительные изделия (кроме электрооборудования)",
  45000000: "Строительные работы",
  48000000: "Пакеты программного обеспечения и информационные системы",
  50000000: "Услуги по ремонту и техническому обслуживанию",
  51000000: "Услуги по монтажу (кроме программного обеспечения)",
  55000000: "Услуги гостиниц, ресторанов и розничной торговли",
  60000000: "Транспортные услуги (кроме вывоза отходов)",
  63000000: "Вспомогательные транспортные услуги; услуги туристических агентств",
  64000000: "Услуги почтовой связи и телекоммуникаций",
  65000000: "Коммунальные услуги",
  66000000: "Финансовые и страховые услуги",
  70000000: "Услуги в сфере недвижимости",
  71000000: "Архитектурные, строительные, инженерные услуги и услуги по инспектированию",
  72000000:
    "Услуги в сфере информационных технологий: консультирование, разработка программного обеспечения, " +
    "Интернет и поддержка",
  73000000: "Услуги в области научных исследований и разработок и сопутствующие консультационные услуги",
  75000000: "Услуги в сфере государственного управления, обороны и социального обеспечения",
  76000000: "Услуги, связанные с нефтегазовой промышленностью",
  77000000: "Услуги в области сельского и лесного хозяйства, садоводства, аквакультуры и пчеловодства",
  79000000: "Деловые услуги: юридические, маркетинговые, консультационные, подбор персонала, печать и охрана",
  80000000: "Услуги в сфере образования и профессиональной подготовки",
  85000000: "Услуги в сфере здравоохранения и социальной работы",
  90000000: "Услуги по водоотведению, удалению отходов, уборке и охране окружающей среды",
  92000000: "Услуги в сфере отдыха, культуры и спорта",
  98000000: "Прочие общественные, социальные и персональные услуги"
}

/** Source labels that say something else than the CPV (found while checking samples), with our translation. */
export const correctedRu = {
  "03221211": "Бобы садовые", // Broad beans, not any "Бобы"
  "03222315": "Клюква", // Cranberries, not "Черника"
  15512000: "Сливки", // Cream, not "Сметана"
  15842310: "Леденцы", // Boiled sweets, not "Конфеты"
  15993000: "Табачные принадлежности", // Tobacconist supplies, not "Табачные изделия"
  18235400: "Жилеты", // Waistcoats, not "Жакеты"
  19212300: "Парусина", // Canvas, not "Полотно"
  24326320: "Простые эфиры", // Ethers, not just "Эфиры" (which also reads as esters)
  33722300: "Заколки для волос", // Barrettes, not "Ремни"
  34131000: "Пикапы", // Pick-ups, not "Грузовые автомобили"
  39711430: "Электроплитки", // Hotplates, not any "Плиты"
  39541130: "Бечевка", // String, not "Шнуры"
  44921200: "Известь", // Lime, not "Известняк"
  45262423: "Работы по устройству настилов", // Deck-fabrication work, not bridge construction
  45432112: "Работы по мощению", // Laying of paving, not "Облицовка"
  71550000: "Кузнечные услуги", // Blacksmith services
  77231700: "Консультационные услуги в области лесного хозяйства", // Forestry extension services
  98341130: "Услуги по уборке и содержанию помещений" // Janitorial services, not property management
}

const cpvCodes = new Set(readJsonl(args.cpv ?? dataFile("cpv.jsonl")).map((row) => row.code))
const source = JSON.parse(readFileSync(args.ru, "utf8"))
const ru = new Map()
for (const [key, value] of Object.entries(source)) {
  const code = key.replace(/-\d$/, "")
  if (!cpvCodes.has(code)) fail(`${args.ru}: ${key} is not a CPV 2008 code`)
  const label = cleanLabel(String(value))
  if (/[А-Яа-яЁё]/.test(label)) ru.set(code, label)
}
for (const [code, label] of Object.entries(correctedRu)) {
  if (!ru.has(code)) fail(`${code} has no Russian label in the source to correct`)
  ru.set(code, label)
}
for (const [code, label] of Object.entries(manualRu)) {
  if (ru.has(code)) fail(`${code} has a Russian label in the source now: drop it from manualRu`)
  ru.set(code, label)
}
const rows = [...ru].map(([code, label]) => ({ code, labels: { ru: label } }))
const missing = [...cpvCodes].filter((code) => !ru.has(code))
if (missing.length > 0) process.stderr.write(`warning: no Russian label for ${missing.join(", ")}\n`)
writeJsonl(args.out ?? dataFile("cpv-labels-extra.jsonl"), rows.toSorted(byCode))
