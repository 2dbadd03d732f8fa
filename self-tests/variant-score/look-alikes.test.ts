import { describe, test } from 'vitest'
import { lookAlikes } from '../../variants/look-alikes.js'
import { expectPassed, rows } from './expect-score.js'

describe.concurrent('conformant look-alikes pass: nothing fails, warnings only where declared', () => {
  test.for(rows(lookAlikes))('%s', async ([, lookAlike]) => {
    await expectPassed(lookAlike)
  })
})
