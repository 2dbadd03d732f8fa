/**
 * Top-up seeding for the full profile (policy §3): the boundary checks need 101+ pets and a pet of each
 * status. The store is counted first and only the shortfall is created, so repeated runs stop adding.
 */
import { mapConcurrently } from '../http/concurrency.js'
import { PET_STATUSES, type PetStatus, type PetstoreApi } from '../spec/petstore-api.js'
import { countOfStatus, surveyStore } from './store-survey.js'

/** The store size that makes limit=100 (and the default page of 20) evidence. */
export const SEED_TARGET = 101

export interface SeedingOutcome {
  knownBefore: number
  created: number
  note: string
}

export function seedingPlan(knownPets: number, countsByStatus: Record<PetStatus, number>): PetStatus[] {
  const plan: PetStatus[] = PET_STATUSES.filter((status) => countsByStatus[status] === 0)
  for (let index = 0; knownPets + plan.length < SEED_TARGET; index++) plan.push(PET_STATUSES[index % PET_STATUSES.length] as PetStatus)
  return plan
}

export async function topUpStore(api: PetstoreApi, options: { namePrefix: string; runId: string; categoryId: string; concurrency: number }): Promise<SeedingOutcome> {
  const survey = await surveyStore(api)
  const lists = [survey.defaultPage, survey.limit100, ...Object.values(survey.byStatus)]
  if (lists.some((exchange) => exchange.response?.status !== 200)) {
    return { knownBefore: survey.lowerBound, created: 0, note: 'the store could not be listed (a list was not answered 200), so nothing was seeded' }
  }
  const counts = Object.fromEntries(PET_STATUSES.map((status) => [status, countOfStatus(survey, status)])) as Record<PetStatus, number>
  const plan = seedingPlan(survey.lowerBound, counts)
  const answers = await mapConcurrently(plan, options.concurrency, (status, index) =>
    api.createPet({ json: { name: `${options.namePrefix}seed-${options.runId}-${index}`, categoryId: BigInt(options.categoryId), status } }),
  )
  const created = answers.filter((exchange) => exchange.response?.status === 201).length
  const note =
    plan.length === 0
      ? `the store already holds at least ${survey.lowerBound} pets with every status; nothing seeded`
      : `the store was known to hold ${survey.lowerBound} pets; ${created} of ${plan.length} seeding pets created`
  return { knownBefore: survey.lowerBound, created, note }
}
