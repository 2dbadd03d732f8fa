import { describe, expect, test } from 'vitest'
import { type HeadlineInput, headlineLine, headlineOf } from '../../lib/judging/headline.js'
import type { RequirementResult, Verdict } from '../../lib/judging/verdicts.js'

function results(...rows: Array<[RequirementResult['level'], Verdict, RequirementResult['change']?]>): RequirementResult[] {
  return rows.map(([level, verdict, change], index) => ({ id: `area/r${index}`, level, verdict, ...(change ? { change } : {}) }) as RequirementResult)
}

const run = (input: Partial<HeadlineInput> & Pick<HeadlineInput, 'requirements'>): HeadlineInput => ({ exitCode: 0, strict: false, ...input })

describe('the headline never says more than the run showed', () => {
  test('a MUST failure is NON-CONFORMANT; a run with passes and no failure is CONFORMANT', () => {
    expect(headlineOf(run({ exitCode: 1, requirements: results(['MUST', 'fail'], ['MUST', 'pass']) }))).toEqual({ text: 'NON-CONFORMANT' })
    expect(headlineOf(run({ requirements: results(['MUST', 'pass'], ['SHOULD', 'warn'], ['INFO', 'info']) }))).toEqual({ text: 'CONFORMANT' })
  })

  test('NOT PROVEN when no requirement passed, or when every MUST judged is inconclusive', () => {
    expect(headlineOf(run({ requirements: results(['MUST', 'inconclusive'], ['INFO', 'info'], ['MUST', 'skipped']) }))).toEqual({
      text: 'NOT PROVEN',
      note: 'no requirement could be decided on this target',
    })
    expect(headlineOf(run({ requirements: results(['MUST', 'inconclusive'], ['SHOULD', 'pass']) }))).toEqual({
      text: 'NOT PROVEN',
      note: 'no MUST requirement could be decided on this target',
    })
  })

  test('a known MUST failure waved through by --fail-on new still reads NON-CONFORMANT, and says why the exit code is 0', () => {
    const headline = headlineOf(run({ exitCode: 0, requirements: results(['MUST', 'fail', 'still-failing'], ['MUST', 'pass']) }))
    expect(headlineLine(headline)).toBe('NON-CONFORMANT (known failures only (1 MUST requirement), exit 0 by --fail-on new)')
  })

  test('--strict: SHOULD warnings are failures, and the headline counts them in plain words', () => {
    expect(headlineLine(headlineOf(run({ exitCode: 1, strict: true, requirements: results(['MUST', 'pass'], ['SHOULD', 'warn'], ['SHOULD', 'warn']) })))).toBe(
      'NON-CONFORMANT (strict: 2 SHOULD warnings count as failures)',
    )
    expect(headlineLine(headlineOf(run({ exitCode: 1, strict: true, requirements: results(['MUST', 'pass'], ['SHOULD', 'warn']) })))).toBe(
      'NON-CONFORMANT (strict: 1 SHOULD warning counts as failures)',
    )
  })

  test('exit 2 or 3 has NO VERDICT, with the reason the run stopped', () => {
    expect(headlineOf(run({ exitCode: 3, requirements: [], stopReason: 'target unreachable' }))).toEqual({ text: 'NO VERDICT', note: 'target unreachable' })
    expect(headlineOf(run({ exitCode: 2, requirements: results(['MUST', 'pass']) })).text).toBe('NO VERDICT')
  })
})
