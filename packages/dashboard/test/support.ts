import { AccountStore, type Plan, Rates, sendSignInMails } from "@tenders/core"
import {
  memoryStore,
  notifierRecorder,
  RecordedNotifications,
  SignInMailerManual,
  SourceStatusStoreEmpty
} from "@tenders/core/testing"
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { Cookies, HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { DashboardApp, DashboardSettings } from "../src/index.ts"

/** What a page answered: status, headers, the body, and the cookies it set. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** One browser: a cookie jar, sending forms the way a browser on the same site does. */
export interface Browser {
  readonly get: (path: string, headers?: Record<string, string>) => Effect.Effect<Answer>
  readonly post: (path: string, form: Record<string, string>, headers?: Record<string, string>) => Effect.Effect<Answer>
  readonly cookies: Map<string, string>
}

export const base = "http://localhost"

/** The value of a `name="…" value="…"` hidden field (the form token) in a page. */
export const hiddenValue = (page: string, name: string): string =>
  new RegExp(`name="${name}" value="([^"]*)"`, "u").exec(page)?.[1] ?? ""

/**
 * An app of routes run in the test's own runtime (its TestClock): a web Request answered as the server answers it,
 * a failure as the server turns it into a response (a path no route has: 404).
 */
export const webAppOf = Effect.fnUntraced(function* <E>(app: Layer.Layer<never, E, HttpRouter.HttpRouter>) {
  const handle = yield* HttpRouter.toHttpEffect(app)
  return (request: Request) =>
    handle.pipe(
      Effect.catchCause((cause) => Effect.map(HttpServerError.causeResponse(cause), ([response]) => response)),
      Effect.provideService(HttpServerRequest.HttpServerRequest, HttpServerRequest.fromWeb(request)),
      Effect.scoped,
      Effect.flatMap((response) => {
        const web = HttpServerResponse.toWeb(response)
        return Effect.map(
          Effect.promise(() => web.text()),
          (text): Answer => ({ status: web.status, headers: web.headers, text })
        )
      })
    )
})

/** Whether a cookie a response set tells the browser to forget it (`Max-Age=0`, or an `Expires` now past). */
const forgets = (cookie: Cookies.Cookie, now: number) =>
  cookie.options?.maxAge !== undefined
    ? Duration.toMillis(cookie.options.maxAge) <= 0
    : (cookie.options?.expires?.getTime() ?? Number.POSITIVE_INFINITY) <= now

/**
 * The dashboard over in-memory ports and a recording notifier, driven through web Requests in the test's runtime.
 * Sign-in mails stay queued until `mails` sends them (the server sends them in the background).
 */
export const makeDashboard = (signUp: "open" | "closed" = "open") =>
  Effect.gen(function* () {
    const ports = yield* Layer.build(
      Layer.mergeAll(
        memoryStore,
        Rates.bundled,
        SourceStatusStoreEmpty,
        notifierRecorder(),
        SignInMailerManual,
        Layer.succeed(DashboardSettings, { publicUrl: new URL(base), signUp })
      )
    )
    const app = yield* webAppOf(DashboardApp.pipe(Layer.provide(Layer.succeedContext(ports))))
    const sent = Context.get(ports, RecordedNotifications)
    const browser = (): Browser => {
      const cookies = new Map<string, string>()
      const send = (method: string, path: string, body: string | undefined, extra: Record<string, string>) =>
        Effect.gen(function* () {
          const headers: Record<string, string> = { host: "localhost", ...extra }
          if (cookies.size > 0) headers["cookie"] = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ")
          if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded"
          const answer = yield* app(
            new Request(new URL(path, base), {
              method,
              headers,
              redirect: "manual",
              ...(body === undefined ? {} : { body })
            })
          )
          const now = yield* Clock.currentTimeMillis
          for (const cookie of Object.values(Cookies.fromSetCookie(answer.headers.getSetCookie()).cookies)) {
            if (forgets(cookie, now)) cookies.delete(cookie.name)
            else cookies.set(cookie.name, cookie.valueEncoded)
          }
          return answer
        })
      return {
        cookies,
        get: (path, headers = {}) => send("GET", path, undefined, headers),
        post: (path, form, headers = {}) =>
          send("POST", path, new URLSearchParams(form).toString(), { origin: base, ...headers })
      }
    }
    /** Sends the queued sign-in mails, then gives every sign-in mail sent so far. */
    const mails = sendSignInMails().pipe(Effect.provide(ports), Effect.as(sent.signIns))
    return { browser, sent, mails, ports }
  })

/** What `makeDashboard` gives. */
export type Dashboard = Effect.Success<ReturnType<typeof makeDashboard>>

/** A browser signed in as `email` (an account on `plan`, made first), with the form token of its pages. */
export const signedInAs = (dashboard: Dashboard, email: string, plan: Plan = "free") =>
  Effect.gen(function* () {
    const account = yield* Context.get(dashboard.ports, AccountStore).saveAccount({ email, plan, monthlyLimit: null })
    const person = dashboard.browser()
    yield* person.post("/dashboard/sign-in", { email })
    const token = new URL((yield* dashboard.mails).at(-1)?.url ?? base).searchParams.get("token") ?? ""
    yield* person.post("/dashboard/sign-in/link", { token })
    const home = yield* person.get("/dashboard")
    return { person, account, csrf: hiddenValue(home.text, "csrf") }
  })

/** Runs a core use case on the dashboard's own ports. */
export const onPorts = <A, E, R>(dashboard: Dashboard, effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, dashboard.ports)
