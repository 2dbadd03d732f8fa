/**
 * Lists that cannot show a pet. A list shows at most 100 pets and their order is never assumed, so once the run's own
 * creates fill it, a pet missing from it may only be past its first page: the checks whose evidence a list holds only
 * while it has room run first (CheckOptions.first). A service that fills in a status for a pet created without one,
 * but whose filter does not match it, is found so while the list of that status has room. And lists that never show
 * a pet (stale, or lagging past the window) are never taken to say that a pet the run created does not exist.
 */
import { afterEach, describe, expect, test } from 'vitest'
import { PetStore } from '../../reference/pet-store.js'
import type { RunningServer } from '../../reference/server.js'
import { viewsFaults } from '../../variants/faults/views.js'
import { isListPets, mapAnswers, startVariant, type Variant } from '../../variants/variant.js'
import { runCli, verdictOf } from '../helpers/run-cli.js'
import { API_KEY } from '../helpers/targets.js'

const running: RunningServer[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()))
})

/** 110 pets, 95 of them available: five more available pets fill that list's first page. */
function nearlyFullOfAvailable(): PetStore {
  const store = new PetStore()
  for (let index = 0; index < 110; index++) store.add({ name: `pet ${index + 1}`, categoryId: 1n, status: index < 95 ? 'available' : index < 105 ? 'pending' : 'sold', extra: {} })
  return store
}

describe('checks that run before the run’s other creates', () => {
  test('a pet shown as available but missing from status=available is found while that list, nearly full, still has room', { timeout: 120_000 }, async () => {
    const fault = viewsFaults.find((variant) => variant.name === 'status-omitted-missing-from-filter')
    const target = await startVariant(fault, { apiKey: API_KEY, store: nearlyFullOfAvailable() })
    running.push(target)
    const outcome = await runCli(['--base-url', target.baseUrl, '--profile', 'full', '--seed', '5', '--sequences', '0'], { PETSTORE_API_KEY: API_KEY })
    expect(verdictOf(outcome, 'views/one-pet-reads-the-same'), outcome.stdout).toBe('fail')
    const failure = outcome.results?.requirements.find((result) => result.id === 'views/one-pet-reads-the-same')?.failures?.[0]
    expect(failure?.message).toMatch(/created without status and shown as available, is missing from GET \/pets\?status=available&limit=100/)
    expect(outcome.code).toBe(1)
  })
})

describe('a pet the run created is a pet, whatever the lists show', () => {
  test('lists stuck on an empty store, ids from 1: GET /pets/1 answered with the pet the seeding created is no pet out of nowhere', { timeout: 120_000 }, async () => {
    // Lists served from a snapshot taken when the service started (an empty store): they never show a pet.
    const staleLists: Variant = {
      name: 'lists-stuck-empty',
      description: 'every list is answered []',
      wrap: mapAnswers((answer, request) => (isListPets(request) && answer.status === 200 ? { ...answer, body: '[]' } : answer)),
    }
    const store = new PetStore(1n)
    const target = await startVariant(staleLists, { apiKey: API_KEY, store })
    running.push(target)
    const outcome = await runCli(['--base-url', target.baseUrl, '--profile', 'full', '--seed', '5', '--requirements', 'getPet/int64-edge-ids'], { PETSTORE_API_KEY: API_KEY })
    expect(store.get(1n)?.name, 'the seeding created pet 1').toMatch(/seed/)
    expect(verdictOf(outcome, 'getPet/int64-edge-ids'), outcome.stdout).toBe('pass')
  })
})
