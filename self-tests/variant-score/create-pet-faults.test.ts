import { describe, test } from 'vitest'
import { createPetFaults } from '../../variants/faults/create-pet.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('faults of createPet are caught by the requirements they name', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(createPetFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
