/** What the console shows: the run's setting, one line per requirement, and the verdict. */
import type { Failure } from '../checks/check-result.js'
import { traceLine } from '../checks/evidence.js'
import { counted, headlineLine } from '../judging/headline.js'
import type { RootCause } from '../judging/root-causes.js'
import type { RequirementResult, Verdict } from '../judging/verdicts.js'
import type { NeighbourhoodSummary, RunResult, WritesSummary } from './run-result.js'

const MARK: Record<Verdict, string> = {
  pass: 'PASS',
  fail: 'FAIL',
  warn: 'WARN',
  inconclusive: 'INCONCLUSIVE',
  skipped: 'SKIPPED',
  info: 'INFO',
  untestable: 'UNTESTABLE',
}

/** The first line of a text, cut for the console; the reports keep it whole. */
function oneLine(text: string): string {
  const line = text.split('\n')[0] ?? ''
  return line.length > 300 ? `${line.slice(0, 300)}…` : line
}

/** The most of a reproduction the console shows: a create of 64 KiB is a command a terminal should not scroll through. */
const REPRODUCE_SHOWN = 2_000

/** A failure as the console shows it: the message, then the counterexample, the curl line, its trace and span ids and the replay command when there are. */
export function renderFailure(failure: Failure, suffix = ''): string[] {
  const first = failure.evidence[0]
  const trace = first && traceLine(first)
  return [
    `${failure.message}${suffix}`,
    ...(failure.replay ? [`counterexample: ${oneLine(failure.replay.counterexample)}`] : []),
    ...(first
      ? [`reproduce: ${first.curl.length > REPRODUCE_SHOWN ? `${first.curl.slice(0, REPRODUCE_SHOWN)}… (whole in report.html, results.json and junit.xml)` : first.curl}`]
      : []),
    ...(trace ? [trace] : []),
    ...(failure.replay ? [`replay: ${failure.replay.command}`] : []),
  ]
}

function detail(result: RequirementResult, firstOfCause: ReadonlySet<string>): string {
  switch (result.verdict) {
    case 'fail':
    case 'warn': {
      if (result.rootCause && !firstOfCause.has(result.id)) return `\n      failed from the root cause: ${result.rootCause}`
      const first = result.failures[0]
      const more = result.failedChecks > 1 ? ` (+${result.failedChecks - 1} more)` : ''
      return first ? `\n      ${renderFailure(first, more).join('\n      ')}` : ''
    }
    case 'inconclusive':
      return `\n      ${result.reasons.join('; ')}`
    case 'info':
      return result.observations.length ? `\n      ${result.observations.slice(0, 3).join('\n      ')}` : ''
    case 'pass':
      return result.partial ? `\n      partial: ${result.partial}` : ''
    default:
      return ''
  }
}

export function renderRequirementLines(results: readonly RequirementResult[], rootCauses: readonly RootCause[] = []): string {
  // The first requirement of each root cause shows its evidence; the others point at the cause.
  const firstOfCause = new Set(rootCauses.map((cause) => cause.requirements[0] ?? ''))
  return results
    .filter((result) => result.verdict !== 'untestable' && result.verdict !== 'skipped')
    .map(
      (result) =>
        `  ${MARK[result.verdict].padEnd(12)} ${result.level.padEnd(6)} ${result.id}${result.checks ? ` (${counted(result.checks, 'check')}${result.retried.length ? `, ${counted(result.retried.length, 'retried request')}` : ''})` : ''}${detail(result, firstOfCause)}`,
    )
    .join('\n')
}

/** The edits of the run in one line: how many, over how many parts and operators, and the pets they left. */
function neighbourhoodLine(summary: NeighbourhoodSummary): string {
  const reached = summary.edits.filter((row) => row.edits > 0).length
  const gaveWay = summary.gaveWay
    ? `; ${counted(summary.gaveWay, 'edit')} gave way to the target's rate limit (every request still reached by every operator, and every part of it by one)`
    : ''
  const refused = summary.refusedCreates
  const verified = refused
    ? `; ${refused.verified} of ${counted(refused.refused, 'refused create')} verified not stored${refused.by ? ` (by ${refused.by === 'ids' ? 'the ids a stored one would have taken' : 'lists that hold the run’s pets'})` : ''}${refused.undecided ? `, the rest undecided: ${refused.undecided}` : ''}`
    : ''
  return `Edits: ${summary.sent} of ${summary.planned} planned requests sent in the neighbourhood of the plain ones, ${reached} of ${summary.edits.length} request, part and operator pairs reached; ${counted(summary.created, 'pet')} left on the store by its creates${gaveWay}${verified}`
}

/** What the run left on the store in one line: the spec has no DELETE, so a user plans for it. */
export function writesLine(writes: WritesSummary): string {
  const created = writes.createdBySeeding + writes.createdByChecks
  const budget =
    writes.maxCreates === undefined
      ? ''
      : writes.requestsNotSent > 0
        ? `; the budget of ${writes.maxCreates} (--max-creates) was spent, ${counted(writes.requestsNotSent, 'request')} not sent, the checks that needed them inconclusive`
        : `, within the budget of ${writes.maxCreates} (--max-creates)`
  return `Writes: ${counted(created, 'pet')} created (${writes.createdBySeeding} seeding the store, ${writes.createdByChecks} by the checks) by ${counted(writes.requestsSent, 'request')} that may create one${budget}; the store now holds at least ${writes.storeHoldsAtLeast} pets`
}

export function renderSummary(run: RunResult): string {
  const s = run.summary
  return [
    `Requirements: ${s.total} — ${s.pass} pass, ${s.fail} fail, ${s.warn} warn, ${s.inconclusive} inconclusive, ${s.info} info, ${s.skipped} skipped, ${s.untestable} untestable`,
    ...(run.neighbourhood ? [neighbourhoodLine(run.neighbourhood)] : []),
    ...(run.writes ? [writesLine(run.writes)] : []),
    ...(run.rateLimitPauses
      ? [
          `Rate limits: the target asked the run to wait ${counted(run.rateLimitPauses.pauses, 'time')}, ${(run.rateLimitPauses.pausedMs / 1000).toFixed(1)} s in all; every request waited each time`,
        ]
      : []),
    `Verdict: ${headlineLine(run.headline)} (exit ${run.exitCode}) — ${run.profile} profile against ${run.target.baseUrl}${run.target.embeddedReference ? ' (embedded reference)' : ''}, seed ${run.seed}, ${run.requestsSent} requests in ${(run.durationMs / 1000).toFixed(1)} s, peak memory ${Math.round(run.peakRssBytes / 2 ** 20)} MiB`,
  ].join('\n')
}

/** What still fails once a root cause is fixed, in words. */
export function remainingWords(remaining: readonly string[], explained: readonly string[] = []): string {
  // A requirement the cause explains in part still fails once it is fixed, by its other failures: said so.
  return remaining.length === 0 ? 'nothing else fails' : `still failing: ${remaining.map((id) => (explained.includes(id) ? `${id} (by its other failures)` : id)).join(', ')}`
}

/** Each behaviour that explains the failures of several requirements, once, with what remains once it is fixed. */
export function renderRootCauses(run: RunResult): string {
  return run.rootCauses
    .map(
      (cause) =>
        `Root cause: ${cause.cause}: ${counted(cause.requirements.length, 'requirement')} failed from it (${cause.requirements.join(', ')})\n  once it is fixed: ${remainingWords(cause.remaining, cause.requirements)}`,
    )
    .join('\n')
}

/** The tally against the baseline, with the requirements that changed. */
export function renderBaselineTally(run: RunResult): string {
  const baseline = run.baseline
  if (!baseline) return ''
  const named = (change: string) =>
    run.requirements
      .filter((result) => result.change === change)
      .map((result) => result.id)
      .join(', ')
  const lines = [
    `Against ${baseline.file}: ${counted(baseline.newFailures, 'new failure')}, ${baseline.fixed} fixed, ${baseline.stillFailing} still failing, ${baseline.unchanged} unchanged`,
  ]
  if (baseline.newFailures) lines.push(`  new failures: ${named('new-failure')}`)
  if (baseline.fixed) lines.push(`  fixed (expected to fail, now pass): ${named('fixed')}`)
  return lines.join('\n')
}
