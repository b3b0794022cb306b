import { html, type KeyInfo, type KeyKind, utcStamp } from "@tenders/core"
import { instantOf } from "./Format.ts"
import { page } from "./Layout.ts"
import type { PageContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { dataTable, postForm, rowButton, shownSecret } from "./Widgets.ts"

/** A key's instant as its record has it, in UTC to the minute whatever the page's language. */
const when = (timestamp: string) => utcStamp(instantOf(timestamp))

const keyRow = (ctx: PageContext, key: KeyInfo) => {
  const t = ctx.t
  return html`<tr data-testid="key-row" data-key-id="${key.keyId}">
    <td data-label="${t.keys.prefix}"><code>${key.prefix}…</code></td>
    <td data-label="${t.keys.kind}">${key.kind === "rest" ? t.keys.rest : t.keys.mcp}</td>
    <td data-label="${t.keys.created}">${when(key.createdAt)}</td>
    <td data-label="${t.keys.lastUsed}">${key.lastUsedAt === null ? t.keys.never : when(key.lastUsedAt)}</td>
    <td data-label="${t.keys.status}">
      ${key.revokedAt === null ? t.keys.active : t.keys.revoked(when(key.revokedAt))}
    </td>
    <td>
      ${
        key.revokedAt === null
          ? rowButton(ctx, paths.revoke.of(key.keyId), {
              text: t.keys.revoke,
              label: t.keys.revokeLabel(key.prefix),
              testId: "revoke",
              style: "danger",
              name: "revoke"
            })
          : ""
      }
    </td>
  </tr>`
}

/** The keys: a new one's secret (once), the form to make one, and the list with revoke buttons. */
export const keysPage = (
  ctx: PageContext,
  keys: ReadonlyArray<KeyInfo>,
  created?: { readonly key: string; readonly kind: KeyKind }
) => {
  const t = ctx.t
  return page(
    ctx,
    t.keys.title,
    html`${created ? shownSecret(ctx, "new-key", t.keys.fresh, created.key) : ""}
      <h2>${t.keys.create}</h2>
      ${postForm(
        ctx,
        paths.keys,
        html`<label for="kind">${t.keys.kind}</label>
          <select id="kind" name="kind">
            <option value="rest">${t.keys.rest}</option>
            <option value="mcp">${t.keys.mcp}</option>
          </select>
          <button type="submit">${t.keys.submit}</button>`,
        html`class="stack" data-testid="create-key"`
      )}
      <h2>${t.keys.title}</h2>
      ${dataTable(
        [t.keys.prefix, t.keys.kind, t.keys.created, t.keys.lastUsed, t.keys.status, { quiet: t.keys.revoke }],
        keys.map((key) => keyRow(ctx, key)),
        html`<p class="muted">${t.keys.none}</p>`
      )}`
  )
}
