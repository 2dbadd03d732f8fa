import { describe, test } from 'vitest'
import { errorsAndResponsesFaults } from '../../variants/faults/errors-and-responses.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('faults of errors and responses are caught by the requirements they name', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(errorsAndResponsesFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
