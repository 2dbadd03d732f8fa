/**
 * Verdicts in a test runner's terms (the vitest entry): a check, or a requirement judged on the whole run,
 * becomes a failed test, a skipped one with its reason, or a passed one, annotated when it passed with a
 * SHOULD warning or an INFO finding. The failure text is the console's (message, counterexample, curl line,
 * replay command).
 */
import type { CheckReport } from '../checks/check-result.js'
import { countsAgainstRun, type RequirementResult } from '../judging/verdicts.js'
import type { Level } from '../spec/catalogue.js'
import { renderFailure } from './console.js'

export type TestOutcome = { state: 'fail'; message: string } | { state: 'skip'; reason: string } | { state: 'pass'; annotation?: { type: 'warning' | 'info'; message: string } }

/** The outcome of one check's test, from its report and its requirement's level (as of the run's today). */
export function checkTestOutcome(report: CheckReport, level: Level, strict: boolean): TestOutcome {
  switch (report.outcome) {
    case 'inconclusive':
      return { state: 'skip', reason: `inconclusive: ${report.reason ?? 'not decided'}` }
    case 'error':
      return { state: 'fail', message: `harness error (no verdict): ${report.reason ?? 'unknown'}` }
    case 'pass':
      return level === 'INFO' ? { state: 'pass', annotation: { type: 'info', message: ['INFO: held', ...report.observations].join('; ') } } : { state: 'pass' }
    case 'fail': {
      const lines = report.failure ? renderFailure(report.failure) : ['failed']
      if (level === 'MUST' || (level === 'SHOULD' && strict)) return { state: 'fail', message: `${level}: ${lines.join('\n')}` }
      return {
        state: 'pass',
        annotation: { type: level === 'SHOULD' ? 'warning' : 'info', message: `${level === 'SHOULD' ? 'SHOULD warning' : 'INFO, recorded'}: ${lines.join('\n')}` },
      }
    }
  }
}

/** The outcome of a requirement judged on the whole run (on every answer, or over all created pets). */
export function requirementTestOutcome(result: RequirementResult, strict: boolean): TestOutcome {
  const failure = result.failures[0]
  const failureText = failure ? renderFailure(failure, result.failedChecks > 1 ? ` (+${result.failedChecks - 1} more)` : '').join('\n') : 'failed'
  switch (result.verdict) {
    case 'fail':
    case 'warn':
      return countsAgainstRun(result, strict)
        ? { state: 'fail', message: `${result.level}: ${failureText}` }
        : { state: 'pass', annotation: { type: 'warning', message: `SHOULD warning: ${failureText}` } }
    case 'info':
      return { state: 'pass', annotation: { type: 'info', message: `INFO: ${result.observations.slice(0, 3).join('; ') || 'held'}` } }
    case 'pass':
      return { state: 'pass' }
    default:
      return { state: 'skip', reason: `${result.verdict}: ${result.reasons.join('; ') || 'not decided'}` }
  }
}
