/** Targets for end-to-end self-tests: the reference (or a variant of it) on a free loopback port, closed after each test. */
import { afterEach } from 'vitest'
import { PetStore, populatedStore } from '../../reference/pet-store.js'
import type { RunningServer, ServerTls } from '../../reference/server.js'
import { startVariant, type Variant } from '../../variants/variant.js'

export const API_KEY = 'self-test-key-4f9c2a'

/**
 * A target nobody serves: port 1 on loopback. Not a port taken from the OS and closed again: the self-tests start
 * servers on OS-chosen ports all the time, and one of them may be given that port a moment later (a fleet test
 * once found a conformant reference on its "unreachable" target). Port 1 is outside the range the OS hands out
 * and nothing on a test machine listens there.
 */
export const UNREACHABLE_BASE_URL = 'http://127.0.0.1:1/v1'

export interface Target extends RunningServer {
  store: PetStore
}

export interface TargetOptions {
  pets?: number
  variant?: Variant
  tls?: ServerTls
}

/** Starts the reference (or a variant) holding `pets` pets; the caller closes it. */
export async function startTarget({ pets = 0, variant, tls }: TargetOptions = {}): Promise<Target> {
  const store = pets > 0 ? populatedStore(pets) : new PetStore()
  return { ...(await startVariant(variant, { apiKey: API_KEY, store }, tls)), store }
}

/** Registers the after-each hook that closes every target the test started; returns the starter. For sequential tests. */
export function useTargets(): (options?: TargetOptions) => Promise<Target> {
  const started: Target[] = []
  afterEach(async () => {
    await Promise.all(started.splice(0).map((target) => target.close()))
  })
  return async (options = {}) => {
    const target = await startTarget(options)
    started.push(target)
    return target
  }
}
