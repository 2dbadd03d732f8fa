import type { Check } from '../../lib/checks/check.js'
import { petDifferences } from '../../lib/checks/differences.js'
import { describe, test } from '../../lib/checks/registry.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { INT64_MAX, INT64_MIN } from '../../lib/http/int64.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { knownIds, knownPetId, requireServesValid, unknownIdCandidates } from '../fixtures.js'

/**
 * Ids no int64 holds: not a number, a fraction, one past each end of int64, one of 200 digits (a framework's default
 * bound on a path parameter answers that 414 or 431, where the policy says 400 or 404), and names every JavaScript
 * object has.
 */
const INVALID_PET_IDS = [
  { label: 'abc', id: 'abc' },
  { label: '1.5', id: '1.5' },
  { label: '9223372036854775808', id: '9223372036854775808' },
  { label: '-9223372036854775809', id: '-9223372036854775809' },
  { label: 'an id of 200 digits', id: '9'.repeat(200) },
  // Names every JavaScript object has: a store kept in a plain object (`pets[id]`) finds something under them.
  { label: '__proto__', id: '__proto__' },
  { label: 'constructor', id: 'constructor' },
]

/** Ids at the edges of int64 and their neighbours (policy §2): where parsing, signs and overflow go wrong. */
const EDGE_IDS = [0n, 1n, -1n, INT64_MIN, INT64_MIN + 1n, INT64_MAX, INT64_MAX - 1n]

/**
 * The ids next to the largest and the smallest id of the pets the run knows, within int64, that no known pet holds:
 * where a service that looks ids up through a double (exact above 2^53 only in steps) answers with a neighbour.
 */
function idsNextToKnownOnes(known: ReadonlySet<bigint>): bigint[] {
  const ids = [...known]
  if (ids.length === 0) return []
  const largest = ids.reduce((a, b) => (b > a ? b : a))
  const smallest = ids.reduce((a, b) => (b < a ? b : a))
  // And 2^32 past the smallest: the same pet to a service that keeps ids in 32 bits and lets them wrap.
  const next = [largest + 1n, largest - 1n, smallest + 1n, smallest - 1n, smallest + 2n ** 32n].filter((id) => id >= INT64_MIN && id <= INT64_MAX && !known.has(id))
  return [...new Set(next)]
}

/**
 * An id 2^64 past a pet the survey saw: no int64, yet the same pet to a service that reads the digits into 64 bits and
 * lets them wrap (Haskell's `read :: Int64`, a C parser without an overflow check), so it reaches a real pet.
 */
async function wrappedPastInt64(check: Check): Promise<{ id: bigint; wrapped: string }> {
  const id = await knownPetId(check, 'no pet whose id to wrap')
  return { id, wrapped: String(id + 2n ** 64n) }
}

/** GET /pets/{id} of up to three pets the survey saw, each sent once per run. */
async function getKnownPets(check: Check) {
  const survey = await check.survey()
  const ids = knownIds(survey, 3)
  check.require(ids.length > 0, 'the store is empty: no pet to get')
  return Promise.all(ids.map(async (id) => ({ id, listed: survey.pets.get(id), exchange: await check.shared(`get:${id}`, (api) => api.getPet(id)) })))
}

/** GET /pets/{id} was answered 200 with the pet of that very id. */
function expectPetWithId(check: Check, exchange: OperationExchange, id: bigint, what: string): void {
  check.expect.status(exchange, 200, what)
  const pet = check.expect.petObject(exchange)
  check.expect.that(integerField(pet.id) === id, `${what} returned the pet with id ${stringifyJson(pet.id)}`, { exchange, expected: `id ${id}`, actual: stringifyJson(pet.id) })
}

/**
 * Why no pet can hold `id`, when the run can tell: before it wrote, the lists showed the whole store, and none of its
 * pets had the id; and every request of the run that may create a pet, the ones still under way when the id was
 * answered included, ended with an answer naming the id of what it made, none this one (a pet another client creates
 * meanwhile aside). Undefined when a pet may hold it.
 */
async function noPetMadeWith(check: Check, id: bigint): Promise<string | undefined> {
  const before = check.knownPets.wholeStoreBeforeWrites
  if (!before || before.has(id)) return undefined
  const { writes } = check.client
  await writes.settled()
  if (writes.unknownOutcomes > 0 || writes.idsShown.has(id)) return undefined
  return `before the run wrote, its lists showed the whole store, ${before.size} pets, none with that id; each of the run's ${writes.sent} requests that may create a pet was answered, those with 2xx naming ids, none this one`
}

describe('getPet: one pet by id', () => {
  test('[getPet/returns-pet] GET /pets/{id} of pets the list shows is answered 200 with that pet', async ({ check }) => {
    for (const { id, exchange } of await getKnownPets(check)) expectPetWithId(check, exchange, id, `GET /pets/${id}`)
  })

  test('[getPet/returns-pet] GET /pets/{id} of an id next to the largest or smallest known id shows that very pet, or no pet', async ({ check }) => {
    const survey = await check.survey()
    const known = new Set([...survey.pets.keys(), ...check.knownPets.createdIds()])
    const ids = idsNextToKnownOnes(known)
    check.require(ids.length > 0, 'the run knows no pet, so no id next to one')
    for (const id of ids) {
      const exchange = await check.shared(`get:${id}`, (api) => api.getPet(id))
      const status = exchange.response?.status ?? 0
      // A 2xx must be the pet asked for; any other answer shows no pet here (the rules of every answer judge its status and body).
      const pet = status >= 200 && status < 300 ? check.expect.petObject(exchange) : undefined
      check.expect.that(
        pet === undefined || integerField(pet.id) === id,
        `GET /pets/${id}, an id next to a pet's, was answered ${status} with the pet with id ${stringifyJson(pet?.id)}`,
        {
          exchange,
          expected: `the pet with id ${id}, or 404 with an Error body`,
          actual: stringifyJson(pet?.id),
        },
      )
    }
  })

  test('[getPet/body-schema] GET /pets/{id} of pets the list shows is a valid Pet', async ({ check }) => {
    const gets = (await getKnownPets(check)).map(({ exchange }) => exchange)
    for (const exchange of check.expect.successes(gets, 'getPet/returns-pet')) check.expect.matchesSchema(exchange, 'Pet')
  })

  test('[getPet/matches-listed-pet] GET /pets/{id} shows the same name and categoryId as the list', async ({ check }) => {
    for (const { id, listed, exchange } of await getKnownPets(check)) {
      check.require(exchange.response?.status === 200, `GET /pets/${id} was not answered 200 (see getPet/returns-pet)`)
      const pet = check.expect.petObject(exchange)
      const differences = petDifferences({ name: listed?.name, categoryId: listed?.categoryId }, pet)
      check.expect.that(differences.length === 0, `pet ${id} differs between GET /pets/{id} and GET /pets: ${differences.join('; ')}`, {
        exchange,
        expected: `name ${stringifyJson(listed?.name)}, categoryId ${listed?.categoryId}`,
        actual: `name ${stringifyJson(pet.name)}, categoryId ${stringifyJson(pet.categoryId)}`,
      })
    }
  })

  test('[getPet/unknown-id-404] GET /pets/{id} of an id that does not exist is answered 404 with an Error body', async ({ check }) => {
    const survey = await check.survey()
    for (const id of unknownIdCandidates(survey)) {
      const exchange = await check.shared(`get:${id}`, (api) => api.getPet(id))
      const pet = exchange.response?.status === 200 ? check.expect.petObject(exchange) : undefined
      // A 200 that names the id asked for means the pet exists: try the next candidate.
      if (pet && integerField(pet.id) === id) continue
      check.expect.errorAnswer(exchange, 404, `GET /pets/${id}`)
      return
    }
    check.inconclusive('every candidate id exists in the store')
  })

  test.for(INVALID_PET_IDS)('[getPet/invalid-id] GET /pets/{$label} is answered 400 or 404 with an Error body', async ({ label, id }, { check }) => {
    const exchange = await check.api.getPet(id)
    check.expect.errorAnswer(exchange, [400, 404], `GET /pets/${id.length > 40 ? `{${label}}` : id}`)
    if (exchange.response?.status === 400) await requireServesValid(check, 'getPet')
  })

  test('[getPet/invalid-id] GET /pets/{id} of a pet’s id plus 2^64, which wraps to that pet in 64 bits, is answered 400 or 404 with an Error body', async ({ check }) => {
    const { id, wrapped } = await wrappedPastInt64(check)
    const exchange = await check.api.getPet(wrapped)
    check.expect.errorAnswer(exchange, [400, 404], `GET /pets/${wrapped} (pet ${id}'s id plus 2^64, no int64)`)
    if (exchange.response?.status === 400) await requireServesValid(check, 'getPet')
  })

  test.for(EDGE_IDS.map(String))('[getPet/int64-edge-ids] GET /pets/%s answers the pet when a list shows it, else 404 (or 400) with an Error body', async (text, { check }) => {
    const id = BigInt(text)
    const survey = await check.survey()
    const exchange = await check.shared(`get:${id}`, (api) => api.getPet(id))
    // A pet the lists show, or one a create of this run was answered with (lists that lag may not show it yet).
    if (survey.pets.has(id) || check.knownPets.createdIds().has(id)) {
      expectPetWithId(check, exchange, id, `GET /pets/${id} (${survey.pets.has(id) ? 'a pet the lists show' : 'a pet this run created'})`)
      return
    }
    const status = exchange.response?.status ?? 0
    if (status >= 200 && status < 300) {
      const pet = check.expect.petObject(exchange)
      check.expect.that(integerField(pet.id) === id, `GET /pets/${id} was answered ${status} with the pet with id ${stringifyJson(pet.id)}`, {
        exchange,
        expected: `404 (or 400), or the pet with id ${id}`,
        actual: stringifyJson(pet.id),
      })
      // A 200 naming the very id asked for: the pet exists unless the lists show the whole store.
      const wholeStore = listedPets(survey.limit100).length < 100 && survey.limit100.response?.status === 200
      check.expect.that(!wholeStore, `GET /pets/${id} was answered ${status} although no pet holds that id (the lists show the whole store, ${survey.lowerBound} pets)`, {
        exchange,
        expected: '404 (or 400) with an Error body',
        actual: `${status} with a pet`,
      })
      const unmade = await noPetMadeWith(check, id)
      check.expect.that(unmade === undefined, `GET /pets/${id} was answered ${status} although no pet holds that id (${unmade})`, {
        exchange,
        expected: '404 (or 400) with an Error body',
        actual: `${status} with a pet`,
      })
      check.inconclusive(`GET /pets/${id} was answered ${status} with a pet of that id, and the store holds more pets than a list shows, so it may exist`)
    }
    check.expect.errorAnswer(exchange, [404, 400], `GET /pets/${id}`)
    if (exchange.response?.status === 400) await requireServesValid(check, 'getPet')
  })

  test('[getPet/deprecation-headers] Deprecation and Sunset headers are recorded', async ({ check }) => {
    const survey = await check.survey()
    const [id] = knownIds(survey, 1)
    const exchange = await check.shared(`get:${id ?? 1n}`, (api) => api.getPet(id ?? 1n))
    const headers = exchange.response?.headers ?? {}
    check.observe(`Deprecation: ${headers.deprecation ?? '(absent)'}; Sunset: ${headers.sunset ?? '(absent)'}; Link: ${headers.link ?? '(absent)'}`)
  })
})
