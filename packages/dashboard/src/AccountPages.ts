import { type Alert, classificationPacks, dayOf, type DeliveryInfo, html, type PackInfo } from "@tenders/core"
import type { DateTime } from "effect"
import { formatDeadline, formatInstant, formatNumber, instantOf } from "./Format.ts"
import { page } from "./Layout.ts"
import type { SignedInContext } from "./PageContext.ts"
import { paths } from "./Paths.ts"
import { dataTable, postForm, rowButton, shownSecret } from "./Widgets.ts"

const buyerOf = (alert: Alert) =>
  alert.tender.buyer === null ? "" : html`<br /><span class="muted">${alert.tender.buyer}</span>`

/** The account's open alerts, as `GET /v1/alerts` gives them, each tender linked to its full card. */
export const alertsPage = (ctx: SignedInContext, alerts: ReadonlyArray<Alert>) => {
  const a = ctx.t.alerts
  return page(
    ctx,
    a.title,
    html`<p>${a.intro}</p>
      ${dataTable(
        [a.tender, a.watchlist, a.reason, a.deadline, a.raised],
        alerts.map(
          (alert) =>
            html`<tr data-testid="alert-row" data-tender-id="${alert.tender.id}">
              <td data-label="${a.tender}" class="wrap">
                <a href="${paths.tender.of(alert.tender.id)}">${alert.tender.title}</a>
                ${buyerOf(alert)}
              </td>
              <td data-label="${a.watchlist}">${alert.watchlistName}</td>
              <td data-label="${a.reason}">${a.reasons[alert.reason]}</td>
              <td data-label="${a.deadline}">${formatDeadline(ctx, alert.tender.deadline)}</td>
              <td data-label="${a.raised}">${formatInstant(ctx.language, instantOf(alert.createdAt))}</td>
            </tr>`
        ),
        html`<p class="notice" data-testid="no-alerts">${a.none}</p>`
      )}`
  )
}

/** The account's deliveries, newest first, with a way to send a failed one again. */
export const deliveriesPage = (ctx: SignedInContext, deliveries: ReadonlyArray<DeliveryInfo>, retried = false) => {
  const d = ctx.t.deliveries
  const instant = (at: DateTime.Utc | null) => (at === null ? "—" : formatInstant(ctx.language, at))
  return page(
    ctx,
    d.title,
    html`${retried ? html`<p class="notice" role="status" data-testid="retried">${d.retried}</p>` : ""}
      <p>${d.intro}</p>
      ${dataTable(
        [d.created, d.channel, d.target, d.status, d.attempts, d.lastError, d.nextAttempt, { quiet: d.retry }],
        deliveries.map(
          (delivery) =>
            html`<tr data-testid="delivery-row" data-delivery-id="${delivery.id}">
              <td data-label="${d.created}">${instant(delivery.createdAt)}</td>
              <td data-label="${d.channel}">${d.channels[delivery.channel]}</td>
              <td data-label="${d.target}" class="wrap">${delivery.target}</td>
              <td data-label="${d.status}">
                <span class="status ${delivery.status}" data-testid="delivery-status">
                  ${d.statuses[delivery.status]}
                </span>
              </td>
              <td data-label="${d.attempts}">${formatNumber(ctx.language, delivery.attempts)}</td>
              <td data-label="${d.lastError}" class="wrap">${delivery.lastError ?? "—"}</td>
              <td data-label="${d.nextAttempt}">${instant(delivery.nextAttemptAt)}</td>
              <td>
                ${
                  delivery.status === "failed"
                    ? rowButton(ctx, paths.retryDelivery.of(delivery.id), {
                        text: d.retry,
                        label: d.retryLabel(delivery.id),
                        testId: "retry-delivery",
                        style: "secondary"
                      })
                    : ""
                }
              </td>
            </tr>`
        ),
        html`<p class="notice" data-testid="no-deliveries">${d.none}</p>`
      )}`
  )
}

/** The account and its webhook signing secret: shown, or replaced, only on a button press (a POST). */
export const settingsPage = (
  ctx: SignedInContext,
  webhooks: boolean,
  packs: ReadonlyArray<PackInfo>,
  secret?: { readonly value: string; readonly rotated: boolean }
) => {
  const t = ctx.t
  const s = t.settings
  const account = ctx.session.account
  return page(
    ctx,
    s.title,
    html`<h2>${s.account}</h2>
      <dl class="facts">
        <dt>${s.email}</dt>
        <dd>${account.email}</dd>
        <dt>${s.plan}</dt>
        <dd data-plan="${account.plan}">${t.plans[account.plan]}</dd>
      </dl>
      <h2 id="webhook-secret">${s.secretTitle}</h2>
      <p>${s.secretIntro}</p>
      ${webhooks ? "" : html`<p class="help">${s.paidOnly}</p>`}
      ${secret ? shownSecret(ctx, "signing-secret", secret.rotated ? s.rotated : s.secret, secret.value) : ""}
      <div class="actions">
        ${
          secret
            ? ""
            : postForm(
                ctx,
                paths.webhookSecret,
                html`<button type="submit" name="action" value="reveal" data-testid="reveal-secret">
                  ${s.reveal}
                </button>`
              )
        }
        ${postForm(
          ctx,
          paths.webhookSecret,
          html`<button
              type="submit"
              name="action"
              value="rotate"
              class="danger"
              data-testid="rotate-secret"
              aria-describedby="rotate-note"
            >
              ${s.rotate}
            </button>
            <p class="help" id="rotate-note">${s.rotateNote}</p>`
        )}
      </div>
      <h2 id="classifications">${s.packsTitle}</h2>
      <p>${s.packsIntro}</p>
      <dl class="facts" data-testid="packs">
        ${classificationPacks.map((pack) => {
          const info = packs.find((p) => p.pack === pack)
          return html`<dt>${s.packNames[pack]}</dt>
            <dd data-pack="${pack}">
              ${
                info === undefined
                  ? s.packMissing
                  : s.packLoaded(
                      formatNumber(ctx.language, info.inForce),
                      formatNumber(ctx.language, info.withdrawn),
                      info.version,
                      dayOf(instantOf(info.importedAt))
                    )
              }
            </dd>`
        })}
      </dl>
      <h2 id="sessions">${s.sessionsTitle}</h2>
      <p id="sessions-note">${s.sessionsIntro}</p>
      <div class="actions">
        ${postForm(
          ctx,
          paths.signOutEverywhere,
          html`<button type="submit" class="danger" data-testid="sign-out-everywhere" aria-describedby="sessions-note">
            ${s.signOutEverywhere}
          </button>`
        )}
      </div>`
  )
}
