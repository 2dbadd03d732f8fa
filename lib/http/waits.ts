/** How long a rate limit asks the run to wait (Retry-After), and waiting: a sleep the run's stop cuts short, a turn of the event loop. */

/** One second: the resolution of an HTTP date. */
const HTTP_DATE_RESOLUTION_MS = 1_000

/**
 * Milliseconds a Retry-After header asks to wait, or undefined (RFC 9110 §10.2.3): delta-seconds, or an
 * HTTP-date. A date is read against the answer's own `Date` header when it has one, so a service whose clock
 * is off from this machine's is still waited for as long as it asks (a clock behind ours would otherwise
 * read as "retry now", and the retries would run out); and since both dates are cut to the second, the wait
 * gets one more second, so a retry never comes early.
 */
export function retryAfterMs(value: string | undefined, serverDate?: string, now = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000
  // The three forms of an HTTP date all name the month and give the time; Date.parse alone reads "-1" as a year.
  const retryAt = /[A-Za-z]{3}/.test(trimmed) && /\b\d{2}:\d{2}:\d{2}\b/.test(trimmed) ? Date.parse(trimmed) : Number.NaN
  if (Number.isNaN(retryAt)) return undefined
  const served = serverDate === undefined ? Number.NaN : Date.parse(serverDate)
  return Math.max(0, retryAt - (Number.isNaN(served) ? now : served)) + HTTP_DATE_RESOLUTION_MS
}

/** Waits `ms`, or less when the run stops first. */
export function delay(ms: number, stop?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (stop?.aborted) return resolve()
    const done = () => {
      clearTimeout(timer)
      stop?.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    stop?.addEventListener('abort', done, { once: true })
  })
}

/** A turn for the event loop (timers, I/O, signals) before going on: a loop that only awaits settled promises never gives one. */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/** A 429, or a 503 with Retry-After: the target asking to wait (RFC 9110 §10.2.3), not an answer to the request. */
export function isRateLimitAnswer(response: { status: number; headers: Record<string, string> }): boolean {
  return response.status === 429 || (response.status === 503 && response.headers['retry-after'] !== undefined)
}
