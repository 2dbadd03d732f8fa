/**
 * Faults in the parts of HTTP the request model edits (the method, the framing, the version, the target's form, a proxy's
 * fields, how a head is read) are caught by the requirements they name, each with every edit of the operators that show it.
 */
import { describe, test } from 'vitest'
import { httpPartFaults } from '../../variants/faults/http-parts.js'
import { viewsFaults } from '../../variants/faults/views.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('faults in the parts of HTTP are caught by the requirements they name', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(httpPartFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})

describe.concurrent('faults in the views of one pet are caught by the requirements they name', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(viewsFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
