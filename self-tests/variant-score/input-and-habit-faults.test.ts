import { describe, test } from 'vitest'
import { frameworkHabitFaults } from '../../variants/faults/framework-habits.js'
import { illFormedTextFaults, spellingFaults } from '../../variants/faults/spellings.js'
import { expectCaught, rows, VARIANT_TEST_TIMEOUT_MS } from './expect-score.js'

describe.concurrent("faults of reading input, and frameworks' habits, are caught by the requirements they name", { timeout: VARIANT_TEST_TIMEOUT_MS }, () => {
  test.for(rows([...spellingFaults, ...illFormedTextFaults, ...frameworkHabitFaults]))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
