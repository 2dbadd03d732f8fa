/**
 * Conformant look-alikes pass: a sample of combinations of the policy's allowances that holds every allowance once
 * (five to a combination where their groups allow), each judged by the whole suite as the variant score judges it.
 * The sample is the seed's (PETSTORE_SCORE_SEED, or the score's own): `npm run allowance-score` runs every allowance
 * alone and the seed's pairs and triples at the command's defaults.
 */
import { describe, test } from 'vitest'
import { SCORE_SEED } from '../../mutation-score/score-variant.js'
import { combinationName, lookAlikeOf } from '../../variants/allowances/allowance.js'
import { coveringCombinations } from '../../variants/allowances/combinations.js'
import { expectPassed, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

const seed = Number(process.env.PETSTORE_SCORE_SEED ?? SCORE_SEED)
const sample = coveringCombinations(seed, 5).map((set) => [combinationName(set), set] as const)

describe.concurrent(`allowance combinations pass: nothing fails, warnings only where an allowance declares them (seed ${seed})`, { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(sample)('%s', async ([, set]) => {
    await expectPassed(lookAlikeOf(set))
  })
})
