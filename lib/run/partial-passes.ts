/**
 * What a filtered run's passes leave unjudged. A requirement filter runs the checks whose titles it selects, so a
 * requirement judged on every answer is judged on those checks' answers alone, and one that a left-out check also
 * judges (the neighbourhood's edits are charged to the auth, spelling and body rules) misses that check's evidence:
 * a pass of either says so, rather than read as the verdict a run without the filter gives.
 */
import type { CheckReport } from '../checks/check-result.js'
import { requirementIdOfTitle } from '../checks/check-result.js'
import { EVERY_EXCHANGE_REQUIREMENTS } from '../checks/incidental-checks.js'
import type { CheckDefinition } from '../checks/registry.js'

export const JUDGED_ON_SELECTED_ANSWERS = 'judged on the answers of the checks the requirement filter selected; a run without --requirements judges it on every answer of the run'

/** Why each requirement's pass is partial in a run of `filter` whose checks made `reports`, out of the suite's `checks`. */
export function partialPasses(checks: readonly CheckDefinition[], reports: readonly CheckReport[], filter: readonly string[]): Map<string, string> {
  const partial = new Map<string, string>()
  if (filter.length === 0) return partial
  for (const id of EVERY_EXCHANGE_REQUIREMENTS) partial.set(id, JUDGED_ON_SELECTED_ANSWERS)
  const ran = new Set(reports.map((report) => report.title))
  for (const definition of checks) {
    if (ran.has(definition.title)) continue
    const own = requirementIdOfTitle(definition.title) ?? definition.title
    for (const id of definition.judges ?? []) {
      if (!partial.has(id))
        partial.set(
          id,
          `the checks of ${own} also judge it and the requirement filter left them out: add ${own} to --requirements to judge it on what a run without the filter sees`,
        )
    }
  }
  return partial
}
