import { describe, expect, test } from 'vitest'
import { retryAfterMs } from '../../lib/http/waits.js'

const NOW = Date.parse('2026-11-23T12:00:00Z')

describe('Retry-After, in both forms of RFC 9110 §10.2.3', () => {
  test.for([
    ['delta-seconds', '3', undefined, 3_000],
    ['delta-seconds, zero', '0', undefined, 0],
    ['an HTTP date, read against this machine when the answer has no Date', 'Mon, 23 Nov 2026 12:00:02 GMT', undefined, 3_000],
    ['an HTTP date, read against the answer’s Date on a clock 30 s behind', 'Mon, 23 Nov 2026 11:59:32 GMT', 'Mon, 23 Nov 2026 11:59:30 GMT', 3_000],
    ['an HTTP date, read against the answer’s Date on a clock 30 s ahead', 'Mon, 23 Nov 2026 12:00:32 GMT', 'Mon, 23 Nov 2026 12:00:30 GMT', 3_000],
    ['an HTTP date already past: one second, never a retry at once', 'Mon, 23 Nov 2026 11:59:00 GMT', undefined, 1_000],
    ['an HTTP date with an unreadable Date: read against this machine', 'Mon, 23 Nov 2026 12:00:02 GMT', 'yesterday', 3_000],
  ] as const)('%s', ([, value, date, wait]) => {
    expect(retryAfterMs(value, date, NOW)).toBe(wait)
  })

  test.for(['soon', '-1', '1.5', ''])('"%s" is not a Retry-After: not waited for', (value) => {
    expect(retryAfterMs(value, undefined, NOW)).toBeUndefined()
  })
})
