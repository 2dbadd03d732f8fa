/**
 * Seed independence: a fault that shows only for some inputs of a class (a name with a backslash in it, a digit
 * of another script, a charset parameter) is caught at every seed, since every full run sends each class of the
 * input catalogue whatever the seed. Each runs the whole suite, as the variant score does, at three seeds.
 */
import { describe, expect, test } from 'vitest'
import { scoreVariant } from '../../mutation-score/score-variant.js'
import { spellingFaults } from '../../variants/faults/spellings.js'

const NARROW = ['name-backslash-escapes-read-twice', 'petId-read-with-python-int', 'content-type-matched-exactly'].map((name) => {
  const fault = spellingFaults.find((candidate) => candidate.name === name)
  if (!fault) throw new Error(`no fault named ${name}`)
  return fault
})

describe.concurrent('a fault that shows for some inputs only is caught at every seed', () => {
  test.for(NARROW.flatMap((fault) => ['11', '12', '13'].map((seed) => [fault.name, seed, fault] as const)))('%s at seed %s', async ([, seed, fault]) => {
    const score = await scoreVariant(fault, 'fault', { seed })
    expect(score.ok, `${fault.name} at seed ${seed}: flagged ${score.flagged.join(', ') || 'nothing'}`).toBe(true)
  })
})
