import { readdirSync } from "node:fs"
import { join } from "node:path"
import { configDefaults, defineConfig } from "vitest/config"

const conditions = ["@tenders/source", "import", "module", "node", "default"]

// Three projects, run in this order (`npx vitest run --project unit` runs one):
// - unit (and unit-http, the msw tests, in isolated workers): in this process only, no database, no `tenders`
//   process: seconds;
// - store: a database in this process (embedded PGlite, and PostgreSQL when TEST_DATABASE_URL is set);
// - e2e: `tenders` processes (serve, ingest, mcp --stdio), and the SDK packed and installed.
const unitPackages = readdirSync(join(import.meta.dirname, "packages")).filter(
  (name) => name !== "cli" && name !== "store-postgres"
)
// Tests that intercept HTTP with msw patch process-wide globals: they run in workers of their own (isolated), as a
// file sharing a worker with them once sent a gnumner request past the interceptor to the real DNS.
const mswTests = ["packages/adapters-sources/test/**/*.test.ts"]
const inProcessCli = ["packages/cli/test/arguments.test.ts", "packages/cli/test/log-format.test.ts"]
const storeCli = [
  "packages/cli/test/commands.test.ts",
  "packages/cli/test/outbox.test.ts",
  "packages/cli/test/ingest-input.test.ts"
]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@tenders/source"] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          // Files share their workers (and the modules they import): twice as fast; a unit test changes no global.
          isolate: false,
          include: [...unitPackages.map((name) => `packages/${name}/test/**/*.test.ts`), ...inProcessCli],
          exclude: [...configDefaults.exclude, ...mswTests],
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        test: { name: "unit-http", include: mswTests, sequence: { groupOrder: 0 } }
      },
      {
        extends: true,
        test: {
          name: "store",
          include: ["packages/store-postgres/test/**/*.test.ts", ...storeCli],
          sequence: { groupOrder: 1 }
        }
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["packages/cli/test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, ...inProcessCli, ...storeCli],
          sequence: { groupOrder: 2 }
        }
      }
    ]
  }
})
