import { describe, test } from 'vitest'
import { createPetFaults } from '../../variants/faults/create-pet.js'
import { expectCaught, rows } from './expect-score.js'

describe.concurrent('faults of createPet are caught by the requirements they name', () => {
  test.for(rows(createPetFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
