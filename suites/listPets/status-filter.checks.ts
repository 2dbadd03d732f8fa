import { describe, test } from '../../lib/checks/registry.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { PET_STATUSES } from '../../lib/spec/petstore-api.js'
import { CLIENT_ERROR_OR_OK, requireServesValid } from '../fixtures.js'
import { expectOnlyStatus } from './filtered-lists.js'

/** Outside the enum: another word, another case, two values, none, and a name every JavaScript object has (an object map of statuses takes it). */
const INVALID_STATUSES = ['unknown', 'AVAILABLE', 'available,sold', '', 'constructor']

describe('listPets: the status filter', () => {
  test.for(PET_STATUSES)('[listPets/status-filter-matches] status=%s&limit=100 lists only pets of that status', async (status, { check }) => {
    const survey = await check.survey()
    expectOnlyStatus(check, survey.byStatus[status], status, survey, `GET /pets?status=${status}&limit=100`)
  })

  test.for(PET_STATUSES)('[listPets/status-filter-complete] a pet of status %s seen in GET /pets is listed by that filter', async (status, { check }) => {
    const survey = await check.survey()
    const exchange = survey.byStatus[status]
    check.expect.answeredWith(exchange, 200, `GET /pets?status=${status}&limit=100`, 'listPets/status-filter-matches')
    check.require(check.expect.petArray(exchange).length < 100, `status=${status}&limit=100 holds 100 pets, so it may be incomplete`)
    const listed = new Set(listedPets(exchange).map((pet) => pet.id))
    const seenUnfiltered = [...listedPets(survey.defaultPage), ...listedPets(survey.limit100)].filter((pet) => pet.status === status)
    check.require(seenUnfiltered.length > 0, `no pet of status ${status} was seen in the unfiltered lists`)
    const missing = [...new Set(seenUnfiltered.map((pet) => pet.id))].filter((id) => !listed.has(id))
    let stillMissing: bigint | undefined
    let judged = exchange
    if (missing.length > 0) {
      // Another area may have changed a status since: ask again before judging.
      const id = missing[0] as bigint
      const recheck = await check.api.getPet(id)
      const current = recheck.response?.status === 200 ? check.expect.petObject(recheck).status : undefined
      check.require(current === status, `pet ${id} no longer has status ${status}`)
      judged = await check.api.listPets({ status, limit: 100 })
      const listedAgain = listedPets(judged).map((pet) => pet.id)
      check.require(listedAgain.length < 100, `status=${status}&limit=100 now holds 100 pets, so it may be incomplete`)
      if (!listedAgain.includes(id)) stillMissing = id
    }
    check.expect.that(stillMissing === undefined, `pet ${stillMissing} has status ${status} but status=${status}&limit=100 does not list it`, {
      exchange: judged,
      expected: `every pet of status ${status} seen in GET /pets listed (${seenUnfiltered.length} seen)`,
      actual: `pet ${stillMissing} missing; ids ${listedPets(judged)
        .slice(0, 20)
        .map((pet) => pet.id)
        .join(', ')}`,
    })
  })

  test.for(INVALID_STATUSES)('[listPets/status-invalid] status="%s" gets a 4xx Error or a 200 list, never a 5xx', async (status, { check }) => {
    const exchange = await check.shared(`status=${status}`, (api) => api.listPets({ status }))
    const response = check.expect.status(exchange, CLIENT_ERROR_OR_OK, `GET /pets?status=${status}`)
    if (response.status >= 400) {
      check.expect.errorAnswer(exchange, response.status, `GET /pets?status=${status}`)
      await requireServesValid(check, 'listPets')
      return
    }
    const pets = check.expect.petArray(exchange)
    check.expect.that(pets.length <= 100, `status=${status} returned ${pets.length} pets, more than 100`, { exchange, expected: 'at most 100 pets', actual: `${pets.length} pets` })
    // As for an out-of-range limit: a 200 list only shows the maximum holds when the store could exceed it.
    const survey = await check.survey()
    check.require(survey.lowerBound >= 101, `status=${status} was answered 200; the store is known to hold ${survey.lowerBound} pets, 101 are needed to show the maximum holds`)
  })

  test.for(INVALID_STATUSES)('[listPets/status-invalid-400] status="%s" is answered 400 with an Error body', async (status, { check }) => {
    const exchange = await check.shared(`status=${status}`, (api) => api.listPets({ status }))
    check.expect.errorAnswer(exchange, 400, `GET /pets?status=${status}`)
    await requireServesValid(check, 'listPets')
  })
})
