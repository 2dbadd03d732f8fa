/**
 * Runs the registered checks of suites/ against one target: the few that run first (CheckOptions.first) end before
 * the others start; then every other selected check starts at once, and the
 * HTTP client bounds the requests in flight (--concurrency). A check that waits for shared data (the store
 * survey) then holds no slot another check could use, so every operation is reached early: a target whose
 * lists hang does not keep the getPet checks from starting. The run's stop (its deadline, or a cancel) bounds
 * every check; it never throws for what the target does, every check ends in a report, and a check cut off by
 * the stop says so in the stop's words. The checks still running are known to the run state, for the watchdog.
 */
import { stopWords } from '../http/exchange.js'
import { isSelected } from '../spec/catalogue.js'
import { Inconclusive } from './assertions.js'
import { Check, type CheckEnd, type RunState } from './check.js'
import { type CheckReport, requirementIdOfTitle } from './check-result.js'
import type { CheckDefinition } from './registry.js'

export interface RunChecksOptions {
  /** Requirement ids or prefixes; empty runs every check. */
  filter: readonly string[]
  /** Aborted when the run stops (its deadline, or a cancel): checks not finished by then stop without a verdict. */
  stop: AbortSignal
  /** Called as each check ends, with how many have ended. */
  onProgress?: (done: number, total: number, title: string) => void
  /** Called with each check's report as it ends. */
  onReport?: (report: CheckReport) => void
}

function stoppedReason(stop: AbortSignal): string {
  return `${stopWords(stop)} before this check finished`
}

/** Resolves with how the check ended, or with `stopped` once the run stops; never rejects. */
function settle(check: Check, definition: CheckDefinition, stopped: Promise<CheckEnd>): Promise<CheckEnd> {
  const ran = definition.run(check).then(
    (): CheckEnd => ({ state: 'pass' }),
    (error: unknown): CheckEnd => (error instanceof Inconclusive ? { state: 'inconclusive', reason: error.message } : { state: 'fail', error }),
  )
  return Promise.race([ran, stopped])
}

/**
 * One end for every check the run's stop cuts: one listener on the stop, not one per check (a run has a few hundred
 * checks, and each removal searched the stop's list of listeners).
 */
function whenStopped(stop: AbortSignal): { stopped: Promise<CheckEnd>; release: () => void } {
  let onAbort = () => {}
  const stopped = new Promise<CheckEnd>((resolve) => {
    onAbort = () => resolve({ state: 'inconclusive', reason: stoppedReason(stop) })
    stop.addEventListener('abort', onAbort, { once: true })
  })
  return { stopped, release: () => stop.removeEventListener('abort', onAbort) }
}

function selectedChecks(definitions: readonly CheckDefinition[], filter: readonly string[]): CheckDefinition[] {
  return definitions.filter((definition) => isSelected(requirementIdOfTitle(definition.title) ?? '', filter))
}

export async function runChecks(definitions: readonly CheckDefinition[], state: RunState, options: RunChecksOptions): Promise<CheckReport[]> {
  const selected = selectedChecks(definitions, options.filter)
  const { stopped, release } = whenStopped(options.stop)
  let done = 0
  const run = async (definition: CheckDefinition): Promise<CheckReport> => {
    const check = new Check(state, definition.title)
    state.pending.add(check)
    const report = options.stop.aborted ? check.report({ state: 'inconclusive', reason: stoppedReason(options.stop) }) : check.report(await settle(check, definition, stopped))
    state.pending.delete(check)
    done += 1
    options.onReport?.(report)
    options.onProgress?.(done, selected.length, definition.title)
    return report
  }
  try {
    // The checks that run first end (each within the run's stop) before the others start; the reports keep the suites' order.
    const first = new Map(await Promise.all(selected.filter((definition) => definition.first).map(async (definition) => [definition, await run(definition)] as const)))
    return await Promise.all(selected.map((definition) => first.get(definition) ?? run(definition)))
  } finally {
    release()
  }
}
