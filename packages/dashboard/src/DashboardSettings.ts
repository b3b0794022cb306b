import type { SignUp } from "@tenders/core"
import { Context } from "effect"

/** What the dashboard needs from the server's settings. */
export class DashboardSettings extends Context.Service<
  DashboardSettings,
  {
    /** The address people reach the server at (`TENDERS_PUBLIC_URL`): sign-in links point there. */
    readonly publicUrl: URL
    readonly signUp: SignUp
  }
>()("@tenders/dashboard/DashboardSettings") {}

/** Whether the server is reached over https: its cookies are then sent over https only. */
export const isSecure = (settings: DashboardSettings["Service"]): boolean => settings.publicUrl.protocol === "https:"
