import { Context, type Fiber, References, Tracer } from "effect"

/**
 * The span a fiber's log lines and faults name: its current span while traces are recorded, none while they are not
 * (`References.TracerEnabled` false, as `serve` sets it when no OTLP endpoint is configured: its spans are then
 * placeholders without ids of their own, and nothing exports them).
 */
export const recordedSpanOf = (fiber: Fiber.Fiber<unknown, unknown>): Tracer.AnySpan | undefined =>
  fiber.getRef(References.TracerEnabled) ? Context.getOrUndefined(fiber.context, Tracer.ParentSpan) : undefined
