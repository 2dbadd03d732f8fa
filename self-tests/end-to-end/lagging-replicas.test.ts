/**
 * Reads within the consistency window, everywhere (policy §2, consistency): a service whose GET /pets/{id}
 * answers from a replica behind its writes is conformant while every pet shows within the window. Each run
 * starts from an empty store, so the pets the getPet checks read are the ones the run seeded moments before,
 * found in a list that is already current: every read of such a pet must wait, whichever check sends it.
 */
import { describe, expect, test } from 'vitest'
import { scoreVariant } from '../../mutation-score/score-variant.js'
import { lookAlikes } from '../../variants/look-alikes.js'
import type { Variant } from '../../variants/variant.js'
import { runCli, verdictOf } from '../helpers/run-cli.js'
import { API_KEY, useTargets } from '../helpers/targets.js'

const lagging = ['get-replica-lags-800ms', 'get-lags-1500ms-lists-lag-600ms'].map((name) => {
  const variant = lookAlikes.find((lookAlike) => lookAlike.name === name)
  if (!variant) throw new Error(`no look-alike named ${name}`)
  return variant
})

describe.concurrent('a store whose reads lag within the window is conformant, at every seed', () => {
  test.for(lagging.flatMap((variant) => ['1', '2'].map((seed) => [variant.name, seed, variant] as const)))('%s at seed %s, from an empty store', async ([, seed, variant]) => {
    const score = await scoreVariant(variant, 'look-alike', { seed, storePets: 0 })
    expect(score.ok, `unexpected: ${score.requirements.join(', ')} ${score.note ?? ''}`).toBe(true)
  })
})

describe('a full page says nothing of a pet missing from it', () => {
  const startTarget = useTargets()

  test('with more than 100 pets of each status, a created pet not on the first page leaves created-pet-listed inconclusive, and no read waits out the window', async () => {
    // 400 pets: about 114 of each status, so status=S&limit=100 is a full page that need not hold the pet just created.
    const target = await startTarget({ pets: 400 })
    const outcome = await runCli(
      ['--base-url', target.baseUrl, '--profile', 'full', '--seed', '5', '--requirements', 'createPet/created-pet-listed,createPet/read-your-writes-lag'],
      {
        PETSTORE_API_KEY: API_KEY,
      },
    )
    expect(verdictOf(outcome, 'createPet/created-pet-listed')).toBe('inconclusive')
    const lag = outcome.results?.requirements.find((result) => result.id === 'createPet/read-your-writes-lag')
    // A miss on a full page is no evidence of lag: nothing is reported missing, so later reads still wait their window.
    expect(lag?.observations.join('\n')).not.toMatch(/still missing/)
    expect(outcome.results?.requirements.find((result) => result.id === 'createPet/created-pet-listed')?.reasons.join('\n')).toMatch(/holds 100 pets/)
  })
})

describe('only a read sent after a create was answered can show the pet missing', () => {
  const startTarget = useTargets()

  /** Read-your-writes, but every list is written out 80 ms after it was read from the store: list reads overlap the creates answered meanwhile. */
  const slowLists: Variant = {
    name: 'lists-answered-slowly',
    description: 'every list answer comes 80 ms after the store was read for it; the store is read-your-writes',
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return request.method === 'GET' && request.path === '/pets' ? { ...answer, delivery: { ...answer.delivery, delayMs: 80 } } : answer
    },
  }

  test('at a consistency window of 0, a read-your-writes service passes created-pet-listed and shows no lag: a list read sent before the 201 came is no evidence', async () => {
    const target = await startTarget({ variant: slowLists, pets: 30 })
    const outcome = await runCli(
      // The neighbourhood follows every edited create it got 201 for (the plan's case and percent edits make many), each while other list reads are in flight.
      [
        ...['--base-url', target.baseUrl, '--profile', 'full', '--seed', '1', '--consistency-window-ms', '0'],
        ...['--requirements', 'createPet/created-pet-listed,responses/edits-answered', '--edit-operators', 'case,percent', '--num-runs', '5', '--sequences', '2'],
      ],
      { PETSTORE_API_KEY: API_KEY },
      // Every edit of the two operators, not the self-tests' sample of twenty.
      { commandDefaults: true },
    )
    const listed = outcome.results?.requirements.find((result) => result.id === 'createPet/created-pet-listed')
    expect(listed?.verdict, listed?.reasons.join('\n')).toBe('pass')
    expect(outcome.code).toBe(0)
  })
})
