import { describe, test } from 'vitest'
import { getPetFaults } from '../../variants/faults/get-pet.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('faults of getPet are caught by the requirements they name', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(getPetFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
