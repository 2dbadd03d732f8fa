/** Filtered lists the listPets suites share: one request per combination per run, and the rule that a filter lists only its status. */
import type { Check } from '../../lib/checks/check.js'
import { countOfStatus, type StoreSurvey } from '../../lib/data/store-survey.js'
import { excerpt } from '../../lib/http/excerpt.js'
import { stringifyJson } from '../../lib/http/json.js'
import { type OperationExchange, PET_STATUSES, type PetStatus } from '../../lib/spec/petstore-api.js'

/** GET /pets?status=S, with limit=N when given; status=S&limit=100 is the survey's own request. */
export async function filteredList(check: Check, status: PetStatus, limit?: number): Promise<OperationExchange> {
  if (limit === 100) return (await check.survey()).byStatus[status]
  return check.shared(`status=${status}${limit === undefined ? '' : `&limit=${limit}`}`, (api) => api.listPets({ status, ...(limit === undefined ? {} : { limit }) }))
}

/** The status with the most known pets: where "at most N" with a filter can be evidence. */
export function busiestStatus(survey: StoreSurvey): { status: PetStatus; count: number } {
  return PET_STATUSES.map((status) => ({ status, count: countOfStatus(survey, status) })).reduce((best, next) => (next.count > best.count ? next : best))
}

/** The limits of status=S&limit=N rows: 1, the maximum, and the largest N the known count of S makes evidence. */
export const FILTER_LIMIT_ROWS = ['1', 'N just below the known count of S', '100'] as const

export function limitOfRow(row: (typeof FILTER_LIMIT_ROWS)[number], countOfS: number): number {
  return row === '1' ? 1 : row === '100' ? 100 : Math.max(1, Math.min(99, countOfS - 1))
}

/** Every pet of a filtered answer has the status asked for; evidence only when pets of another status are known. */
export function expectOnlyStatus(check: Check, exchange: OperationExchange, status: PetStatus, survey: StoreSurvey, request: string): void {
  check.expect.answeredWith(exchange, 200, request, 'listPets/status-filter-matches')
  const pets = check.expect.petArray(exchange)
  const others = pets.filter((pet) => pet.status !== status)
  check.expect.that(others.length === 0, `${request} listed ${others.length} ${others.length === 1 ? 'pet' : 'pets'} whose status is not "${status}" (another, or none)`, {
    exchange,
    expected: `only pets with status "${status}"`,
    actual: others
      .slice(0, 5)
      .map((pet) => excerpt(stringifyJson(pet), 200))
      .join(', '),
  })
  const otherKnown = [...survey.pets.values()].filter((pet) => pet.status !== status).length
  check.require(otherKnown > 0, `no pet of another status is known in the store, so an ignored filter would look the same`)
}
