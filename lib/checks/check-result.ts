/** What one check of suites/ reports to the runner. */
import type { Evidence } from './evidence.js'

export type CheckOutcome = 'pass' | 'fail' | 'inconclusive' | 'error'

export interface Failure {
  message: string
  expected?: string
  actual?: string
  schemaErrors?: string[]
  /** For generated cases and sequences: seed, path, counterexample and the command that replays it; for a sequence, a curl script too. */
  replay?: { seed: number; path: string; counterexample: string; command: string; script?: string }
  /** The input an experiment showed the failure comes from (root-causes.ts): the same request with that input plain passed. */
  cause?: ExperimentCause
  evidence: Evidence[]
}

/**
 * What an experiment showed: the failure follows one input of the request. `input` names it (`categoryId`, `name`),
 * `words` says what was varied and what passed ("categoryId 9007199254740993 fails alone; the same create with categoryId 1 passes").
 */
export interface ExperimentCause {
  input: string
  words: string
}

/** A finding on an exchange about a requirement checked on every exchange (schemas, Content-Type, 5xx). */
export interface IncidentalFinding {
  requirementId: string
  exchangeId: number
  ok: boolean
  message?: string
  evidence?: Evidence
  /** For an edited request: the plain request's exchange, whose answer it was held to. */
  plain?: Evidence
}

export interface CheckReport {
  requirementId: string
  /** The test's title: `[id] what this check tries`. */
  title: string
  outcome: CheckOutcome
  /** Why a check is inconclusive, or what went wrong in the harness. */
  reason?: string
  failure?: Failure
  observations: string[]
  incidental: IncidentalFinding[]
  /** Ids of the exchanges this check sent or read (shared ones appear in several checks). */
  exchangeIds: number[]
  /** Requests this check read that were retried, each as "METHOD url: what came before" (redacted). */
  retried?: string[]
  assertions: number
}

/** `[area/slug] title` → `area/slug`. */
export function requirementIdOfTitle(title: string): string | undefined {
  return /^\[([A-Za-z0-9]+\/[a-z0-9-]+)\]/.exec(title)?.[1]
}
