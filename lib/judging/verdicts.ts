/**
 * From check reports to requirement verdicts (policy §1), and from verdicts to the run's exit code.
 * A requirement passes only when at least one check ran and could have failed, and every check held.
 */

import type { CheckReport, Failure, IncidentalFinding } from '../checks/check-result.js'
import { type Area, effectiveLevel, isSelected, type Level, type Requirement, requirements } from '../spec/catalogue.js'

/** How a requirement's verdict moved against a baseline run (see baseline.ts). */
export type Change = 'new-failure' | 'fixed' | 'still-failing' | 'unchanged' | 'new'

export type Verdict = 'pass' | 'fail' | 'warn' | 'inconclusive' | 'skipped' | 'info' | 'untestable'

export interface RequirementResult {
  id: string
  area: Area
  level: Level
  title: string
  specText: string
  source: string
  decision?: string
  verdict: Verdict
  /** Checks that ran and decided something (passed or failed). */
  checks: number
  failedChecks: number
  /** Why the requirement is inconclusive (or skipped). */
  reasons: string[]
  failures: Failure[]
  observations: string[]
  harnessErrors: string[]
  /** Requests of this requirement's checks that were retried (rate limit, or a read broken in transit), and how. */
  retried: string[]
  /** Against a baseline run, when one was given. */
  change?: Change
  /** The broken answer this requirement failed from, when others failed from it too (see root-causes.ts). */
  rootCause?: string
  /** Why a pass rests on part of what a run without the requirement filter judges (lib/run/partial-passes.ts). */
  partial?: string
}

/** Most failures kept per requirement in reports. */
const FAILURES_KEPT = 10

function unique<T>(items: T[]): T[] {
  return [...new Set(items)]
}

/** The reports of a run by requirement: each one's own reports, and the findings on every exchange, once per exchange. */
interface ReportsByRequirement {
  own: Map<string, CheckReport[]>
  incidental: Map<string, Map<number, IncidentalFinding>>
}

/** Sorted once per run, not once per requirement: a run holds hundreds of reports and thousands of findings. */
function byRequirement(reports: readonly CheckReport[]): ReportsByRequirement {
  const own = new Map<string, CheckReport[]>()
  const incidental = new Map<string, Map<number, IncidentalFinding>>()
  for (const report of reports) {
    own.set(report.requirementId, [...(own.get(report.requirementId) ?? []), report])
    for (const finding of report.incidental) {
      const findings = incidental.get(finding.requirementId) ?? new Map<number, IncidentalFinding>()
      incidental.set(finding.requirementId, findings)
      // Findings on every exchange count once per exchange, whichever checks recorded it; a failure is never overwritten.
      if (findings.get(finding.exchangeId)?.ok !== false) findings.set(finding.exchangeId, finding)
    }
  }
  return { own, incidental }
}

export function judge(req: Requirement, reports: readonly CheckReport[], now: Date, filter: readonly string[]): RequirementResult {
  return judgeSorted(req, byRequirement(reports), now, filter)
}

function judgeSorted(req: Requirement, sorted: ReportsByRequirement, now: Date, filter: readonly string[]): RequirementResult {
  const level = effectiveLevel(req, now)
  const base = {
    id: req.id,
    area: req.area,
    level,
    title: req.title,
    specText: req.specText,
    source: req.source,
    ...(req.decision ? { decision: req.decision } : {}),
  }
  const empty = { checks: 0, failedChecks: 0, reasons: [], failures: [], observations: [], harnessErrors: [], retried: [] }
  if (!req.testable) return { ...base, ...empty, verdict: 'untestable', reasons: ['the spec says: not shown'] }
  if (!isSelected(req.id, filter)) return { ...base, ...empty, verdict: 'skipped', reasons: ['left out by the requirement filter'] }

  const own = sorted.own.get(req.id) ?? []
  const failures: Failure[] = own.flatMap((report) => (report.outcome === 'fail' && report.failure ? [report.failure] : []))
  let passes = own.filter((report) => report.outcome === 'pass').length
  const reasons = unique(own.flatMap((report) => (report.outcome === 'inconclusive' && report.reason ? [report.reason] : [])))
  const harnessErrors = unique(own.flatMap((report) => (report.outcome === 'error' && report.reason ? [report.reason] : [])))
  const observations = unique(own.flatMap((report) => report.observations))
  const retried = unique(own.flatMap((report) => report.retried ?? [])).slice(0, FAILURES_KEPT)

  for (const finding of sorted.incidental.get(req.id)?.values() ?? []) {
    if (finding.ok) passes += 1
    else failures.push({ message: finding.message ?? 'failed', evidence: [...(finding.evidence ? [finding.evidence] : []), ...(finding.plain ? [finding.plain] : [])] })
  }

  const result = {
    ...base,
    checks: passes + failures.length,
    failedChecks: failures.length,
    reasons,
    failures: failures.slice(0, FAILURES_KEPT),
    observations,
    harnessErrors,
    retried,
  }
  if (level === 'INFO') {
    const notes = [...observations, ...failures.map((failure) => `recorded: ${failure.message}`)]
    return notes.length > 0 || passes > 0
      ? { ...result, observations: notes, verdict: 'info' }
      : { ...result, verdict: 'inconclusive', reasons: reasons.length ? reasons : ['nothing was recorded'] }
  }
  if (failures.length > 0) return { ...result, verdict: level === 'MUST' ? 'fail' : 'warn' }
  if (harnessErrors.length > 0) return { ...result, verdict: 'inconclusive', reasons: [...reasons, 'a check stopped on a harness error'] }
  if (passes > 0) return { ...result, verdict: 'pass' }
  return { ...result, verdict: 'inconclusive', reasons: reasons.length ? reasons : ['no check of this requirement ran'] }
}

/**
 * Every requirement's verdict; a pass that `partial` names says why it rests on part of what a run without the filter
 * judges, and an inconclusive one adds it to its reasons (where else to look for the evidence).
 */
export function judgeAll(reports: readonly CheckReport[], now: Date, filter: readonly string[], partial: ReadonlyMap<string, string> = new Map()): RequirementResult[] {
  const sorted = byRequirement(reports)
  return requirements.map((req) => {
    const result = judgeSorted(req, sorted, now, filter)
    const why = partial.get(req.id)
    if (why === undefined) return result
    if (result.verdict === 'pass') return { ...result, partial: why }
    return result.verdict === 'inconclusive' ? { ...result, reasons: [...result.reasons, why] } : result
  })
}

/** Every requirement of a run that stopped before judging: what the filter selected is inconclusive with the stop reason. */
export function unjudged(reason: string, now: Date, filter: readonly string[]): RequirementResult[] {
  return requirements.map((req) => {
    const result = judge(req, [], now, filter)
    return result.verdict === 'inconclusive' ? { ...result, reasons: [reason] } : result
  })
}

/** A verdict that says the requirement did not hold: a MUST failed or a SHOULD warned. */
export function isFlagged(verdict: Verdict | undefined): boolean {
  return verdict === 'fail' || verdict === 'warn'
}

export type Summary = Record<Verdict, number> & { total: number }

export function summarise(results: readonly RequirementResult[]): Summary {
  const summary: Summary = { total: results.length, pass: 0, fail: 0, warn: 0, inconclusive: 0, skipped: 0, info: 0, untestable: 0 }
  for (const result of results) summary[result.verdict] += 1
  return summary
}

export const EXIT = { conformant: 0, nonConformant: 1, usage: 2, harness: 3 } as const

/**
 * Whether a requirement's verdict counts against the run: a MUST that failed, or (strict) a SHOULD that
 * warned; with `onlyNewFailures`, only when the baseline did not already have it. The exit code and
 * junit.xml's failure elements both follow this one rule, so they always agree.
 */
export function countsAgainstRun(result: RequirementResult, strict: boolean, onlyNewFailures = false): boolean {
  const flagged = result.verdict === 'fail' || (strict && result.verdict === 'warn')
  return flagged && (!onlyNewFailures || result.change === 'new-failure')
}

/** 1 when a requirement counts against the run (see countsAgainstRun); 3 when the harness failed; else 0. */
export function exitCodeOf(results: readonly RequirementResult[], strict: boolean, harnessFailed: boolean, onlyNewFailures = false): number {
  if (results.some((result) => result.verdict === 'fail' && countsAgainstRun(result, strict, onlyNewFailures))) return EXIT.nonConformant
  if (harnessFailed || results.some((result) => result.harnessErrors.length > 0)) return EXIT.harness
  if (results.some((result) => countsAgainstRun(result, strict, onlyNewFailures))) return EXIT.nonConformant
  return EXIT.conformant
}
