import { describe, expect, test } from 'vitest'
import type { Variant } from '../../variants/variant.js'
import { runCli, verdictOf } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const startTarget = useTargets()
const WITH_KEY = { PETSTORE_API_KEY: API_KEY }
const GET_PET_RECORDED = ['getPet/returns-pet', 'getPet/unknown-id-404', 'getPet/invalid-id']

/** What a target may do once getPet is removed: the route is gone, answered as a plain-text 404 whatever the key. */
const getPetGone: Variant = {
  name: 'getPet-gone',
  description: 'GET /pets/{petId} is removed: a text/plain 404 for every request',
  wrap: (reference) => async (request) =>
    request.method === 'GET' && request.path.startsWith('/pets/') ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' } : reference(request),
}

/** A conformant target that announces the deprecation in headers (RFC 9745 Deprecation, RFC 8594 Sunset). */
const announcesDeprecation: Variant = {
  name: 'announces-deprecation',
  description: 'getPet answers carry Deprecation and Sunset headers',
  wrap: (reference) => async (request) => {
    const answer = await reference(request)
    if (!(request.method === 'GET' && request.path.startsWith('/pets/'))) return answer
    return { ...answer, headers: { ...answer.headers, deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' } }
  },
}

describe('getPet is deprecated and removed on 2030-12-05 (the clock is injectable with --now)', () => {
  test('the day before removal its requirements are MUST: a target without getPet fails, and the console counts 1 day left', async () => {
    const target = await startTarget({ pets: 30, variant: getPetGone })
    const outcome = await runCli(['--base-url', target.baseUrl, '--now', '2030-12-04'], WITH_KEY)
    expect(outcome.code).toBe(1)
    expect(outcome.stdout).toMatch(/getPet is deprecated, 1 day before its removal on 2030-12-05 \(its requirements are MUST\)/)
    expect(verdictOf(outcome, 'getPet/returns-pet')).toBe('fail')
    expect(outcome.results?.requirements.find((result) => result.id === 'getPet/returns-pet')?.level).toBe('MUST')
  })

  test('from the removal day on its requirements are INFO: the same target is conformant and its 404 page blames no other requirement', async () => {
    const target = await startTarget({ pets: 30, variant: getPetGone })
    const outcome = await runCli(['--base-url', target.baseUrl, '--now', '2030-12-05'], WITH_KEY)
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    expect(outcome.stdout).toMatch(/getPet reached its removal date 2030-12-05: its requirements are INFO/)
    const getPetResults = outcome.results?.requirements.filter((result) => result.id.startsWith('getPet/')) ?? []
    expect(getPetResults.map((result) => result.level)).toEqual(getPetResults.map(() => 'INFO'))
    // What the target now does is recorded, never failed; a check that depends on a 200 it no longer gets stays open.
    for (const id of GET_PET_RECORDED) expect(verdictOf(outcome, id), id).toBe('info')
    expect(verdictOf(outcome, 'getPet/matches-listed-pet')).toBe('inconclusive')
    for (const id of ['responses/json-content-type', 'errors/body-schema', 'auth/missing-key-401']) expect(verdictOf(outcome, id), id).toBe('pass')
  })

  test('today the console counts the days left, and Deprecation and Sunset headers are recorded as INFO', async () => {
    const target = await startTarget({ pets: 30, variant: announcesDeprecation })
    const outcome = await runCli(['--base-url', target.baseUrl, '--now', '2026-11-21'], WITH_KEY)
    expect(outcome.code, outcome.stdout + outcome.stderr).toBe(0)
    expect(outcome.stdout).toMatch(/getPet is deprecated, 1475 days before its removal/)
    const headers = outcome.results?.requirements.find((result) => result.id === 'getPet/deprecation-headers')
    expect(headers?.verdict).toBe('info')
    expect(headers?.observations).toEqual(['Deprecation: @1735689600; Sunset: Thu, 05 Dec 2030 00:00:00 GMT; Link: (absent)'])
  })
})
