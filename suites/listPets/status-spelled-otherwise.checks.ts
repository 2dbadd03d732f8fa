/**
 * A status outside the enum that a lenient reader takes for one in it: the enum is case-sensitive and has no
 * whitespace, so `SOLD`, or `sold` with an escaped space or tab, U+00A0 or U+3000 around it, is an invalid status
 * (policy §2, invalid `status` filter value), and an edit that makes a value invalid does not get the plain request's
 * answer (§2b, MUST: its one exception is a limit read leniently, row "other notations"). Frameworks serve it:
 * Tornado's get_query_argument strips control octets and Unicode whitespace from every value, and many filters compare
 * without case.
 *
 * The answer is the plain request's when it lists pets of that status alone while the store's unfiltered list, read
 * right after it, shows a pet of another status among as many first pets: a filter ignored (which the row allows)
 * would list that pet too, and an empty list or a refusal is no such answer.
 */
import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { withQuery } from '../../lib/spec/operation-requests.js'
import { type OperationExchange, PET_STATUSES, type PetStatus } from '../../lib/spec/petstore-api.js'

/** The status spelled as a lenient reader still reads it, each way a class: the text as it goes in the query. */
const SPELLINGS: ReadonlyArray<{ label: string; spell: (status: PetStatus) => string }> = [
  { label: 'in upper case', spell: (status) => status.toUpperCase() },
  { label: 'an escaped space after it', spell: (status) => `${status}%20` },
  { label: 'an escaped tab before it', spell: (status) => `%09${status}` },
  { label: 'U+00A0 after it', spell: (status) => `${status}%C2%A0` },
  { label: 'U+3000 before it', spell: (status) => `%E3%80%80${status}` },
]

/**
 * The status the survey saw most pets of, once the store shows a pet of another status in its unfiltered list (else
 * a filter ignored would list the same pets, and nothing could tell the two apart).
 */
async function telling(check: Check): Promise<PetStatus> {
  const survey = await check.survey()
  const counts = PET_STATUSES.map((status) => [status, listedPets(survey.byStatus[status]).length] as const)
  const [status, count] = counts.reduce((best, next) => (next[1] > best[1] ? next : best))
  check.require(count > 0, 'the lists show no pet of any status, so a list of one status cannot be told from another answer')
  check.require(
    listedPets(survey.limit100).some((pet) => pet.status !== status),
    `the store's unfiltered list shows only pets of status ${status}, so a filter ignored would list what the filter lists`,
  )
  return status
}

describe('listPets: a status spelled otherwise', () => {
  test.for(SPELLINGS)('[listPets/status-spelled-otherwise] the status $label is outside the enum: not the list of the status it spells', async ({ spell }, { check }) => {
    const status = await telling(check)
    const written = spell(status)
    const exchange = await check.api.send(
      withQuery(check.api.request({ operation: 'listPets' }), [
        { name: 'status', value: written },
        { name: 'limit', value: '100' },
      ]),
    )
    check.requireAnswer(exchange, `GET /pets?status=${written}&limit=100`)
    // A refusal, an empty list, or one with pets of other statuses is no list of that status (listPets/status-invalid
    // judges what an invalid status may get). A list of that status's pets alone is the list of it, unless the store's
    // own first pets are of that status alone: the unfiltered list, read right after, says (a filter ignored lists them).
    const pets = listedPets(exchange)
    const ofThatStatusAlone = pets.length > 0 && pets.every((pet) => pet.status === status)
    let unfiltered: OperationExchange | undefined
    if (ofThatStatusAlone) {
      unfiltered = await check.api.listPets({ limit: 100 })
      check.requireAnswer(unfiltered, 'GET /pets?limit=100')
    }
    const other = unfiltered
      ? listedPets(unfiltered)
          .slice(0, pets.length)
          .find((pet) => pet.status !== status)
      : undefined
    // Pets of that status alone, where the store's first pets are of it too: the filter read leniently and a filter ignored look the same.
    check.require(
      !ofThatStatusAlone || other !== undefined,
      `status=${written} listed ${pets.length} pets of status ${status} alone, and so do the first ${pets.length} of the unfiltered list: a filter ignored would list the same`,
    )
    check.expect.that(
      other === undefined,
      `status=${written} was answered with ${pets.length} pets of status ${status} alone, where the unfiltered list read right after shows pet ${other?.id} of status ${JSON.stringify(other?.status)} among its first ${pets.length}: the filter read it as ${status}`,
      {
        exchange,
        expected: `what an invalid status gets (a 4xx with an Error body, or a 200 list), not the list of status=${status}`,
        actual: `the ${pets.length} pets of status ${status}`,
      },
    )
  })
})
