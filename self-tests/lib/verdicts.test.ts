import { describe, expect, test } from 'vitest'
import { statusWords } from '../../lib/checks/assertions.js'
import type { CheckReport } from '../../lib/checks/check-result.js'
import { EDIT_FINDING_REQUIREMENTS } from '../../lib/checks/edited-answers.js'
import type { CheckDefinition } from '../../lib/checks/registry.js'
import { exitCodeOf, judge, judgeAll } from '../../lib/judging/verdicts.js'
import { remainingWords, renderFailure } from '../../lib/reports/console.js'
import { JUDGED_ON_SELECTED_ANSWERS, partialPasses } from '../../lib/run/partial-passes.js'
import { requirement } from '../../lib/spec/catalogue.js'

const today = new Date('2026-11-21T00:00:00Z')

function report(requirementId: string, outcome: CheckReport['outcome'], extra: Partial<CheckReport> = {}): CheckReport {
  return { requirementId, title: `[${requirementId}] a check`, outcome, observations: [], incidental: [], exchangeIds: [], assertions: 1, ...extra }
}

describe('verdicts follow policy §1', () => {
  test('pass needs at least one decisive check; only inconclusive checks stay inconclusive', () => {
    const req = requirement('listPets/limit-default-20')
    expect(judge(req, [report(req.id, 'inconclusive', { reason: 'store too small' })], today, []).verdict).toBe('inconclusive')
    expect(judge(req, [report(req.id, 'inconclusive'), report(req.id, 'pass')], today, []).verdict).toBe('pass')
    expect(judge(req, [], today, []).verdict).toBe('inconclusive')
  })

  test('a failed MUST is fail, a failed SHOULD is warn', () => {
    const failure = { message: 'x', evidence: [] }
    expect(judge(requirement('listPets/limit-caps-size'), [report('listPets/limit-caps-size', 'fail', { failure })], today, []).verdict).toBe('fail')
    expect(judge(requirement('auth/www-authenticate'), [report('auth/www-authenticate', 'fail', { failure })], today, []).verdict).toBe('warn')
  })

  test('findings on a shared exchange count once, whichever checks recorded it', () => {
    const finding = { requirementId: 'errors/body-schema', exchangeId: 7, ok: false, message: 'no status' }
    const result = judge(
      requirement('errors/body-schema'),
      [report('auth/missing-key-401', 'pass', { incidental: [finding] }), report('errors/body-schema', 'pass', { incidental: [finding] })],
      today,
      [],
    )
    expect(result.verdict).toBe('fail')
    expect(result.failedChecks).toBe(1)
  })

  test('a harness error never passes', () => {
    const result = judge(requirement('listPets/returns-pets'), [report('listPets/returns-pets', 'error', { reason: 'TypeError' })], today, [])
    expect(result.verdict).toBe('inconclusive')
    expect(exitCodeOf([result], false, false)).toBe(3)
  })

  test('getPet requirements are MUST before 2030-12-05 and INFO from that day on', () => {
    const failure = { message: 'gone', evidence: [] }
    const reports = [report('getPet/returns-pet', 'fail', { failure })]
    expect(judge(requirement('getPet/returns-pet'), reports, new Date('2030-12-04T23:59:59Z'), []).verdict).toBe('fail')
    const after = judge(requirement('getPet/returns-pet'), reports, new Date('2030-12-05T00:00:00Z'), [])
    expect([after.level, after.verdict]).toEqual(['INFO', 'info'])
  })

  test('a requirement outside the filter is skipped; an untestable one is listed as such', () => {
    expect(judge(requirement('listPets/returns-pets'), [], today, ['auth/']).verdict).toBe('skipped')
    expect(judge(requirement('scope/events'), [], today, []).verdict).toBe('untestable')
  })

  test('under a filter, a pass of a requirement judged on every answer, or by a check the filter left out, says it is partial; without one it does not', () => {
    const finding = { requirementId: 'responses/no-server-error', exchangeId: 1, ok: true }
    const lookalike = report('auth/key-lookalike-401', 'pass', { incidental: [finding] })
    const checks: CheckDefinition[] = [
      { title: lookalike.title, group: 'auth', run: async () => {} },
      { title: '[responses/edits-answered] every edit', group: 'edits', run: async () => {}, judges: EDIT_FINDING_REQUIREMENTS },
    ]
    const verdictOf = (id: string, filter: string[], reports = [lookalike]) =>
      judgeAll(reports, today, filter, partialPasses(checks, reports, filter)).find((result) => result.id === id)
    expect(verdictOf('responses/no-server-error', ['auth/', 'responses/no-server-error'])).toMatchObject({ verdict: 'pass', partial: JUDGED_ON_SELECTED_ANSWERS })
    expect(verdictOf('auth/key-lookalike-401', ['auth/'])).toMatchObject({ verdict: 'pass', partial: expect.stringMatching(/add responses\/edits-answered to --requirements/) })
    // The edits ran: the lookalike rule is judged on them too.
    const edits = report('responses/edits-answered', 'pass', { title: '[responses/edits-answered] every edit' })
    expect(verdictOf('auth/key-lookalike-401', ['auth/', 'responses/edits-answered'], [lookalike, edits])?.partial).toBeUndefined()
    // Where the left-out check is all that judges it, the reasons of the inconclusive verdict name it.
    expect(verdictOf('auth/options-without-key', ['auth/'])?.reasons.join('; ')).toMatch(/no check of this requirement ran; .*add responses\/edits-answered/)
    expect(verdictOf('responses/no-server-error', [])?.partial).toBeUndefined()
    expect(verdictOf('auth/key-lookalike-401', [])?.partial).toBeUndefined()
  })

  test('the console shows a reproduction of up to 2,000 characters and says where the whole one is; the reports keep it whole', () => {
    const evidence = (curl: string) => ({ message: 'm', evidence: [{ curl }] }) as unknown as Parameters<typeof renderFailure>[0]
    expect(renderFailure(evidence('curl -sS x'))).toContain('reproduce: curl -sS x')
    const long = `curl -sS --data-binary '${'n'.repeat(65_000)}'`
    const [, shown] = renderFailure(evidence(long))
    expect(shown?.length).toBeLessThan(2_100)
    expect(shown).toMatch(/… \(whole in report\.html, results\.json and junit\.xml\)$/)
  })

  test('exit codes: 1 on a MUST failure, and on a SHOULD warning only when strict', () => {
    const warn = judge(requirement('auth/www-authenticate'), [report('auth/www-authenticate', 'fail', { failure: { message: 'x', evidence: [] } })], today, [])
    expect(exitCodeOf([warn], false, false)).toBe(0)
    expect(exitCodeOf([warn], true, false)).toBe(1)
  })
})

describe('statuses in words', () => {
  test.for([
    [[400, 404], '400 or 404'],
    [[415, 400, 404], '400, 404 or 415'],
    [[200, ...Array.from({ length: 100 }, (_, index) => 400 + index).filter((status) => status !== 429)], '200, 400–428 or 430–499'],
  ] as const)('%j reads %s', ([statuses, words]) => {
    expect(statusWords(statuses)).toBe(words)
  })
})

describe('what still fails once a root cause is fixed, in words', () => {
  test('a requirement the cause explains in part still fails by its other failures, and says so', () => {
    expect(remainingWords([], ['a/b'])).toBe('nothing else fails')
    expect(remainingWords(['a/b', 'c/d'], ['a/b'])).toBe('still failing: a/b (by its other failures), c/d')
  })
})
