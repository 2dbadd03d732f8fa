/**
 * The Pet Store conformance suite as the run layer takes it: every check of suites/ and the embedded
 * reference implementation of reference/. Every entry point (the command, the typed API, the vitest entry)
 * runs these same check definitions.
 */
import type { ConformanceSuite } from '../lib/run/suite.js'
import { registeredChecks } from '../suites/index.js'

export const petstoreSuite: ConformanceSuite = {
  checks: registeredChecks(),
  // Loaded only when a run judges the reference: a run against a URL needs no server. The reference answers in a
  // thread of its own (threaded-reference.ts).
  startReference: async (start) => {
    const { startReferenceThread } = await import('./threaded-reference.js')
    return startReferenceThread(start)
  },
}
