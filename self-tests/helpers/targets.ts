/** Targets for end-to-end self-tests: the reference (or a variant of it) on a free loopback port, closed after each test. */
import { afterEach } from 'vitest'
import { PetStore, populatedStore } from '../../reference/pet-store.js'
import type { RunningServer } from '../../reference/server.js'
import { startVariant, type Variant } from '../../variants/variant.js'

export const API_KEY = 'self-test-key-4f9c2a'

export interface Target extends RunningServer {
  store: PetStore
}

/** Registers the after-each hook that closes every target the test started; returns the starter. */
export function useTargets(): (options?: { pets?: number; variant?: Variant }) => Promise<Target> {
  const started: Target[] = []
  afterEach(async () => {
    await Promise.all(started.splice(0).map((target) => target.close()))
  })
  return async ({ pets = 0, variant } = {}) => {
    const store = pets > 0 ? populatedStore(pets) : new PetStore()
    const target = { ...(await startVariant(variant, { apiKey: API_KEY, store })), store }
    started.push(target)
    return target
  }
}
