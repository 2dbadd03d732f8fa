/**
 * The Pet Store conformance suite as the run layer takes it: every check of suites/ and the embedded
 * reference implementation of reference/. Every entry point (the command, the typed API, the vitest entry)
 * runs these same check definitions.
 */
import type { ConformanceSuite } from '../lib/run/suite.js'
import { registeredChecks } from '../suites/index.js'

export const petstoreSuite: ConformanceSuite = {
  checks: registeredChecks(),
  // Loaded only when a run judges the reference: a run against a URL needs no server, and importing node:http as
  // ESM costs every start about 60 ms of CPU (its namespace reads a getter that loads Node's own undici).
  startReference: async ({ apiKey, pets = 0, host, port, onAnswer }) => {
    const [{ createReferenceHandler }, { PetStore, populatedStore }, { startServer }] = await Promise.all([
      import('../reference/handler.js'),
      import('../reference/pet-store.js'),
      import('../reference/server.js'),
    ])
    const handler = createReferenceHandler({ apiKey, store: pets > 0 ? populatedStore(pets) : new PetStore() })
    return startServer(handler, host, undefined, {
      ...(port !== undefined ? { port } : {}),
      ...(onAnswer ? { onAnswer, keepRequests: false } : {}),
    })
  },
}
