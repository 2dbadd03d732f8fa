/** Everything a report needs about one run. */

import type { StallAlarm } from '../checks/watchdog.js'
import type { BaselineSummary } from '../judging/baseline.js'
import type { Headline } from '../judging/headline.js'
import type { RootCause } from '../judging/root-causes.js'
import type { RequirementResult, Summary } from '../judging/verdicts.js'
import type { Profile } from '../settings/settings.js'
import type { TrafficSummary } from './traffic-summary.js'

/** How a run's requests are found in the target's logs. */
export interface RunTrace {
  /** The trace id of every request's traceparent; absent when none was sent (--omit-traceparent). */
  traceId?: string
  runId: string
  /** The User-Agent of every request (`petstore-conformance/<version> run/<id>`). */
  userAgent: string
}

export interface RunResult {
  formatVersion: 1
  tool: { name: string; version: string }
  target: { baseUrl: string; embeddedReference: boolean }
  profile: Profile
  profileReason: string
  strict: boolean
  /** `new`: only failures the baseline did not have count against the run (--fail-on new). */
  failOn: 'any' | 'new'
  seed: number
  startedAt: string
  durationMs: number
  /** The date the run took as today (injectable clock). */
  today: string
  verdict: 'conformant' | 'non-conformant' | 'error'
  headline: Headline
  /** Why the run stopped before judging (exit 2 or 3), or `cancelled` for a run cut short by a signal (exit 3). */
  stopReason?: string
  exitCode: number
  summary: Summary
  seeding: { created: number; knownBefore: number; note: string }
  /** The neighbourhood of the plain requests (policy §2b): the edits made of each request, part and operator, and the pets they left on the store. */
  neighbourhood?: NeighbourhoodSummary
  requestsSent: number
  /** Exchanges that went out (a request with its retries is one), and how many of them were judged on the rules of every answer: every one (policy §2b). */
  exchanges?: { sent: number; judged: number }
  /** What the run wrote to the store (a full run; policy §3): the requests that may create a pet, and the pets they created. */
  writes?: WritesSummary
  /** The pauses rate limits asked of the whole run (lib/http/rate-limit-pause.ts), when there were any. */
  rateLimitPauses?: { pauses: number; pausedMs: number }
  /** Peak resident memory of the suite's process, in bytes: bounded whatever the target sends. */
  peakRssBytes: number
  harnessErrors: string[]
  /** The tally against an earlier run, when --baseline was given. */
  baseline?: BaselineSummary
  /** Where CI keeps this run's reports. */
  artifactsUrl?: string
  /** Stretches in which the run sent nothing for longer than the request timeout while checks waited, each naming what they waited on. */
  watchdog?: StallAlarm[]
  /** The trace id and run id every request carried. */
  trace?: RunTrace
  /** The HAR file of the run's exchanges (--har), relative to the report directory. */
  harFile?: string
  /** Per operation, latencies and attempts by status class; the run as a timeline (in flight, retries, 429s, timeouts). */
  traffic?: TrafficSummary
  /** Broken answers several requirements failed from, each named once. */
  rootCauses: RootCause[]
  requirements: RequirementResult[]
}

export interface NeighbourhoodSummary {
  /** Requests the neighbourhood planned (the plain requests and their edits), and sent. */
  planned: number
  sent: number
  /** Creates answered 201: pets the neighbourhood left on the store. */
  created: number
  /** Edits not sent because the target's rate limit paused the run (every request, part and operator still reached once); absent when none. */
  gaveWay?: number
  /** The creates the service refused, and how many the run verified were not stored (the leakage rule); absent when none was refused. */
  refusedCreates?: { refused: number; verified: number; by?: 'lists' | 'ids'; undecided?: string }
  /** Every request, part and operator that edits it, with the edits sent: 0 marks a pair left out (by --max-edits). */
  edits: Array<{ request: string; part: string; operator: string; edits: number }>
}

/** A run's writes, so a user can plan for them: the spec has no DELETE, so every pet a run creates stays. */
export interface WritesSummary {
  /** Requests that may create a pet (every method but GET, HEAD and OPTIONS) sent, and not sent for --max-creates. */
  requestsSent: number
  requestsNotSent: number
  /** Their 2xx answers: pets created, by the seeding and by the checks. */
  createdBySeeding: number
  createdByChecks: number
  /** What the store is known to hold now: the pets the run saw before it wrote, and those it created. */
  storeHoldsAtLeast: number
  /** The bound given (--max-creates), when one was. */
  maxCreates?: number
}
