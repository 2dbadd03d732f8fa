/**
 * The neighbourhood of every request (policy §2b): each plain request of an operation, with the key and without,
 * edited one part at a time by every operator, and every answer held to the invariants. The findings go to the
 * requirement each rule belongs to; this check itself says whether every edit got an answer.
 */
import { EDIT_FINDING_REQUIREMENTS } from '../../lib/checks/edited-answers.js'
import { describe, test } from '../../lib/checks/registry.js'
import type { Operation } from '../../lib/spec/petstore-api.js'
import { requireGetPetInService } from '../fixtures.js'
import { exploreOperation } from './explore.js'
import { searchLeakedCreates } from './leaked-creates.js'

const OPERATIONS: Array<{ operation: Operation; words: string }> = [
  { operation: 'listPets', words: 'GET /pets' },
  { operation: 'getPet', words: 'GET /pets/{id}' },
  { operation: 'createPet', words: 'POST /pets' },
]

describe('the neighbourhood of every request', () => {
  test.for(OPERATIONS)(
    '[responses/edits-answered] every one-element edit of $words, with the key and without, is answered',
    { judges: EDIT_FINDING_REQUIREMENTS },
    async (row, { check }) => {
      check.require(check.client.writesEditedRequests, 'edited requests are written on direct connections, and this run goes through a proxy')
      if (row.operation === 'createPet') check.requireWrites()
      if (row.operation === 'getPet') requireGetPetInService(check)
      const { refusedCreates, acceptedIds, unanswered, pastTheCaps, notSent } = await exploreOperation(check, row.operation)
      if (row.operation === 'createPet') await searchLeakedCreates(check, refusedCreates, acceptedIds)
      const [first] = unanswered
      check.expect.that(
        first === undefined,
        `${unanswered.length} edited ${row.words} requests got no answer: the first, ${first?.request.method} ${first?.request.url}: ${first?.failure?.message}`,
        {
          ...(first ? { exchange: first } : {}),
          expected: 'an answer to every edit (for a message HTTP refuses as written, its 400 or a reset)',
        },
      )
      // Answered past the suite's caps: an answer all the same, which the suite does not read, so nothing judged it.
      const [large] = pastTheCaps
      if (large)
        check.observe(
          `${pastTheCaps.length} edited ${row.words} requests were answered past what the suite reads, so their answers were not judged: the first, ${large.request.method} ${large.request.url}: ${large.failure?.message}`,
        )
      check.require(notSent === 0, `${notSent} edits of ${row.words} were not sent (the operation stopped answering, or the run stopped)`)
    },
  )
})
