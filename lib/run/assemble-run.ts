/**
 * The RunResult of one run, from what the run knows: the same shape whether the run judged the target or
 * stopped before it could (a set-up mistake, an unreachable target), so every exit leaves reports a
 * pipeline can read.
 */

import type { StallAlarm } from '../checks/watchdog.js'
import type { SeedingOutcome } from '../data/seeding.js'
import type { AttemptRecord } from '../http/traffic.js'
import type { BaselineSummary } from '../judging/baseline.js'
import { headlineOf } from '../judging/headline.js'
import { findRootCauses, withRootCauses } from '../judging/root-causes.js'
import { EXIT, type RequirementResult, summarise, unjudged } from '../judging/verdicts.js'
import type { NeighbourhoodSummary, RunResult, RunTrace, WritesSummary } from '../reports/run-result.js'
import { summariseTraffic } from '../reports/traffic-summary.js'
import { peakRssBytes } from '../reports/write-reports.js'
import type { Profile } from '../settings/settings.js'
import { packageVersion } from '../spec/package-root.js'

export interface RunFacts {
  exitCode: number
  baseUrl: string
  embeddedReference: boolean
  profile: Profile
  profileReason: string
  strict: boolean
  failOn: 'any' | 'new'
  seed: number
  started: number
  /** The ISO date the run took as today. */
  today: string
  requirementFilter: readonly string[]
  /** The judged requirements; when absent, the run stopped and every selected requirement is inconclusive with `stopReason`. */
  requirements?: RequirementResult[]
  stopReason?: string
  seeding?: SeedingOutcome
  neighbourhood?: NeighbourhoodSummary
  requestsSent: number
  /** Exchanges that went out, and those judged on the rules of every answer (policy §2b: every one). */
  exchanges?: { sent: number; judged: number }
  rateLimitPauses?: { pauses: number; pausedMs: number }
  writes?: WritesSummary
  harnessErrors?: string[]
  baseline?: BaselineSummary
  artifactsUrl?: string
  /** What the watchdog saw: stretches in which the run sent nothing while checks waited. */
  watchdog?: StallAlarm[]
  /** How the run's requests can be found in the target's logs. */
  trace?: RunTrace
  /** The HAR file of the run's exchanges, relative to the report directory. */
  harFile?: string
  /** Every attempt the run sent, for the latencies and the timeline. */
  traffic?: readonly AttemptRecord[]
}

export function assembleRun(facts: RunFacts): RunResult {
  const judged = facts.requirements ?? unjudged(facts.stopReason ?? 'the run stopped', new Date(facts.today), facts.requirementFilter)
  const rootCauses = findRootCauses(judged)
  const requirements = withRootCauses(judged, rootCauses)
  const { exitCode } = facts
  return {
    formatVersion: 1,
    tool: { name: 'petstore-conformance', version: packageVersion },
    target: { baseUrl: facts.baseUrl, embeddedReference: facts.embeddedReference },
    profile: facts.profile,
    profileReason: facts.profileReason,
    strict: facts.strict,
    failOn: facts.failOn,
    seed: facts.seed,
    startedAt: new Date(facts.started).toISOString(),
    durationMs: Date.now() - facts.started,
    today: facts.today,
    verdict: exitCode === EXIT.conformant ? 'conformant' : exitCode === EXIT.nonConformant ? 'non-conformant' : 'error',
    headline: headlineOf({ exitCode, strict: facts.strict, requirements, ...(facts.stopReason ? { stopReason: facts.stopReason } : {}) }),
    ...(facts.stopReason ? { stopReason: facts.stopReason } : {}),
    exitCode,
    summary: summarise(requirements),
    seeding: facts.seeding ?? { knownBefore: 0, created: 0, note: 'not seeded: the run stopped first' },
    ...(facts.neighbourhood && facts.neighbourhood.planned > 0 ? { neighbourhood: facts.neighbourhood } : {}),
    requestsSent: facts.requestsSent,
    ...(facts.exchanges ? { exchanges: facts.exchanges } : {}),
    ...(facts.rateLimitPauses && facts.rateLimitPauses.pauses > 0 ? { rateLimitPauses: facts.rateLimitPauses } : {}),
    ...(facts.writes && (facts.writes.requestsSent > 0 || facts.writes.requestsNotSent > 0) ? { writes: facts.writes } : {}),
    peakRssBytes: peakRssBytes(),
    harnessErrors: facts.harnessErrors ?? [],
    ...(facts.baseline ? { baseline: facts.baseline } : {}),
    ...(facts.artifactsUrl ? { artifactsUrl: facts.artifactsUrl } : {}),
    ...(facts.watchdog ? { watchdog: facts.watchdog } : {}),
    ...(facts.trace ? { trace: facts.trace } : {}),
    ...(facts.harFile ? { harFile: facts.harFile } : {}),
    ...(facts.traffic ? { traffic: summariseTraffic(facts.traffic, facts.started, Date.now() - facts.started) } : {}),
    rootCauses,
    requirements,
  }
}
