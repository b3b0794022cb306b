import { importPack } from "@tenders/core"
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { makeDashboard, onPorts, signedInAs } from "./support.ts"

describe("the settings page", () => {
  it.effect("says which classification packs the operator imported, in the visitor's language", () =>
    Effect.gen(function* () {
      const dashboard = yield* makeDashboard()
      const { person } = yield* signedInAs(dashboard, "packs@example.com")
      const before = yield* person.get("/dashboard/settings")
      assert.match(before.text, /data-pack="okpd2">\s*Not imported: search works without it\./u)
      yield* onPorts(
        dashboard,
        importPack("okpd2", [
          { code: "21.20", label: "Препараты лекарственные", withdrawn: false },
          { code: "21.20.10.000", label: "Препараты лекарственные прочие", withdrawn: true }
        ])
      )
      const after = yield* person.get("/dashboard/settings?lang=ru")
      assert.match(after.text, /data-pack="okpd2">\s*действующих кодов: 1, исключённых: 1 \(версия 1, загружен \d{4}-/u)
      assert.match(after.text, /data-pack="cpv-ru">\s*Не загружен/u)
    })
  )
})
