import { describe, expect, test } from 'vitest'
import { SEED_ONE_STATUS, SEED_TARGET, seedingPlan } from '../../lib/data/seeding.js'
import { PET_STATUSES, type PetStatus } from '../../lib/spec/petstore-api.js'

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
