/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): one trace id for the whole run, a new span id for
 * every request sent, so a vendor finds the exact request of a failing exchange in their own logs.
 */
import { randomBytes } from 'node:crypto'

/** 16 random bytes as 32 lower-case hex digits; never all zeros, which the spec reserves as invalid. */
export function newTraceId(): string {
  return nonZeroHex(16)
}

/** Random bytes drawn 2 KiB at a time: one draw serves 256 span ids, where a draw per request cost more than the rest of the trace context. */
let pool = Buffer.alloc(0)
let offset = 0

/** 8 random bytes as 16 lower-case hex digits; never all zeros. */
export function newSpanId(): string {
  for (;;) {
    if (offset + 8 > pool.length) {
      pool = randomBytes(2048)
      offset = 0
    }
    const hex = pool.toString('hex', offset, offset + 8)
    offset += 8
    if (/[^0]/.test(hex)) return hex
  }
}

/** The `traceparent` value: version 00, the trace id, the span id of this request, flags 01 (sampled: worth keeping). */
export function traceparent(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`
}

function nonZeroHex(bytes: number): string {
  for (;;) {
    const hex = randomBytes(bytes).toString('hex')
    if (/[^0]/.test(hex)) return hex
  }
}

/**
 * The span id a request written octet for octet carries until it is sent: all zeros, which the spec reserves as
 * invalid, so it is never a real span. Every attempt puts a span id of its own in its place (withSpan).
 */
export const SPAN_TO_FILL = '0000000000000000'

/** A head written with the traceparent to fill, with this attempt's span in its place: the same length, so Content-Length holds. */
export function withSpan(head: string, traceId: string, spanId: string): string {
  return head.replace(traceparent(traceId, SPAN_TO_FILL), traceparent(traceId, spanId))
}
