import { describe, test } from 'vitest'
import { authFaults } from '../../variants/faults/auth.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('faults of auth are caught by the requirements they name', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(authFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
