import { describe, test } from 'vitest'
import { editFaults } from '../../variants/faults/edits.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('faults only an edit of the neighbourhood shows are caught by the requirements they name', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(editFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
