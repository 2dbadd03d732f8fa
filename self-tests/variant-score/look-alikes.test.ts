import { describe, test } from 'vitest'
import { lookAlikes } from '../../variants/look-alikes.js'
import { expectPassed, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent('conformant look-alikes pass: nothing fails, warnings only where declared', { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows(lookAlikes))('%s', async ([, lookAlike]) => {
    await expectPassed(lookAlike)
  })
})
