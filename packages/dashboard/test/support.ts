import { AccountStore, type Plan, Rates, sendSignInMails } from "@tenders/core"
import {
  memoryStore,
  notifierRecorder,
  RecordedNotifications,
  SignInMailerManual,
  SourceStatusStoreEmpty
} from "@tenders/core/testing"
import { Clock, Context, Effect, Layer } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { DashboardApp, DashboardSettings } from "../src/index.ts"

/** What a page answered: status, headers, the body, and the cookies it set. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
}

/** One browser: a cookie jar, sending forms the way a browser on the same site does. */
export interface Browser {
  readonly get: (path: string, headers?: Record<string, string>) => Promise<Answer>
  readonly post: (path: string, form: Record<string, string>, headers?: Record<string, string>) => Promise<Answer>
  readonly cookies: Map<string, string>
}

export const base = "http://localhost"

/** The value of a `name="…" value="…"` hidden field (the form token) in a page. */
export const hiddenValue = (page: string, name: string): string =>
  new RegExp(`name="${name}" value="([^"]*)"`, "u").exec(page)?.[1] ?? ""

/**
 * The dashboard over in-memory ports and a recording notifier, driven through web Requests. Sign-in mails stay queued
 * until `mails` sends them (the server sends them in the background).
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
    const { handler, dispose } = HttpRouter.toWebHandler(
      DashboardApp.pipe(Layer.provide(Layer.succeedContext(ports)), Layer.provide(HttpServer.layerServices)),
      { disableLogger: true }
    )
    yield* Effect.addFinalizer(() => Effect.promise(dispose))
    const sent = Context.get(ports, RecordedNotifications)
    const browser = (): Browser => {
      const cookies = new Map<string, string>()
      const send = async (method: string, path: string, body: string | undefined, extra: Record<string, string>) => {
        const headers: Record<string, string> = { host: "localhost", ...extra }
        if (cookies.size > 0) headers["cookie"] = [...cookies].map(([k, v]) => `${k}=${v}`).join("; ")
        if (body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded"
        const response = await handler(
          new Request(new URL(path, base), {
            method,
            headers,
            redirect: "manual",
            ...(body === undefined ? {} : { body })
          })
        )
        for (const cookie of response.headers.getSetCookie()) {
          const [pair = ""] = cookie.split(";")
          const [name = "", value = ""] = pair.split("=")
          if (/max-age=0|expires=Thu, 01 Jan 1970/iu.test(cookie)) cookies.delete(name)
          else cookies.set(name, value)
        }
        return { status: response.status, headers: response.headers, text: await response.text() }
      }
      return {
        cookies,
        get: (path, headers = {}) => send("GET", path, undefined, headers),
        post: (path, form, headers = {}) =>
          send("POST", path, new URLSearchParams(form).toString(), { origin: base, ...headers })
      }
    }
    /**
     * Sends the queued sign-in mails, then gives every sign-in mail sent so far; on the live clock, as the pages'
     * handler keeps the links (a test's clock would find none due).
     */
    const mails = sendSignInMails().pipe(
      Effect.provide(ports),
      Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
      Effect.as(sent.signIns)
    )
    return { browser, sent, mails, ports }
  })

/** What `makeDashboard` gives. */
export type Dashboard = Effect.Success<ReturnType<typeof makeDashboard>>

/** A browser signed in as `email` (an account on `plan`, made first), with the form token of its pages. */
export const signedInAs = (dashboard: Dashboard, email: string, plan: Plan = "free") =>
  Effect.gen(function* () {
    const account = yield* Context.get(dashboard.ports, AccountStore).saveAccount({ email, plan, monthlyLimit: null })
    const person = dashboard.browser()
    yield* Effect.promise(() => person.post("/dashboard/sign-in", { email }))
    const token = new URL((yield* dashboard.mails).at(-1)?.url ?? base).searchParams.get("token") ?? ""
    yield* Effect.promise(() => person.post("/dashboard/sign-in/link", { token }))
    const home = yield* Effect.promise(() => person.get("/dashboard"))
    return { person, account, csrf: hiddenValue(home.text, "csrf") }
  })

/** Runs a core use case on the dashboard's own ports. */
export const onPorts = <A, E, R>(dashboard: Dashboard, effect: Effect.Effect<A, E, R>) =>
  Effect.provide(effect, dashboard.ports)
