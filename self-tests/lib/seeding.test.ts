import { describe, expect, test } from 'vitest'
import { SEED_ONE_STATUS, SEED_TARGET, seedingPlan, wholeStoreOf } from '../../lib/data/seeding.js'
import { listedPets, type StoreSurvey, type SurveyedPet } from '../../lib/data/store-survey.js'
import { type OperationExchange, PET_STATUSES, type PetStatus } from '../../lib/spec/petstore-api.js'

function after(plan: PetStatus[], before: Record<PetStatus, number>): Record<PetStatus, number> {
  return Object.fromEntries(PET_STATUSES.map((status) => [status, before[status] + plan.filter((planned) => planned === status).length])) as Record<PetStatus, number>
}

describe('top-up seeding creates only the shortfall (policy §3)', () => {
  test('an empty store gets 101 pets, every status, and more than 20 of one status', () => {
    const plan = seedingPlan(0, { available: 0, pending: 0, sold: 0 })
    expect(plan).toHaveLength(SEED_TARGET)
    const counts = after(plan, { available: 0, pending: 0, sold: 0 })
    expect(Math.min(...Object.values(counts))).toBeGreaterThan(0)
    expect(Math.max(...Object.values(counts))).toBeGreaterThanOrEqual(SEED_ONE_STATUS)
  })

  test('a large store with no status above 20 gets pets of its most common status until one has 21, and nothing else', () => {
    // 150 pets known, most of them without a status: the filter rules still need 21 of one status.
    const plan = seedingPlan(150, { available: 12, pending: 15, sold: 3 })
    expect(plan).toEqual(Array(6).fill('pending'))
  })

  test('a store that has everything gets nothing', () => {
    expect(seedingPlan(101, { available: 21, pending: 1, sold: 1 })).toEqual([])
  })

  test('a missing status is added once even in a full store', () => {
    expect(seedingPlan(300, { available: 100, pending: 100, sold: 0 })).toEqual(['sold'])
  })
})

describe('the store the seeding found is known whole only when its lists show all of it', () => {
  const list = (pets: unknown[], status = 200) =>
    ({
      id: 1,
      operation: 'listPets',
      request: { method: 'GET', url: 'http://127.0.0.1:1/v1/pets?limit=100', headers: {}, timeoutMs: 1000 },
      response: { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(pets), bodyBytes: 2 },
      retries: [],
      durationMs: 1,
    }) as OperationExchange
  const pet = (id: number, status: PetStatus = 'available') => ({ id, name: `p${id}`, categoryId: 1, status })
  const survey = (unfiltered: unknown[], byStatus: Partial<Record<PetStatus, unknown[]>> = {}, statusCode = 200): StoreSurvey => {
    const lists = { available: list(byStatus.available ?? [], statusCode), pending: list(byStatus.pending ?? []), sold: list(byStatus.sold ?? []) }
    const pets = new Map<bigint, SurveyedPet>()
    for (const exchange of [list(unfiltered), ...Object.values(lists)]) for (const shown of listedPets(exchange)) pets.set(shown.id, shown)
    return { defaultPage: list(unfiltered.slice(0, 20)), limit100: list(unfiltered), byStatus: lists, pets, lowerBound: pets.size }
  }

  test('fewer than 100 pets, each with an integer id, every filtered list among them: their ids', () => {
    expect(wholeStoreOf(survey([pet(1), pet(2), pet(3, 'sold')], { available: [pet(1), pet(2)], sold: [pet(3, 'sold')] }))).toEqual(new Set([1n, 2n, 3n]))
    expect(wholeStoreOf(survey([]))).toEqual(new Set())
  })

  test.each<[string, StoreSurvey]>([
    ['a list of 100', survey(Array.from({ length: 100 }, (_, index) => pet(index + 1)))],
    ['an item with no integer id', survey([pet(1), { id: '2', name: 'x', categoryId: 1 }])],
    ['a pet a filtered list shows that the unfiltered one does not', survey([pet(1)], { sold: [pet(7, 'sold')] })],
    ['a list not answered 200', survey([pet(1)], {}, 500)],
  ])('%s: not known whole', (_, surveyed) => {
    expect(wholeStoreOf(surveyed)).toBeUndefined()
  })
})
