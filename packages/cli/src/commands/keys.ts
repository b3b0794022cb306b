import { AccountStore, KeyId, KeyKind, Plan, saveAccount } from "@tenders/core"
import type { Command } from "commander"
import { Option as CliOption } from "commander"
import { Effect, Schema } from "effect"
import { type GlobalOptions, runCommand, usage, UsageError } from "../Runtime.ts"
import { table } from "../Table.ts"

/** Parses `--monthly-limit`: a whole number, or `none` to fall back to the plan's limit. */
export const parseMonthlyLimit = (raw: string | undefined): number | null | undefined => {
  if (raw === undefined) return undefined
  if (raw === "none") return null
  const n = Number(raw)
  if (!/^\d+$/u.test(raw) || !Number.isSafeInteger(n))
    throw new UsageError(`--monthly-limit must be a whole number or "none", got "${raw}"`)
  return n
}

interface CreateOptions {
  readonly email: string
  readonly plan?: Plan
  readonly monthlyLimit?: string
  readonly kind: KeyKind
  readonly json?: boolean
}

const create = Effect.fn("keys.create")(function* (options: CreateOptions) {
  const monthlyLimit = yield* usage(() => parseMonthlyLimit(options.monthlyLimit))
  const account = yield* saveAccount({ email: options.email, plan: options.plan, monthlyLimit })
  const { key, keyId } = yield* (yield* AccountStore).createKey(account.id, options.kind)
  if (options.json === true) {
    process.stdout.write(
      `${JSON.stringify({ accountId: account.id, keyId, key, kind: options.kind, plan: account.plan })}\n`
    )
  } else {
    const what = options.kind === "rest" ? "REST key" : "MCP token"
    process.stdout.write(
      `${what} for ${account.email} (plan ${account.plan}), id ${keyId}:\n${key}\n` +
        "It is shown only once: store it now.\n"
    )
  }
})

/** `tenders keys create|list|revoke`: the "dashboard" where REST keys and MCP tokens are made. */
export const registerKeys = (program: Command, globals: () => GlobalOptions) => {
  const keys = program.command("keys").description("create, list and revoke API keys (REST) and MCP tokens")
  keys
    .command("create")
    .description("create a key; creates the account when the e-mail is new (then --plan is required)")
    .requiredOption("--email <email>", "account e-mail")
    .addOption(
      new CliOption("--plan <plan>", "plan of a new account, or the new plan of an existing one").choices(Plan.literals)
    )
    .option("--monthly-limit <n>", 'per-account monthly call limit overriding the plan\'s (or "none")')
    .addOption(
      new CliOption("--kind <kind>", "rest (sk_live_...) or mcp (mcp_live_...)")
        .choices(KeyKind.literals)
        .default("rest")
    )
    .option("--json", "print {accountId, keyId, key, kind, plan} as JSON")
    .action((options: CreateOptions) => runCommand(globals(), create(options)))
  keys
    .command("list")
    .description("list keys (never the secrets)")
    .option("--json", "print as JSON")
    .action((options: { readonly json?: boolean }) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const list = yield* (yield* AccountStore).listKeys()
          if (options.json === true) {
            process.stdout.write(`${JSON.stringify(list)}\n`)
            return
          }
          process.stdout.write(
            list.length === 0
              ? "No keys.\n"
              : `${table(
                  ["KEY ID", "EMAIL", "PLAN", "KIND", "PREFIX", "CREATED", "LAST USED", "REVOKED"],
                  list.map((k) => [
                    k.keyId,
                    k.email,
                    k.plan,
                    k.kind,
                    `${k.prefix}…`,
                    k.createdAt,
                    k.lastUsedAt ?? "-",
                    k.revokedAt ?? "-"
                  ])
                )}\n`
          )
        })
      )
    )
  keys
    .command("revoke")
    .description("revoke a key by id; it stops working at once")
    .argument("<keyId>", "the key id shown by keys create / keys list")
    .action((keyId: string) =>
      runCommand(
        globals(),
        Effect.gen(function* () {
          const id = Schema.decodeUnknownOption(KeyId)(keyId)
          const revoked = id._tag === "Some" && (yield* (yield* AccountStore).revokeKey(id.value))
          if (!revoked) return yield* Effect.fail(new UsageError(`no key with id "${keyId}"`))
          process.stdout.write(`Revoked key ${keyId}.\n`)
        })
      )
    )
}
