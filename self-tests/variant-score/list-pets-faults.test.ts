import { describe, test } from 'vitest'
import { listPetsFaults } from '../../variants/faults/list-pets.js'
import { expectCaught, rows } from './expect-score.js'

describe.concurrent('faults of listPets are caught by the requirements they name', () => {
  test.for(rows(listPetsFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
