/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): one trace id for the whole run, a new span id for
 * every request sent, so a vendor finds the exact request of a failing exchange in their own logs.
 */
import { randomBytes } from 'node:crypto'

/** 16 random bytes as 32 lower-case hex digits; never all zeros, which the spec reserves as invalid. */
export function newTraceId(): string {
  return nonZeroHex(16)
}

/** 8 random bytes as 16 lower-case hex digits; never all zeros. */
export function newSpanId(): string {
  return nonZeroHex(8)
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
