/**
 * The one line that sums a run up, the same in the console, summary.md, report.html and junit.xml. It
 * never says more than the run showed: a run that decided no MUST requirement is NOT PROVEN, a known
 * failure waved through by --fail-on new still reads NON-CONFORMANT, and a run that stopped has NO VERDICT.
 */
import { EXIT, type RequirementResult } from './verdicts.js'

export type HeadlineText = 'CONFORMANT' | 'NON-CONFORMANT' | 'NOT PROVEN' | 'NO VERDICT'

export interface Headline {
  text: HeadlineText
  /** Why, when the headline needs a word more than its verdict: the stop reason, strict, known failures, nothing decided. */
  note?: string
}

export interface HeadlineInput {
  exitCode: number
  strict: boolean
  requirements: readonly RequirementResult[]
  /** Why the run stopped before judging, when it did. */
  stopReason?: string
}

/** "1 SHOULD warning", "2 SHOULD warnings": counts in plain words. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`
}

export function headlineOf(run: HeadlineInput): Headline {
  if (run.exitCode === EXIT.usage || run.exitCode === EXIT.harness) return { text: 'NO VERDICT', note: run.stopReason ?? 'the run stopped on a harness error' }
  const failed = run.requirements.filter((result) => result.verdict === 'fail').length
  const warned = run.requirements.filter((result) => result.verdict === 'warn').length
  if (failed > 0) {
    return run.exitCode === EXIT.conformant
      ? { text: 'NON-CONFORMANT', note: `known failures only (${counted(failed, 'MUST requirement')}), exit 0 by --fail-on new` }
      : { text: 'NON-CONFORMANT' }
  }
  if (run.strict && warned > 0) {
    return run.exitCode === EXIT.conformant
      ? { text: 'NON-CONFORMANT', note: `strict: known warnings only (${counted(warned, 'SHOULD warning')}), exit 0 by --fail-on new` }
      : { text: 'NON-CONFORMANT', note: `strict: ${counted(warned, 'SHOULD warning')} ${warned === 1 ? 'counts' : 'count'} as failures` }
  }
  const judgedMusts = run.requirements.filter((result) => result.level === 'MUST' && result.verdict !== 'skipped' && result.verdict !== 'untestable')
  const passed = run.requirements.some((result) => result.verdict === 'pass')
  if (!passed || (judgedMusts.length > 0 && judgedMusts.every((result) => result.verdict === 'inconclusive'))) {
    return { text: 'NOT PROVEN', note: passed ? 'no MUST requirement could be decided on this target' : 'no requirement could be decided on this target' }
  }
  return { text: 'CONFORMANT' }
}

/** The headline as one line: "NON-CONFORMANT (strict: 2 SHOULD warnings count as failures)". */
export function headlineLine(headline: Headline): string {
  return headline.note ? `${headline.text} (${headline.note})` : headline.text
}
