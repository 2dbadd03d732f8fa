/** Everything a report needs about one run. */

import type { Profile } from '../checks/run-settings.js'
import type { BaselineSummary } from '../judging/baseline.js'
import type { RequirementResult, Summary } from '../judging/verdicts.js'

export interface RunResult {
  formatVersion: 1
  tool: { name: string; version: string }
  target: { baseUrl: string; embeddedReference: boolean }
  profile: Profile
  profileReason: string
  strict: boolean
  seed: number
  startedAt: string
  durationMs: number
  /** The date the run took as today (injectable clock). */
  today: string
  verdict: 'conformant' | 'non-conformant' | 'error'
  exitCode: number
  summary: Summary
  seeding: { created: number; knownBefore: number; note: string }
  requestsSent: number
  /** Peak resident memory of the suite's process, in bytes: bounded whatever the target sends. */
  peakRssBytes: number
  harnessErrors: string[]
  /** The tally against an earlier run, when --baseline was given. */
  baseline?: BaselineSummary
  /** Where CI keeps this run's reports. */
  artifactsUrl?: string
  requirements: RequirementResult[]
}
