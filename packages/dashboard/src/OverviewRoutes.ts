import { monthDailyUsage, monthUsage } from "@tenders/core"
import { Effect, Layer } from "effect"
import { HttpRouter } from "effect/http"
import { overviewPage } from "./OverviewPage.ts"
import { CurrentPage } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { showPage } from "./Responses.ts"
import { SignedIn } from "./SignedIn.ts"

const overview = Effect.fn("dashboard.overview")(function* () {
  const ctx = yield* CurrentPage
  const usage = yield* monthUsage(ctx.session.account)
  const daily = yield* monthDailyUsage(ctx.session.account)
  return showPage(overviewPage(ctx, usage, daily))
})

/** The overview, the dashboard's home. */
export const OverviewRoutes = HttpRouter.add("GET", paths.home, overview).pipe(Layer.provide(SignedIn))
