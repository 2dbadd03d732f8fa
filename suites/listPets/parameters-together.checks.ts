/**
 * Every list rule holds for every combination the suite sends, not only for each parameter alone
 * (policy §2, parameters together): a filter must not make the service forget the default page size or
 * the limit, and a limit must not make it forget the filter.
 */
import { describe, test } from '../../lib/checks/registry.js'
import { countOfStatus } from '../../lib/data/store-survey.js'
import { PET_STATUSES } from '../../lib/spec/petstore-api.js'
import { busiestStatus, expectOnlyStatus, FILTER_LIMIT_ROWS, filteredList, limitOfRow } from './filtered-lists.js'

describe('listPets: status and limit together', () => {
  test.for(PET_STATUSES)('[listPets/filter-and-default-limit] status=%s without limit returns at most 20 pets', async (status, { check }) => {
    const survey = await check.survey()
    const exchange = await filteredList(check, status)
    check.expect.answeredWith(exchange, 200, `GET /pets?status=${status}`, 'listPets/filter-and-default-limit')
    const pets = check.expect.petArray(exchange)
    check.expect.that(pets.length <= 20, `GET /pets?status=${status} returned ${pets.length} pets, more than the default 20`, {
      exchange,
      expected: 'at most 20 pets',
      actual: `${pets.length} pets`,
    })
    const count = countOfStatus(survey, status)
    check.require(count >= 21, `the store is known to hold ${count} pets of status ${status}; 21 are needed for the default page to be evidence`)
  })

  test.for(FILTER_LIMIT_ROWS)('[listPets/filter-and-limit] status=S&limit=%s, S the status with the most known pets, returns at most that many', async (row, { check }) => {
    const survey = await check.survey()
    const { status, count } = busiestStatus(survey)
    const limit = limitOfRow(row, count)
    const exchange = await filteredList(check, status, limit)
    const request = `GET /pets?status=${status}&limit=${limit}`
    check.expect.answeredWith(exchange, 200, request, 'listPets/filter-and-limit')
    const pets = check.expect.petArray(exchange)
    check.expect.that(pets.length <= limit, `${request} returned ${pets.length} pets`, { exchange, expected: `at most ${limit} pets`, actual: `${pets.length} pets` })
    check.require(count > limit, `the store is known to hold ${count} pets of status ${status}; more than ${limit} are needed for limit=${limit} to be evidence`)
  })

  test.for(PET_STATUSES)('[listPets/status-filter-matches] status=%s without limit lists only pets of that status', async (status, { check }) => {
    const survey = await check.survey()
    expectOnlyStatus(check, await filteredList(check, status), status, survey, `GET /pets?status=${status}`)
  })

  // status=S&limit=100 is judged for every status in status-filter.checks.ts.
  test.for(FILTER_LIMIT_ROWS.filter((row) => row !== '100'))(
    '[listPets/status-filter-matches] status=S&limit=%s, S the status with the most known pets, lists only pets of S',
    async (row, { check }) => {
      const survey = await check.survey()
      const { status, count } = busiestStatus(survey)
      const limit = limitOfRow(row, count)
      expectOnlyStatus(check, await filteredList(check, status, limit), status, survey, `GET /pets?status=${status}&limit=${limit}`)
    },
  )
})
