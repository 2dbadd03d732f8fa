/**
 * Each failure charged to the rule it breaks: faults that other rules once took the blame for (an input varied beside
 * another, a status another rule names, a request lost on a connection the service reset) fail exactly the rules they
 * break, and nothing else.
 */
import { describe, test } from 'vitest'
import { attributionFaults } from '../../variants/faults/attribution.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('faults other rules once took the blame for fail exactly the rules they break', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(attributionFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
