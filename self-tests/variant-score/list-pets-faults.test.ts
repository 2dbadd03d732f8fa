import { describe, test } from 'vitest'
import { listPetsFaults } from '../../variants/faults/list-pets.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('faults of listPets are caught by the requirements they name', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(listPetsFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
