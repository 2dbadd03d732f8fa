/**
 * Top-up seeding for the full profile (policy §3): the boundary checks need 101+ pets, a pet of each
 * status, and more than 20 pets of one status (the default page under a filter). The store is counted first and only the shortfall is created, so repeated runs stop adding.
 */
import { mapConcurrently } from '../http/concurrency.js'
import { responseJson } from '../http/response-json.js'
import { PET_STATUSES, type PetStatus, type PetstoreApi } from '../spec/petstore-api.js'
import { type LagLog, readWithinWindow } from './eventual-reads.js'
import { countOfStatus, listedPets, type StoreSurvey, surveyLists, surveyStore } from './store-survey.js'

/** The store size that makes limit=100 (and the default page of 20) evidence. */
export const SEED_TARGET = 101
/** Pets of one status that make the default page of 20 evidence under a status filter (policy §2, parameters together). */
export const SEED_ONE_STATUS = 21

export interface SeedingOutcome {
  knownBefore: number
  created: number
  note: string
}

/**
 * What to create: one pet of each status the store lacks, then pets of each status in turn up to 101 in all,
 * then pets of the most common status until one status has 21.
 */
export function seedingPlan(knownPets: number, countsByStatus: Record<PetStatus, number>): PetStatus[] {
  const plan: PetStatus[] = PET_STATUSES.filter((status) => countsByStatus[status] === 0)
  for (let index = 0; knownPets + plan.length < SEED_TARGET; index++) plan.push(PET_STATUSES[index % PET_STATUSES.length] as PetStatus)
  const after = (status: PetStatus) => countsByStatus[status] + plan.filter((planned) => planned === status).length
  const busiest = PET_STATUSES.reduce((best, status) => (after(status) > after(best) ? status : best))
  while (after(busiest) < SEED_ONE_STATUS) plan.push(busiest)
  return plan
}

export interface SeedingOptions {
  namePrefix: string
  runId: string
  categoryId: string
  concurrency: number
  /** The consistency window: the seeded pets are waited for in the list within it, so the store survey sees them. */
  consistencyWindowMs: number
  lagLog: LagLog
  /** The run's stop (its deadline, or a cancel): the wait for the seeded pets ends there too. */
  stop?: AbortSignal
  /** How to wait between reads (the HTTP client's sleep, known to the watchdog as a timed wait). */
  sleep?: (ms: number) => Promise<void>
  /** Told the ids of the store's pets when its lists showed all of them, before anything was created. */
  wholeStore?: (ids: ReadonlySet<bigint>) => void
}

/**
 * The ids of every pet the store holds, when the survey's lists show them all: the unfiltered list of 100 answered 200
 * with fewer than 100 pets, each with an integer id, and every other list naming only pets it shows.
 */
export function wholeStoreOf(survey: StoreSurvey): ReadonlySet<bigint> | undefined {
  const all = listedPets(survey.limit100)
  const listed = responseJson(survey.limit100)
  const items = listed.ok && Array.isArray(listed.value) ? listed.value.length : Number.POSITIVE_INFINITY
  if (surveyLists(survey).some((exchange) => exchange.response?.status !== 200) || items >= 100 || items !== all.length) return undefined
  const ids = new Set(all.map((pet) => pet.id))
  return ids.size === all.length && [...survey.pets.keys()].every((id) => ids.has(id)) ? ids : undefined
}

export async function topUpStore(api: PetstoreApi, options: SeedingOptions): Promise<SeedingOutcome> {
  const survey = await surveyStore(api)
  const lists = surveyLists(survey)
  if (lists.some((exchange) => exchange.response?.status !== 200)) {
    return { knownBefore: survey.lowerBound, created: 0, note: 'the store could not be listed (a list was not answered 200), so nothing was seeded' }
  }
  const whole = wholeStoreOf(survey)
  if (whole) options.wholeStore?.(whole)
  const counts = Object.fromEntries(PET_STATUSES.map((status) => [status, countOfStatus(survey, status)])) as Record<PetStatus, number>
  const plan = seedingPlan(survey.lowerBound, counts)
  const answers = await mapConcurrently(plan, options.concurrency, (status, index) =>
    api.createPet({ json: { name: `${options.namePrefix}seed-${options.runId}-${index}`, categoryId: BigInt(options.categoryId), status } }),
  )
  const created = answers.filter((exchange) => exchange.response?.status === 201).length
  const overBudget = answers.filter((exchange) => exchange.failure?.kind === 'over-budget').length
  if (created > 0) {
    // A store that answers lists from a lagging replica shows the new pets a little later: wait for them (within the window) before any check surveys the store.
    const expected = Math.min(100, survey.lowerBound + created)
    await readWithinWindow({
      windowMs: options.consistencyWindowMs,
      what: `GET /pets?limit=100 showing the ${created} seeded pets`,
      read: () => api.listPets({ limit: 100 }),
      found: (exchange) => listedPets(exchange).length >= expected,
      log: options.lagLog,
      missIsEvidence: false,
      ...(options.stop ? { stop: options.stop } : {}),
      ...(options.sleep ? { sleep: options.sleep } : {}),
    })
  }
  const note =
    plan.length === 0
      ? `the store already holds at least ${survey.lowerBound} pets with every status; nothing seeded`
      : `the store was known to hold ${survey.lowerBound} pets; ${created} of ${plan.length} seeding pets created${overBudget > 0 ? ` (${overBudget} not sent: the --max-creates budget was spent)` : ''}`
  return { knownBefore: survey.lowerBound, created, note }
}
