/**
 * The rule every list answer is held to (policy §2b): never longer than 100, nor than a `limit` the service applied. A
 * limit after more parameters than common parsers read (nginx-lua's 100, qs and Node's querystring 1,000) may be one the
 * service dropped without a word: that list is listPets/parameters-past-a-cap's (SHOULD) to judge, not this rule's MUST.
 */
import { describe, expect, test } from 'vitest'
import { incidentalResults } from '../../lib/checks/incidental-checks.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'

const KEY = 'a-key-of-twenty-four-chr'

function listAnswer(query: string, pets: number): OperationExchange {
  const body = JSON.stringify(Array.from({ length: pets }, (_, index) => ({ id: index + 1, name: 'n', categoryId: 1, status: 'available' })))
  return {
    id: 1,
    operation: 'listPets',
    request: { method: 'GET', url: `http://127.0.0.1:8080/v1/pets?${query}`, headers: { authorization: `Bearer ${KEY}` }, timeoutMs: 1000 },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body, bodyBytes: body.length },
    retries: [],
    durationMs: 1,
  }
}

const lengthFailures = (exchange: OperationExchange) =>
  incidentalResults(exchange, new Date('2026-01-01'), KEY)
    .filter((result) => !result.ok && result.requirementId.startsWith('listPets/limit'))
    .map((result) => result.requirementId)

describe('a list answer is held to the limit it was asked for', () => {
  test('20 pets for limit=3 fails listPets/limit-caps-size, with a few other parameters before it', () => {
    expect(lengthFailures(listAnswer('status=available&limit=3', 20))).toEqual(['listPets/limit-caps-size'])
    expect(lengthFailures(listAnswer(`${'x=&'.repeat(99)}limit=3`, 20))).toEqual(['listPets/limit-caps-size'])
  })

  test('after 1,000 parameters (restify’s qs keeps 1,000 and drops the rest), the limit may never have been read: no MUST here', () => {
    expect(lengthFailures(listAnswer(`${'x=&'.repeat(1_000)}status=available&limit=3`, 20))).toEqual([])
    expect(lengthFailures(listAnswer(`${'x=&'.repeat(100)}status=available&limit=3`, 20))).toEqual([])
  })

  test('more than 100 pets fails listPets/limit-max-100 whatever the query', () => {
    expect(lengthFailures(listAnswer(`${'x=&'.repeat(1_000)}limit=3`, 101))).toEqual(['listPets/limit-max-100'])
  })
})
