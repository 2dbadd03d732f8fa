import { describe, expect, test } from 'vitest'
import type { CheckReport, Failure } from '../../lib/checks/check-result.js'
import type { Evidence } from '../../lib/checks/evidence.js'
import { exitCodeOf, judge, judgeAll } from '../../lib/judging/verdicts.js'
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

  test('exit codes: 1 on a MUST failure, and on a SHOULD warning only when strict', () => {
    const warn = judge(requirement('auth/www-authenticate'), [report('auth/www-authenticate', 'fail', { failure: { message: 'x', evidence: [] } })], today, [])
    expect(exitCodeOf([warn], false, false)).toBe(0)
    expect(exitCodeOf([warn], true, false)).toBe(1)
  })
})

/** A failure whose one exchange was answered `status`. */
function answered(status: number, message: string): Failure {
  const evidence: Evidence = {
    request: { method: 'POST', url: 'http://127.0.0.1:1/v1/pets', headers: {} },
    response: { status, headers: {}, body: '{}', bodyBytes: 2 },
    retries: 0,
    durationMs: 1,
    curl: 'curl',
  }
  return { message, evidence: [evidence] }
}

describe('a rule passed by refusing a request needs a target that serves the valid ones', () => {
  const refusals = [report('createPet/invalid-body-400', 'pass'), report('createPet/request-media-types', 'pass'), report('listPets/status-invalid', 'pass')]
  const verdictOf = (results: ReturnType<typeof judgeAll>, id: string) => results.find((result) => result.id === id)

  test('valid creates refused with 400: a 400 to an invalid body is inconclusive, and says which valid request was refused; the lists, served, keep their pass', () => {
    const refusedCreate = report('createPet/returns-201-pet', 'fail', { failure: answered(400, 'POST /pets has status 400, expected 201') })
    const results = judgeAll([...refusals, refusedCreate, report('listPets/returns-pets', 'pass')], today, [])
    expect(verdictOf(results, 'createPet/invalid-body-400')).toMatchObject({
      verdict: 'inconclusive',
      reasons: [
        'a valid request of createPet was refused too (400; see createPet/returns-201-pet: POST /pets has status 400, expected 201), so a refusal shows nothing of this rule',
      ],
    })
    expect(verdictOf(results, 'createPet/request-media-types')?.verdict).toBe('inconclusive')
    expect(verdictOf(results, 'listPets/status-invalid')?.verdict).toBe('pass')
    expect(verdictOf(results, 'createPet/returns-201-pet')?.verdict).toBe('fail')
  })

  test('valid creates that failed otherwise (a 500, a 429 that never ended, a 201 with a wrong body) leave a refusal its evidence', () => {
    for (const failure of [answered(500, 'POST /pets answered 500'), answered(429, 'POST /pets has status 429'), answered(201, 'the body is not a valid Pet')]) {
      const results = judgeAll([...refusals, report('createPet/returns-201-pet', 'fail', { failure })], today, [])
      expect(verdictOf(results, 'createPet/invalid-body-400')?.verdict, failure.message).toBe('pass')
    }
  })

  test('a refusal that failed its rule still fails: only a pass is taken back', () => {
    const refusedCreate = report('createPet/returns-201-pet', 'fail', { failure: answered(400, 'POST /pets has status 400, expected 201') })
    const wrongStatus = report('createPet/request-media-types', 'fail', { failure: answered(500, 'POST /pets with text/plain answered 500') })
    expect(verdictOf(judgeAll([refusedCreate, wrongStatus], today, []), 'createPet/request-media-types')?.verdict).toBe('fail')
  })

  test('getPet: a well-formed id no pet holds answered 400 is a valid request refused; answered 404 with a wrong body it is not', () => {
    const invalidId = report('getPet/invalid-id', 'pass')
    const refusedUnknown = report('getPet/unknown-id-404', 'fail', { failure: answered(400, 'GET /pets/1999999973 has status 400, expected 404') })
    const badBodyUnknown = report('getPet/unknown-id-404', 'fail', { failure: answered(404, 'the 404 of GET /pets/1999999973 is not an Error') })
    expect(verdictOf(judgeAll([invalidId, refusedUnknown], today, []), 'getPet/invalid-id')?.verdict).toBe('inconclusive')
    expect(verdictOf(judgeAll([invalidId, badBodyUnknown], today, []), 'getPet/invalid-id')?.verdict).toBe('pass')
  })
})
