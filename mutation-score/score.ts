/**
 * How one run against a variant is judged. A fault is caught when a requirement it declares fails (or,
 * for a SHOULD, warns). A look-alike passes when the run exits 0 and nothing fails or warns beyond the
 * SHOULD requirements it declares it may warn on.
 */

import { alarmLine } from '../lib/checks/watchdog.js'
import { isFlagged } from '../lib/judging/verdicts.js'
import type { RunResult } from '../lib/reports/run-result.js'
import type { Variant } from '../variants/variant.js'

export interface VariantScore {
  name: string
  kind: 'fault' | 'look-alike'
  description: string
  /** Fault: caught or missed. Look-alike: passed or falsely failed. */
  ok: boolean
  /** Fault: the declared requirements that caught it. Look-alike: requirements that failed or warned unexpectedly. */
  requirements: string[]
  /** Every requirement that failed or warned, declared or not. */
  flagged: string[]
  exitCode: number
  durationMs: number
  note?: string
  /** For a look-alike falsely failed: the first failure of the first requirement it should not have failed, in words (what a soak prints to diagnose it). */
  firstFailure?: string
  /** For a look-alike falsely failed: the first failure of each requirement it should not have failed or warned on. */
  firstFailures?: string[]
  /** The watchdog's alarms, in words: stretches in which the run sent nothing while checks waited. */
  stalls?: string[]
}

/** Why the run's judging is amiss whatever the variant: an exchange that went out and was not judged on the rules of every answer (policy §2b). */
function unjudgedExchanges(results: RunResult | undefined): string | undefined {
  const exchanges = results?.exchanges
  return exchanges && exchanges.sent !== exchanges.judged ? `${exchanges.sent - exchanges.judged} of ${exchanges.sent} exchanges went unjudged` : undefined
}

/** The watchdog's alarms of the run, when it raised any. */
function stallsIn(results: RunResult | undefined): { stalls?: string[] } {
  return results?.watchdog?.length ? { stalls: results.watchdog.map(alarmLine) } : {}
}

function flaggedIn(results: RunResult | undefined): string[] {
  return (results?.requirements ?? []).filter((result) => isFlagged(result.verdict)).map((result) => result.id)
}

export function scoreFault(fault: Variant, results: RunResult | undefined, exitCode: number, durationMs: number): VariantScore {
  const flagged = flaggedIn(results)
  const caughtBy = flagged.filter((id) => fault.catches?.includes(id as never))
  const harness = exitCode !== 0 && exitCode !== 1 ? `the run ended with exit code ${exitCode}` : unjudgedExchanges(results)
  const blamed = fault.onlyCatches ? flagged.filter((id) => !fault.catches?.includes(id as never)) : []
  return {
    name: fault.name,
    kind: 'fault',
    description: fault.description,
    ok: caughtBy.length > 0 && harness === undefined && blamed.length === 0,
    requirements: caughtBy,
    flagged,
    exitCode,
    durationMs,
    ...(harness
      ? { note: harness }
      : caughtBy.length === 0
        ? { note: `none of ${fault.catches?.join(', ')} failed` }
        : blamed.length > 0
          ? { note: `charged to rules it does not break: ${blamed.join(', ')}` }
          : {}),
    ...stallsIn(results),
  }
}

export function scoreLookAlike(lookAlike: Variant, results: RunResult | undefined, exitCode: number, durationMs: number): VariantScore {
  const flagged = flaggedIn(results)
  const unexpected = flagged.filter((id) => !lookAlike.allowedWarnings?.includes(id as never) || results?.requirements.find((result) => result.id === id)?.verdict === 'fail')
  const unjudged = unjudgedExchanges(results)
  return {
    name: lookAlike.name,
    kind: 'look-alike',
    description: lookAlike.description,
    ok: exitCode === 0 && unexpected.length === 0 && unjudged === undefined,
    requirements: unexpected,
    flagged,
    exitCode,
    durationMs,
    ...(exitCode !== 0 ? { note: `the run ended with exit code ${exitCode}` } : unjudged ? { note: unjudged } : {}),
    ...firstFailureOf(results, unexpected),
    ...(unexpected.length > 0 ? { firstFailures: unexpected.map((id) => `${id}: ${firstFailureOf(results, [id]).firstFailure ?? '(no failure recorded)'}`) } : {}),
    ...stallsIn(results),
  }
}

/** The first failure of the first of `ids`, with its first evidence's request and answer, cut to a line a soak can print. */
function firstFailureOf(results: RunResult | undefined, ids: readonly string[]): { firstFailure?: string } {
  const failure = results?.requirements.find((result) => result.id === ids[0])?.failures?.[0]
  if (!failure) return {}
  const evidence = failure.evidence[0]
  const exchange = evidence ? ` [${evidence.request.method} ${evidence.request.url} → ${evidence.response?.status ?? evidence.failure ?? ''}]` : ''
  return { firstFailure: `${failure.message}${exchange}`.slice(0, 600) }
}

export interface MutationScore {
  faults: number
  caught: number
  lookAlikes: number
  falseFailures: number
}

export function summariseScores(scores: readonly VariantScore[]): MutationScore {
  const faults = scores.filter((score) => score.kind === 'fault')
  const lookAlikes = scores.filter((score) => score.kind === 'look-alike')
  return { faults: faults.length, caught: faults.filter((score) => score.ok).length, lookAlikes: lookAlikes.length, falseFailures: lookAlikes.filter((score) => !score.ok).length }
}

export function renderScoreTable(scores: readonly VariantScore[]): string {
  const width = Math.max(...scores.map((score) => score.name.length))
  const line = (score: VariantScore) => {
    const verdict = score.kind === 'fault' ? (score.ok ? 'caught' : 'MISSED') : score.ok ? 'passed' : 'FALSELY FAILED'
    const detail =
      score.kind === 'fault'
        ? score.ok
          ? `by ${score.requirements.join(', ')}`
          : (score.note ?? '')
        : score.ok
          ? score.flagged.length
            ? `warned as allowed: ${score.flagged.join(', ')}`
            : ''
          : `${score.requirements.join(', ')}${score.note ? ` (${score.note})` : ''}`
    return `  ${score.kind.padEnd(10)} ${score.name.padEnd(width)}  ${verdict.padEnd(14)} ${(score.durationMs / 1000).toFixed(1).padStart(5)} s  ${detail}`
  }
  const summary = summariseScores(scores)
  return [
    ...scores.map(line),
    '',
    `Faults caught: ${summary.caught}/${summary.faults} (${((100 * summary.caught) / Math.max(1, summary.faults)).toFixed(0)}%)`,
    `Look-alikes falsely failed: ${summary.falseFailures}/${summary.lookAlikes}`,
  ].join('\n')
}
