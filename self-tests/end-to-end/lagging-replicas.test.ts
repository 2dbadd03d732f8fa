/**
 * Reads within the consistency window, everywhere (policy §2, consistency): a service whose GET /pets/{id}
 * answers from a replica behind its writes is conformant while every pet shows within the window. Each run
 * starts from an empty store, so the pets the getPet checks read are the ones the run seeded moments before,
 * found in a list that is already current: every read of such a pet must wait, whichever check sends it.
 */
import { describe, expect, test } from 'vitest'
import { scoreVariant } from '../../mutation-score/score-variant.js'
import { lookAlikes } from '../../variants/look-alikes.js'

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
