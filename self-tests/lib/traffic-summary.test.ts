import { describe, expect, test } from 'vitest'
import type { AttemptRecord } from '../../lib/http/traffic.js'
import { tickLabels } from '../../lib/reports/traffic-html.js'
import { summariseTraffic } from '../../lib/reports/traffic-summary.js'

const START = 1_000_000

function attempt(operation: string, startedMs: number, durationMs: number, outcome: Partial<AttemptRecord> = { status: 200 }): AttemptRecord {
  return { exchangeId: 1, spanId: undefined, operation, method: 'GET', url: 'http://x/v1/pets', startedAt: START + startedMs, durationMs, retried: false, ...outcome }
}

describe('where the time of a run went', () => {
  const attempts = [
    ...Array.from({ length: 20 }, (_, index) => attempt('GET /pets', index * 10, index + 1)),
    attempt('GET /pets', 300, 5, { status: 429, retried: true }),
    attempt('GET /pets', 400, 50, { status: 503 }),
    attempt('GET /pets/{id}', 500, 1000, { failure: { kind: 'timeout', message: 'no answer' } }),
    attempt('POST /pets', 500, 20, { status: 201 }),
    attempt('POST /pets', 505, 20, { status: 400 }),
  ]
  const summary = summariseTraffic(attempts, START, 1_600)

  test('per operation: nearest-rank latency of the answered attempts, and every attempt by status class', () => {
    expect(summary.operations.map((operation) => operation.operation)).toEqual(['GET /pets', 'GET /pets/{id}', 'POST /pets'])
    const list = summary.operations[0]
    expect(list?.requests).toBe(22)
    // 1..20 ms, 5 ms and 50 ms: 22 answered; the 11th is 10 ms, the 21st 20 ms.
    expect(list?.latencyMs).toEqual({ p50: 10, p95: 20, max: 50 })
    expect(list?.byStatusClass).toEqual({ '1xx': 0, '2xx': 20, '3xx': 0, '4xx': 1, '5xx': 1, 'no answer': 0 })
    expect(summary.operations[1]).toEqual({ operation: 'GET /pets/{id}', requests: 1, byStatusClass: { '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0, 'no answer': 1 } })
  })

  test('the timeline: the most in flight per slice, a request held across slices counted in each, and 429s, retries and timeouts where they came', () => {
    const { sliceMs, slices } = summary.timeline
    expect(sliceMs).toBe(14)
    expect(slices).toHaveLength(115)
    const at = (ms: number) => slices[Math.floor(ms / sliceMs)]
    expect(at(0)?.inFlight).toBe(1)
    // The timeout runs from 500 ms to 1500 ms: one in flight all along; the two POSTs overlap it at 505 ms.
    expect(at(505)?.inFlight).toBe(3)
    expect(at(1000)?.inFlight).toBe(1)
    expect(at(1550)?.inFlight).toBe(0)
    expect(at(305)?.tooManyRequests).toBe(1)
    expect(at(305)?.retried).toBe(1)
    expect(at(1500)?.timeouts).toBe(1)
    expect(slices.reduce((sum, slice) => sum + slice.started, 0)).toBe(attempts.length)
  })
})

describe("the timeline's time axis", () => {
  test.for([
    [200, ['0.00 s', '0.05 s', '0.10 s', '0.15 s', '0.20 s']],
    [2_000, ['0.0 s', '0.5 s', '1.0 s', '1.5 s', '2.0 s']],
    [60_000, ['0 s', '15 s', '30 s', '45 s', '60 s']],
  ] as const)('a run of %i ms: five labels, none alike', ([totalMs, labels]) => {
    expect(tickLabels(totalMs)).toEqual(labels)
  })

  test('from a few milliseconds to an hour, no two labels of one axis read alike', () => {
    for (const totalMs of [3, 40, 130, 999, 1_234, 9_999, 12_345, 3_600_000]) expect(new Set(tickLabels(totalMs)).size).toBe(5)
  })
})
