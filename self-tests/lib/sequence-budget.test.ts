import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { PetstoreApi } from '../../lib/spec/petstore-api.js'
import { commandsArbitrary } from '../../suites/sequences/commands.js'
import { type PlannedCommand, plannedRequestsOf, sequencesBudget, sharedCap } from '../../suites/sequences/sequence-budget.js'
import { requestCapOf, SequenceTarget } from '../../suites/sequences/sequence-target.js'
import { StoreModel } from '../../suites/sequences/store-model.js'

const create = (pets: number): PlannedCommand => ({ creates: pets, plannedRequests: () => pets })
const read: PlannedCommand = { creates: 0, plannedRequests: () => 1 }
const readCreated: PlannedCommand = { creates: 0, plannedRequests: (createdBefore) => (createdBefore === 0 ? 0 : 1) }

/** The seed's sequences as a run draws them at the command's defaults (10 of at most 12 commands, creates among them). */
function plansOf(seed: number): number[] {
  const values = fc.sample(commandsArbitrary({ writes: true, length: 12, categoryIds: [] }), { seed, numRuns: 10 })
  return values.map((commands) => plannedRequestsOf(commands, 12))
}

describe("the sequences' request budget: planned before any is sent, the longest cut first", () => {
  test("a sequence's most: its commands, a read of each pet it creates, a list of each status they may show, within its own cap", () => {
    expect(plannedRequestsOf([read, read], 12)).toBe(2)
    // Two pets: two creates, two reads in the sweep, two lists (two statuses at most).
    expect(plannedRequestsOf([create(2)], 12)).toBe(6)
    // Four pets show at most the three statuses; a read of a created pet before any is created is not sent.
    expect(plannedRequestsOf([readCreated, create(1), create(2), create(1), readCreated], 12)).toBe(1 + 4 + 4 + 3)
    expect(
      plannedRequestsOf(
        Array.from({ length: 12 }, () => create(2)),
        12,
      ),
    ).toBe(requestCapOf(12))
  })

  test('plans that fit the budget keep their own caps; others share the largest cap that fits, so short ones run whole', () => {
    expect(sharedCap([10, 20, 30], 60, 12)).toBe(requestCapOf(12))
    const cap = sharedCap([4, 20, 30], 40, 12)
    expect(cap).toBe(18)
    expect(Math.min(4, cap) + Math.min(20, cap) + Math.min(30, cap)).toBeLessThanOrEqual(40)
    expect(Math.min(4, cap + 1) + Math.min(20, cap + 1) + Math.min(30, cap + 1)).toBeGreaterThan(40)
  })

  test("a sequence keeps in reserve the sweep its pets need, and a command the run's budget leaves out says why", () => {
    const capWords = 'the 10 sequences of the run share 100 requests, the longest cut first'
    const target = new SequenceTarget({
      api: () => ({}) as PetstoreApi,
      eventually: () => Promise.reject(new Error('no read in this test')),
      getPetInService: true,
      validListsServed: true,
      requestCap: 3,
      capWords,
      namePrefix: 'budget ',
    })
    const model = new StoreModel()
    // A create of one pet: the create, its read and one list in the sweep.
    expect(target.affords(model, 1, 1)).toBe(true)
    expect(target.affords(model, 2, 2)).toBe(false)
    expect(target.affords(model, 3)).toBe(true)
    target.skip('create 2 pets')
    expect(target.outcome.steps).toEqual([`create 2 pets (not sent: the sequence's cap of 3 requests is reached (${capWords}))`])
  })

  test('at the defaults, 10 sequences of 12 commands share 100 requests; a short sequence keeps room for one create', () => {
    expect(sequencesBudget(10, 12)).toBe(100)
    // However short the sequences, each may still create a pet and read it in both views.
    expect(sequencesBudget(0, 1)).toBe(3)
    expect(sequencesBudget(4, 2)).toBe(12)
  })

  test('at seeds 1 to 30 the cap bites only where the draw is long (seed 5: 150 planned), and never leaves a sequence fewer than 10 requests', () => {
    const budget = sequencesBudget(10, 12)
    const within = (plans: readonly number[], cap: number) => plans.reduce((sum, plan) => sum + Math.min(plan, cap), 0) <= budget
    const cut: number[] = []
    for (let seed = 1; seed <= 30; seed += 1) {
      const plans = plansOf(seed)
      const cap = sharedCap(plans, budget, 12)
      if (cap === requestCapOf(12)) continue
      cut.push(seed)
      // The largest cap that fits: one more would not; and the long draws of the defaults still leave each sequence room.
      expect(within(plans, cap + 1), `seed ${seed}`).toBe(false)
      expect(cap, `seed ${seed}`).toBeGreaterThanOrEqual(10)
    }
    expect(plansOf(5).reduce((sum, plan) => sum + plan, 0)).toBe(150)
    expect(cut).toContain(5)
    expect(cut.length).toBeLessThan(30)
  })
})
