import { describe, test } from 'vitest'
import { errorsAndResponsesFaults } from '../../variants/faults/errors-and-responses.js'
import { expectCaught, rows } from './expect-score.js'

describe.concurrent('faults of errors and responses are caught by the requirements they name', () => {
  test.for(rows(errorsAndResponsesFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
