/**
 * What a run takes from the layers above lib/: the checks to run and a way to start the embedded reference
 * implementation. lib/ never imports suites/ or reference/; the entry points (entry-points/) hand both in.
 */
import type { CheckDefinition } from '../checks/registry.js'

/** The embedded reference, started on a port the OS chose. */
export interface RunningReference {
  baseUrl: string
  /** Method and path (with query) of every request it received, in order, once it is closed, when its start asked to keep them (the dry run counts them). */
  requests: ReadonlyArray<{ method: string; url: string }>
  close(): Promise<void>
}

export interface ReferenceStart {
  /** The only key it accepts. */
  apiKey: string
  /** Pets its store holds at the start (default none). */
  pets?: number
  /** Where it listens (default 127.0.0.1, on a port the OS picks). */
  host?: string
  port?: number
  /** Keep the method and URL of every request, in `requests` once it is closed (default none: a long-running one stays flat in memory). */
  keepRequests?: boolean
  /** Called once for each answer (the serve verb logs them). */
  onAnswer?: (answer: { method: string; url: string; status: number; durationMs: number }) => void
}

export interface ConformanceSuite {
  /** Every check, in the order the suites declare them. */
  checks: readonly CheckDefinition[]
  startReference: (start: ReferenceStart) => Promise<RunningReference>
}
