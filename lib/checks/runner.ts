/**
 * Runs the registered checks of suites/ against one target: the selected ones, at most `concurrency`
 * at once, each within its own time limit, all within the run's deadline. It never throws for what the
 * target does; every check ends in a report, and a check cut off by the deadline says so.
 */
import { mapConcurrently } from '../http/concurrency.js'
import { isSelected } from '../spec/catalogue.js'
import { Check, type CheckEnd, Inconclusive, type RunState } from './check.js'
import { type CheckReport, requirementIdOfTitle } from './check-result.js'
import type { CheckDefinition } from './registry.js'

export interface RunChecksOptions {
  /** Requirement ids or prefixes; empty runs every check. */
  filter: readonly string[]
  /** Checks running at once. */
  concurrency: number
  /** Longest one check may take before it is stopped as a harness error. */
  checkTimeoutMs: number
  /** Aborted when the run's deadline passes: checks not finished by then stop without a verdict. */
  deadline: AbortSignal
  /** Called as each check starts, with how many have finished. */
  onProgress?: (done: number, total: number, title: string) => void
}

export const DEADLINE_REASON = 'deadline reached: the run deadline passed before this check finished'

class CheckTimedOut extends Error {
  override name = 'CheckTimedOut'
}

/** Resolves with how the check ended; never rejects. */
async function settle(check: Check, definition: CheckDefinition, options: RunChecksOptions): Promise<CheckEnd> {
  let timer: NodeJS.Timeout | undefined
  let onAbort: (() => void) | undefined
  const stopped = new Promise<CheckEnd>((resolve) => {
    timer = setTimeout(() => resolve({ state: 'fail', error: new CheckTimedOut(`the check did not finish within ${options.checkTimeoutMs} ms`) }), options.checkTimeoutMs)
    onAbort = () => resolve({ state: 'inconclusive', reason: DEADLINE_REASON })
    options.deadline.addEventListener('abort', onAbort, { once: true })
  })
  const ran = definition.run(check).then(
    (): CheckEnd => ({ state: 'pass' }),
    (error: unknown): CheckEnd => (error instanceof Inconclusive ? { state: 'inconclusive', reason: error.message } : { state: 'fail', error }),
  )
  try {
    return await Promise.race([ran, stopped])
  } finally {
    clearTimeout(timer)
    if (onAbort) options.deadline.removeEventListener('abort', onAbort)
  }
}

export function selectedChecks(definitions: readonly CheckDefinition[], filter: readonly string[]): CheckDefinition[] {
  return definitions.filter((definition) => isSelected(requirementIdOfTitle(definition.title) ?? '', filter))
}

export async function runChecks(definitions: readonly CheckDefinition[], state: RunState, options: RunChecksOptions): Promise<CheckReport[]> {
  const selected = selectedChecks(definitions, options.filter)
  let done = 0
  return mapConcurrently(selected, options.concurrency, async (definition) => {
    options.onProgress?.(done, selected.length, definition.title)
    const check = new Check(state, definition.title)
    const report = options.deadline.aborted ? check.report({ state: 'inconclusive', reason: DEADLINE_REASON }) : check.report(await settle(check, definition, options))
    done += 1
    return report
  })
}
