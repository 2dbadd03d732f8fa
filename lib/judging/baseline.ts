/**
 * Comparison with an earlier run: each requirement is a new failure, fixed, still failing or unchanged
 * against the results.json of that run, so a nightly job sees what changed and a vendor can gate on
 * new failures only while known gaps stay open.
 */
import { readFileSync } from 'node:fs'
import { type Change, isFlagged, type RequirementResult, type Verdict } from './verdicts.js'

export interface Baseline {
  file: string
  verdicts: Map<string, Verdict>
}

export interface BaselineSummary {
  file: string
  newFailures: number
  fixed: number
  stillFailing: number
  unchanged: number
}

/** Reads the verdicts of an earlier results.json; throws with a message that says what is wrong. */
export function loadBaseline(file: string): Baseline {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { formatVersion?: unknown; requirements?: Array<{ id?: unknown; verdict?: unknown }> }
  if (parsed.formatVersion !== 1 || !Array.isArray(parsed.requirements)) throw new Error('not a results.json of format version 1')
  return { file, verdicts: new Map(parsed.requirements.map((result) => [String(result.id), result.verdict as Verdict])) }
}

export function changeOf(previous: Verdict | undefined, now: Verdict): Change {
  if (previous === undefined) return isFlagged(now) ? 'new-failure' : 'new'
  if (isFlagged(now)) return isFlagged(previous) ? 'still-failing' : 'new-failure'
  if (isFlagged(previous) && now === 'pass') return 'fixed'
  return 'unchanged'
}

/** The requirements with their change against the baseline, and the tally. */
export function compareWithBaseline(results: readonly RequirementResult[], baseline: Baseline): { results: RequirementResult[]; summary: BaselineSummary } {
  const compared = results.map((result) => ({ ...result, change: changeOf(baseline.verdicts.get(result.id), result.verdict) }))
  const count = (change: Change) => compared.filter((result) => result.change === change).length
  return {
    results: compared,
    summary: { file: baseline.file, newFailures: count('new-failure'), fixed: count('fixed'), stillFailing: count('still-failing'), unchanged: count('unchanged') + count('new') },
  }
}
