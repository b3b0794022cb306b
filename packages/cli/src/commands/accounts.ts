import { addPack, monthlyLimitOf, packSize, Plan, saveAccount } from "@tenders/core"
import type { Command } from "commander"
import { Option as CliOption } from "commander"
import { Effect } from "effect"
import { type GlobalOptions, runCommand, usage } from "../Runtime.ts"
import { parseMonthlyLimit } from "./keys.ts"

/** `tenders accounts set|add-pack`: plans, limit overrides and $5 packs. */
export const registerAccounts = (program: Command, globals: () => GlobalOptions) => {
  const accounts = program.command("accounts").description("manage accounts: plan, monthly limit, call packs")
  accounts
    .command("set")
    .description("create or update an account")
    .requiredOption("--email <email>", "account e-mail")
    .addOption(new CliOption("--plan <plan>", "plan").choices(Plan.literals))
    .option("--monthly-limit <n>", 'monthly call limit overriding the plan\'s, or "none"')
    .action((options: { readonly email: string; readonly plan?: Plan; readonly monthlyLimit?: string }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const monthlyLimit = yield* usage(() => parseMonthlyLimit(options.monthlyLimit))
          const account = yield* saveAccount({ email: options.email, plan: options.plan, monthlyLimit })
          const limit = monthlyLimitOf(account)
          const override = account.monthlyLimit === null ? "" : " (override)"
          process.stdout.write(`${account.email}: plan ${account.plan}, ${limit} calls a month${override}\n`)
        })
      )
    )
  accounts
    .command("add-pack")
    .description(`add a $5 pack of ${packSize} calls for the current UTC month (paid plans only)`)
    .requiredOption("--email <email>", "account e-mail")
    .action((options: { readonly email: string }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const { packs } = yield* addPack(options.email)
          process.stdout.write(`${options.email}: ${packs} pack(s) this month, +${packs * packSize} calls\n`)
        })
      )
    )
}
