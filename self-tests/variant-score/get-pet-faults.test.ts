import { describe, test } from 'vitest'
import { getPetFaults } from '../../variants/faults/get-pet.js'
import { expectCaught, rows } from './expect-score.js'

describe.concurrent('faults of getPet are caught by the requirements they name', () => {
  test.for(rows(getPetFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
