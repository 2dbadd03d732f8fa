/**
 * What the run's writes showed (lib/http/caps.ts): with the store the lists showed whole before the run wrote, the ids
 * its writes were answered with are every pet the store can hold, unless one of them ended without naming its pet.
 * getPet/int64-edge-ids reads it after the writes under way when an edge id was answered have ended.
 */
import { describe, expect, test } from 'vitest'
import { WriteBudget } from '../../lib/http/caps.js'
import type { Exchange } from '../../lib/http/exchange.js'

function ended(id: number, end: { status: number; body?: string } | 'no answer'): Exchange {
  const request = { method: 'POST', url: 'http://127.0.0.1:1/v1/pets', headers: {}, timeoutMs: 1000 }
  return end === 'no answer'
    ? { id, request, failure: { kind: 'connection', message: 'reset' }, retries: [], durationMs: 1 }
    : { id, request, response: { status: end.status, headers: {}, body: end.body ?? '', bodyBytes: (end.body ?? '').length }, retries: [], durationMs: 1 }
}

describe("the run's writes, as their answers show them", () => {
  test('a 2xx naming an id adds it; a refusal names no pet and leaves nothing unknown', () => {
    const writes = new WriteBudget(undefined)
    writes.take(1)
    writes.take(2)
    writes.ended(ended(1, { status: 201, body: '{"id":9223372036854775807,"name":"a","categoryId":1}' }))
    writes.ended(ended(2, { status: 400, body: '{"code":"bad","message":"no","status":400}' }))
    expect([...writes.idsShown]).toEqual([2n ** 63n - 1n])
    expect(writes.unknownOutcomes).toBe(0)
    expect(writes.answered2xx).toBe(1)
  })

  test('a write with no answer, or a 2xx whose body names no id, may have made a pet unseen', () => {
    const writes = new WriteBudget(undefined)
    for (const id of [1, 2, 3]) writes.take(id)
    writes.ended(ended(1, 'no answer'))
    writes.ended(ended(2, { status: 200, body: 'TRACE /v1/pets HTTP/1.1' }))
    writes.ended(ended(3, { status: 201, body: '{"name":"a"}' }))
    expect(writes.unknownOutcomes).toBe(3)
    expect(writes.idsShown.size).toBe(0)
  })

  test('a write the budget kept back was never sent: it made nothing', () => {
    const writes = new WriteBudget(0)
    const failure = writes.take(1)
    expect(failure?.kind).toBe('over-budget')
    writes.ended({ ...ended(1, 'no answer'), failure: failure as NonNullable<typeof failure> })
    expect(writes.unknownOutcomes).toBe(0)
  })

  test('settled waits for the writes under way when it is asked, not for those sent after', async () => {
    const writes = new WriteBudget(undefined)
    writes.take(1)
    let settled = false
    const waiting = writes.settled().then(() => {
      settled = true
    })
    writes.take(2)
    await Promise.resolve()
    expect(settled).toBe(false)
    writes.ended(ended(1, { status: 201, body: '{"id":0,"name":"","categoryId":0}' }))
    await waiting
    expect(settled).toBe(true)
    expect(writes.idsShown.has(0n)).toBe(true)
  })
})
