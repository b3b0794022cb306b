import { randomBytes } from "node:crypto"
import { Webhook } from "standardwebhooks"
import { describe, expect, it } from "vitest"
import { TendersError, TendersWebhookError, verifyWebhook } from "../src/index.ts"
import { alert } from "./fixtures.ts"

const secret = `whsec_${randomBytes(32).toString("base64")}`

/** Signs a body the way the server's webhook sender does. */
const signed = (body: string, options: { readonly secret?: string; readonly at?: number } = {}) => {
  const timestamp = options.at ?? Math.floor(Date.now() / 1000)
  const id = "msg_2p5Yyq0d6Jb4vQk8"
  return {
    body,
    headers: {
      "webhook-id": id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": new Webhook(options.secret ?? secret).sign(id, new Date(timestamp * 1000), body)
    }
  }
}

const event = { type: "alert.created", timestamp: "2030-01-12T09:00:05Z", data: alert }

const thrown = (f: () => unknown): unknown => {
  try {
    f()
  } catch (error) {
    return error
  }
  throw new Error("expected verifyWebhook to throw")
}

describe("verifyWebhook", () => {
  it("returns the typed alert.created event for a correctly signed delivery (plain headers)", () => {
    const { body, headers } = signed(JSON.stringify(event))
    const verified = verifyWebhook(body, headers, secret)
    expect(verified.type).toBe("alert.created")
    expect(verified.data.tender.id).toBe(alert.tender.id)
    expect(verified.data.reason).toBe("new")
  })

  it("accepts fetch Headers, mixed-case names and a Uint8Array body", () => {
    const { body, headers } = signed(JSON.stringify(event))
    const fetchHeaders = new Headers({
      "Webhook-Id": headers["webhook-id"],
      "Webhook-Timestamp": headers["webhook-timestamp"],
      "Webhook-Signature": headers["webhook-signature"]
    })
    expect(verifyWebhook(new TextEncoder().encode(body), fetchHeaders, secret).data.watchlistId).toBe(alert.watchlistId)
  })

  it("refuses a tampered body", () => {
    const { headers } = signed(JSON.stringify(event))
    const tampered = JSON.stringify({ ...event, data: { ...alert, watchlistName: "Someone else's" } })
    const error = thrown(() => verifyWebhook(tampered, headers, secret))
    expect(error).toBeInstanceOf(TendersWebhookError)
    expect(error).toBeInstanceOf(TendersError)
    expect(error instanceof Error && error.message).toMatch(/signature/u)
  })

  it("refuses a delivery signed with another secret", () => {
    const { body, headers } = signed(JSON.stringify(event), { secret: `whsec_${randomBytes(32).toString("base64")}` })
    expect(thrown(() => verifyWebhook(body, headers, secret))).toBeInstanceOf(TendersWebhookError)
  })

  it("refuses a replay older than five minutes", () => {
    const { body, headers } = signed(JSON.stringify(event), { at: Math.floor(Date.now() / 1000) - 600 })
    const error = thrown(() => verifyWebhook(body, headers, secret))
    expect(error instanceof TendersWebhookError && error.message).toMatch(/too old/u)
  })

  it("refuses missing headers and a malformed secret", () => {
    const { body } = signed(JSON.stringify(event))
    expect(thrown(() => verifyWebhook(body, {}, secret))).toBeInstanceOf(TendersWebhookError)
    const { headers } = signed(JSON.stringify(event))
    expect(thrown(() => verifyWebhook(body, headers, "whsec_"))).toBeInstanceOf(TendersWebhookError)
  })

  it("refuses a correctly signed body that is not an alert.created event", () => {
    const { body, headers } = signed(
      JSON.stringify({ type: "alert.created", timestamp: "2030-01-12T09:00:05Z", data: { watchlistId: "nope" } })
    )
    const error = thrown(() => verifyWebhook(body, headers, secret))
    expect(error instanceof TendersWebhookError && error.message).toMatch(/not an alert.created event/u)
  })
})
