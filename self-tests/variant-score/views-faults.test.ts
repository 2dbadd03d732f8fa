import { describe, test } from 'vitest'
import { viewsFaults } from '../../variants/faults/views.js'
import { expectCaught, rows } from './expect-score.js'

describe.concurrent('faults only a sequence shows are caught by the model-based sequences', () => {
  test.for(rows(viewsFaults))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
