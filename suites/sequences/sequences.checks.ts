import { describe, test } from '../../lib/checks/registry.js'
import { requireGetPetInService } from '../fixtures.js'
import type { SequenceRequirement } from './sequence-outcome.js'
import { judgeSequences } from './sequences.js'

/** What each requirement means within a sequence; every one is judged on every answer that bears on it. */
const WITHIN_SEQUENCES: ReadonlyArray<{ id: SequenceRequirement; what: string; writes?: boolean; getPet?: boolean }> = [
  { id: 'listPets/returns-pets', what: 'every list a sequence sends is answered 200 with a Pets body' },
  { id: 'listPets/status-filter-matches', what: 'every filtered list a sequence sends holds only pets of that status' },
  { id: 'listPets/limit-default-20', what: 'every list without status or limit holds at most 20 pets, at any point of a sequence' },
  { id: 'listPets/limit-caps-size', what: 'every list with limit=N (N < 100) holds at most N pets, at any point of a sequence' },
  { id: 'listPets/limit-max-100', what: 'every list with limit=100 holds at most 100 pets, at any point of a sequence' },
  { id: 'listPets/filter-and-default-limit', what: 'every list with status and no limit holds at most 20 pets, at any point of a sequence' },
  { id: 'listPets/filter-and-limit', what: 'every list with status and limit=N holds at most N pets, at any point of a sequence' },
  { id: 'listPets/limit-out-of-range', what: 'every list with limit 0, -1 or 101 gets a 4xx Error or at most 100 pets, at any point of a sequence' },
  { id: 'createPet/returns-201-pet', what: 'every create of a sequence, one at a time or several at once, is answered 201 with a Pet', writes: true },
  { id: 'createPet/echoes-fields', what: 'every create of a sequence echoes the body sent', writes: true },
  { id: 'createPet/ids-unique', what: 'no create of a sequence gets the id of a pet the sequence already knows, nor of one created with it', writes: true },
  { id: 'createPet/round-trip-get', what: 'every pet a sequence created is found by GET /pets/{id} within the consistency window', writes: true, getPet: true },
  { id: 'createPet/created-pet-listed', what: 'every pet a sequence created with status S is in status=S&limit=100 while that list is complete', writes: true },
  { id: 'getPet/returns-pet', what: 'every pet a sequence listed is found by GET /pets/{id}', getPet: true },
  { id: 'getPet/unknown-id-404', what: 'GET /pets/{id} of an id no pet is known to hold is answered 404 with an Error body, at any point of a sequence', getPet: true },
]

describe('sequences: random creates, lists and gets checked against a model of the store (fast-check commands; --sequences, --sequence-length)', () => {
  test('[views/one-pet-reads-the-same] one pet reads the same in the 201 answer, GET /pets/{id} and every list, and is in the list of the status it shows', async ({ check }) => {
    await judgeSequences(check, 'views/one-pet-reads-the-same')
  })

  test.for(WITHIN_SEQUENCES)('[$id] $what', async ({ id, writes, getPet }, { check }) => {
    if (writes) check.requireWrites()
    if (getPet) requireGetPetInService(check)
    await judgeSequences(check, id)
  })
})
