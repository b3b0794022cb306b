import { type UiLanguage, uiLanguages } from "@tenders/core"

/** Every text of the dashboard, in each of its languages. */
const en = {
  languageName: "English",
  skip: "Skip to content",
  nav: { label: "Dashboard", overview: "Overview", keys: "Keys", signOut: "Sign out", language: "Language" },
  signIn: {
    title: "Sign in",
    intro: "Enter your e-mail address: we send you a link that signs you in. No password.",
    email: "E-mail address",
    submit: "Send me a sign-in link"
  },
  sent: {
    title: "Check your e-mail",
    body: (email: string, minutes: number) =>
      `If ${email} can sign in here, a link is on its way. It works once, for ${minutes} minutes.`,
    again: "Use another address"
  },
  confirm: {
    title: "Sign in to Tenders",
    body: (email: string) => `Sign in as ${email}?`,
    submit: "Sign in"
  },
  errors: {
    title: "Something is wrong",
    invalidEmail: "That is not an e-mail address.",
    throttled: "Too many sign-in links were asked for. Try again in an hour.",
    linkRefused: "This sign-in link was already used or has expired. Ask for a new one.",
    signUpClosed: "Sign-up is closed on this server. Ask its operator for an account.",
    forbidden: "This form has expired or came from another site. Load the page again.",
    notFound: "There is no such key."
  },
  overview: {
    title: "Overview",
    plan: "Plan",
    calls: "Calls this month",
    used: (used: number, limit: number) => `${used} of ${limit}`,
    packs: "Packs this month",
    resets: "Resets",
    resetsAt: (date: string) => `${date} (UTC)`
  },
  keys: {
    title: "Keys",
    create: "Create a key",
    kind: "Kind",
    rest: "REST API key",
    mcp: "MCP token",
    submit: "Create",
    fresh: "Your new key. Copy it now: it is not shown again.",
    copy: "Copy",
    copied: "Copied",
    none: "No keys yet.",
    prefix: "Key",
    created: "Created",
    lastUsed: "Last used",
    status: "Status",
    never: "never",
    active: "active",
    revoked: (date: string) => `revoked ${date}`,
    revoke: "Revoke",
    revokeLabel: (prefix: string) => `Revoke ${prefix}…`
  }
}

/** The shape every language's texts have. */
export type Messages = typeof en

const ru: Messages = {
  languageName: "Русский",
  skip: "Перейти к содержимому",
  nav: { label: "Панель", overview: "Обзор", keys: "Ключи", signOut: "Выйти", language: "Язык" },
  signIn: {
    title: "Вход",
    intro: "Введите адрес электронной почты: мы отправим ссылку для входа. Пароль не нужен.",
    email: "Адрес электронной почты",
    submit: "Отправить ссылку для входа"
  },
  sent: {
    title: "Проверьте почту",
    body: (email, minutes) =>
      `Если для ${email} возможен вход, ссылка уже отправлена. Она действует один раз в течение ${minutes} минут.`,
    again: "Указать другой адрес"
  },
  confirm: { title: "Вход в Tenders", body: (email) => `Войти как ${email}?`, submit: "Войти" },
  errors: {
    title: "Что-то не так",
    invalidEmail: "Это не адрес электронной почты.",
    throttled: "Слишком много запросов ссылки для входа. Попробуйте через час.",
    linkRefused: "Эта ссылка для входа уже использована или устарела. Запросите новую.",
    signUpClosed: "Регистрация на этом сервере закрыта. Обратитесь к его администратору.",
    forbidden: "Форма устарела или отправлена с другого сайта. Обновите страницу.",
    notFound: "Такого ключа нет."
  },
  overview: {
    title: "Обзор",
    plan: "Тариф",
    calls: "Вызовы в этом месяце",
    used: (used, limit) => `${used} из ${limit}`,
    packs: "Пакеты в этом месяце",
    resets: "Обнуление",
    resetsAt: (date) => `${date} (UTC)`
  },
  keys: {
    title: "Ключи",
    create: "Создать ключ",
    kind: "Тип",
    rest: "Ключ REST API",
    mcp: "Токен MCP",
    submit: "Создать",
    fresh: "Ваш новый ключ. Скопируйте его сейчас: больше он не будет показан.",
    copy: "Копировать",
    copied: "Скопировано",
    none: "Ключей пока нет.",
    prefix: "Ключ",
    created: "Создан",
    lastUsed: "Последнее использование",
    status: "Статус",
    never: "никогда",
    active: "действует",
    revoked: (date) => `отозван ${date}`,
    revoke: "Отозвать",
    revokeLabel: (prefix) => `Отозвать ${prefix}…`
  }
}

const hy: Messages = {
  languageName: "Հայերեն",
  skip: "Անցնել բովանդակությանը",
  nav: { label: "Վահանակ", overview: "Ամփոփում", keys: "Բանալիներ", signOut: "Դուրս գալ", language: "Լեզու" },
  signIn: {
    title: "Մուտք",
    intro: "Մուտքագրեք ձեր էլ. փոստի հասցեն․ մենք կուղարկենք մուտքի հղում։ Գաղտնաբառ պետք չէ։",
    email: "Էլ. փոստի հասցե",
    submit: "Ուղարկել մուտքի հղում"
  },
  sent: {
    title: "Ստուգեք ձեր էլ. փոստը",
    body: (email, minutes) =>
      `Եթե ${email} հասցեով մուտքը հնարավոր է, հղումն արդեն ուղարկված է։ Այն գործում է մեկ անգամ՝ ${minutes} րոպե։`,
    again: "Նշել այլ հասցե"
  },
  confirm: { title: "Մուտք Tenders", body: (email) => `Մուտք գործե՞լ որպես ${email}`, submit: "Մուտք գործել" },
  errors: {
    title: "Ինչ-որ բան այն չէ",
    invalidEmail: "Սա էլ. փոստի հասցե չէ։",
    throttled: "Մուտքի հղման չափազանց շատ հարցումներ։ Փորձեք մեկ ժամից։",
    linkRefused: "Այս մուտքի հղումն արդեն օգտագործված է կամ ժամկետանց է։ Պահանջեք նորը։",
    signUpClosed: "Այս սերվերում գրանցումը փակ է։ Հաշիվ ստանալու համար դիմեք դրա ադմինիստրատորին։",
    forbidden: "Ձևի ժամկետն անցել է կամ այն ուղարկվել է այլ կայքից։ Վերաբեռնեք էջը։",
    notFound: "Այդպիսի բանալի չկա։"
  },
  overview: {
    title: "Ամփոփում",
    plan: "Սակագին",
    calls: "Կանչեր այս ամիս",
    used: (used, limit) => `${used} / ${limit}`,
    packs: "Փաթեթներ այս ամիս",
    resets: "Զրոյացում",
    resetsAt: (date) => `${date} (UTC)`
  },
  keys: {
    title: "Բանալիներ",
    create: "Ստեղծել բանալի",
    kind: "Տեսակ",
    rest: "REST API բանալի",
    mcp: "MCP տոկեն",
    submit: "Ստեղծել",
    fresh: "Ձեր նոր բանալին։ Պատճենեք այն հիմա․ այն այլևս չի ցուցադրվի։",
    copy: "Պատճենել",
    copied: "Պատճենված է",
    none: "Բանալիներ դեռ չկան։",
    prefix: "Բանալի",
    created: "Ստեղծված",
    lastUsed: "Վերջին օգտագործում",
    status: "Կարգավիճակ",
    never: "երբեք",
    active: "ակտիվ",
    revoked: (date) => `չեղարկված է ${date}`,
    revoke: "Չեղարկել",
    revokeLabel: (prefix) => `Չեղարկել ${prefix}…`
  }
}

/** The dashboard's texts in each language. */
export const messages: Readonly<Record<UiLanguage, Messages>> = { en, ru, hy }

const isUiLanguage = (code: string | undefined): code is UiLanguage =>
  code !== undefined && (uiLanguages as ReadonlyArray<string>).includes(code)

/**
 * The language to answer in: one chosen on the page (`?lang=`, then the cookie it set), else the first of
 * `Accept-Language` (by its q-values) that the dashboard has, else English.
 */
export const chooseLanguage = (input: {
  readonly query: string | undefined
  readonly cookie: string | undefined
  readonly acceptLanguage: string | undefined
}): UiLanguage => {
  if (isUiLanguage(input.query)) return input.query
  if (isUiLanguage(input.cookie)) return input.cookie
  const ranked = (input.acceptLanguage ?? "")
    .split(",")
    .map((entry, i) => {
      const [tag = "", ...params] = entry.trim().split(";")
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? "1"
      )
      return { code: tag.trim().toLowerCase().split("-")[0], q: Number.isFinite(q) ? q : 0, i }
    })
    .filter((entry) => entry.q > 0)
    .toSorted((a, b) => b.q - a.q || a.i - b.i)
  return ranked.map((entry) => entry.code).find(isUiLanguage) ?? "en"
}
