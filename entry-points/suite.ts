/**
 * The Pet Store conformance suite as the run layer takes it: every check of suites/ and the embedded
 * reference implementation of reference/. Every entry point (the command, the typed API, the vitest entry)
 * runs these same check definitions.
 */
import type { ConformanceSuite } from '../lib/run/suite.js'
import { createReferenceHandler } from '../reference/handler.js'
import { PetStore, populatedStore } from '../reference/pet-store.js'
import { startServer } from '../reference/server.js'
import { registeredChecks } from '../suites/index.js'

export const petstoreSuite: ConformanceSuite = {
  checks: registeredChecks(),
  startReference: ({ apiKey, pets = 0 }) => startServer(createReferenceHandler({ apiKey, store: pets > 0 ? populatedStore(pets) : new PetStore() })),
}
