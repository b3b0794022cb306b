import { defineConfig } from "vitest/config"

const conditions = ["@tenders/source", "import", "module", "node", "default"]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@tenders/source"] } },
  test: {
    include: ["packages/*/test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    maxWorkers: 2
  }
})
