import { describe, test } from 'vitest'
import { frameworkHabitFaults } from '../../variants/faults/framework-habits.js'
import { illFormedTextFaults, spellingFaults } from '../../variants/faults/spellings.js'
import { expectCaught, rows } from './expect-score.js'

describe.concurrent("faults of reading input, and frameworks' habits, are caught by the requirements they name", () => {
  test.for(rows([...spellingFaults, ...illFormedTextFaults, ...frameworkHabitFaults]))('%s', async ([, fault]) => {
    await expectCaught(fault)
  })
})
