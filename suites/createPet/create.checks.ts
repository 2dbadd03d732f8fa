import { describeAnswer } from '../../lib/checks/assertions.js'
import type { Check } from '../../lib/checks/check.js'
import type { ExperimentCause } from '../../lib/checks/check-result.js'
import { petDifferences } from '../../lib/checks/differences.js'
import { describe, test } from '../../lib/checks/registry.js'
import { type EventualRead, windowWords } from '../../lib/data/eventual-reads.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { INT64_MAX, INT64_MIN } from '../../lib/http/int64.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import { responseObject } from '../../lib/http/response-json.js'
import { type OperationExchange, PET_STATUSES, type PetStatus } from '../../lib/spec/petstore-api.js'
import { categoryId, requireGetPetInService } from '../fixtures.js'
import { configuredOr, createValid, expectAsSent, type NewPetCase, NO_STATUS_CREATE, newPetBody, PLAIN_NEW_PET, plainCreatePasses, readBack } from './created-pets.js'

/** Creates sent at once by createPet/concurrent-creates: the default --concurrency, so they overlap in time. */
const CONCURRENT_CREATES = 8

/** The creates whose answers are judged field by field: the plain one, then each varying one input from it. */
const ECHO_CASES: NewPetCase[] = [
  PLAIN_NEW_PET,
  {
    label: 'name with accents, combining marks, emoji, right-to-left text, quotes, backslash and a tab',
    name: (c) => `${c.petName('echo-unicode')} Ünïcødé e\u0301 🐶🦜 עברית "q" \\ \t end `,
    categoryId: categoryId,
    status: 'pending',
    varies: 'name',
  },
  { label: 'categoryId 2^53 + 1', name: (c) => c.petName('echo-2p53'), categoryId: configuredOr(2n ** 53n + 1n), status: 'pending', varies: 'categoryId' },
  { label: 'categoryId int64 maximum', name: (c) => c.petName('echo-max'), categoryId: configuredOr(INT64_MAX), status: 'pending', varies: 'categoryId' },
  { label: 'categoryId int64 minimum', name: (c) => c.petName('echo-min'), categoryId: configuredOr(INT64_MIN), status: 'pending', varies: 'categoryId' },
  { label: 'empty name', name: () => '', categoryId: categoryId, status: 'pending', varies: 'name' },
  { label: 'status sold', name: (c) => c.petName('echo-sold'), categoryId: categoryId, status: 'sold', varies: 'status' },
  {
    label: 'an extra property',
    name: (c) => c.petName('echo-extra'),
    categoryId: categoryId,
    status: 'pending',
    extra: { nickname: 'extra' },
    varies: 'a member the schema does not name',
  },
]

/**
 * The experiment behind a failure of an echo case: it differs from the plain create in one input, and the plain
 * create passed, so that input is the failure's cause (root-causes.ts). Undefined for the plain create itself, and
 * when the plain create failed too (then nothing was shown).
 */
async function echoCause(check: Check, pet: NewPetCase): Promise<ExperimentCause | undefined> {
  if (!pet.varies || !(await plainCreatePasses(check))) return undefined
  return { input: pet.varies, words: `the create with ${pet.label} fails where the plain create, which differs from it in its ${pet.varies} alone, passes` }
}

describe('createPet: a valid NewPet', () => {
  test.for(ECHO_CASES)('[createPet/returns-201-pet] a valid NewPet is answered 201 with a Pet carrying an id: $label', async (pet, { check }) => {
    check.requireWrites()
    const exchange = await check.shared(`echo:${pet.label}`, (api) => api.createPet(newPetBody(check, pet)))
    const created = exchange.response?.status === 201 ? responseObject(exchange) : undefined
    const cause = created && integerField(created.id) !== undefined ? undefined : await echoCause(check, pet)
    check.expect.status(exchange, 201, 'POST /pets', cause)
    const id = integerField(check.expect.petObject(exchange).id)
    check.expect.that(id !== undefined, 'the created pet has no integer id', { exchange, expected: 'an integer id', actual: describeAnswer(exchange), ...(cause ? { cause } : {}) })
  })

  test.for(ECHO_CASES)('[createPet/body-schema] the 201 body is a valid Pet: $label', async (pet, { check }) => {
    check.requireWrites()
    const exchange = await check.shared(`echo:${pet.label}`, (api) => api.createPet(newPetBody(check, pet)))
    for (const created of check.expect.successes([exchange], 'createPet/returns-201-pet')) check.expect.matchesSchema(created, 'Pet')
  })

  test.for(ECHO_CASES)('[createPet/echoes-fields] the created pet echoes the body: $label', async (pet, { check }) => {
    const { exchange, created, sent } = await createValid(check, pet, `echo:${pet.label}`)
    const differences = petDifferences({ name: sent.name, categoryId: sent.categoryId, ...(pet.status ? { status: pet.status } : {}) }, created)
    const cause = differences.length > 0 ? await echoCause(check, pet) : undefined
    check.expect.that(differences.length === 0, `the 201 answer differs from the body sent: ${differences.join('; ')}`, {
      exchange,
      expected: stringifyJson(sent),
      actual: describeAnswer(exchange),
      ...(cause ? { cause } : {}),
    })
  })

  test('[createPet/ids-unique] five pets created at once get five distinct ids', async ({ check }) => {
    const pets = await Promise.all(
      Array.from({ length: 5 }, (_, index) => createValid(check, { label: 'unique', name: (c) => c.petName(`unique-${index}`), categoryId: categoryId })),
    )
    const ids = pets.map((pet) => pet.id)
    check.expect.that(new Set(ids).size === ids.length, `ids repeat: ${ids.join(', ')}`, { expected: '5 distinct ids', actual: ids.join(', ') })
  })

  test('[createPet/round-trip-get] GET /pets/{id} returns the pet just created', async ({ check }) => {
    requireGetPetInService(check)
    const { id, sent } = await createValid(check, {
      label: 'round trip',
      // Plain values: the round trip of a GET is what this rule tests, not an input (the integer edges and the names have rules of their own).
      name: (c) => c.petName('round-trip'),
      categoryId: categoryId,
      status: 'pending',
    })
    const read = await readBack(check, id)
    check.expect.that(read.found, `GET /pets/${id} did not answer 200 ${windowWords(read)}`, {
      exchange: read.exchange,
      expected: '200 with the pet',
      actual: describeAnswer(read.exchange),
    })
    expectAsSent(check, read.exchange, id, sent, `GET /pets/${id} differs from the pet created`)
  })

  test.for(PET_STATUSES)('[createPet/created-pet-listed] a pet created with status %s is listed by status=%s&limit=100', async (status, { check }) => {
    const { id } = await createValid(check, { label: 'listed', name: (c) => c.petName(`listed-${status}`), categoryId: categoryId, status })
    const listed = (exchange: OperationExchange) => listedPets(exchange).some((pet) => pet.id === id)
    // A full page (100 pets) without the pet may be complete or not: reading it again until the window closes
    // could not decide, so such a read ends the wait (and is no evidence of a lagging store).
    // An answer that is no list (a 5xx, a 4xx) is no lag either: the rule that names its status judges it, and the wait ends.
    const decided = (exchange: OperationExchange) => exchange.response?.status !== 200 || listed(exchange) || listedPets(exchange).length >= 100
    const read = await check.eventually(`status=${status}&limit=100 listing pet ${id}`, (api) => api.listPets({ status, limit: 100 }), decided, check.api, { pets: [id] })
    const { exchange } = read
    check.expect.answeredWith(exchange, 200, `GET /pets?status=${status}&limit=100`, 'listPets/status-filter-matches')
    const pets = check.expect.petArray(exchange)
    if (listed(exchange)) return
    check.require(pets.length < 100, `status=${status}&limit=100 holds 100 pets, so it may be incomplete`)
    check.expect.fail(`pet ${id}, just created with status ${status}, is not in status=${status}&limit=100 (${pets.length} pets) ${windowWords(read)}`, {
      exchange,
      expected: `pet ${id} in the list`,
      actual: `ids ${listedPets(exchange)
        .slice(0, 20)
        .map((pet) => pet.id)
        .join(', ')}`,
    })
  })

  test('[createPet/concurrent-creates] eight creates sent at once each get their own id and read back as sent', async ({ check }) => {
    check.requireWrites()
    requireGetPetInService(check)
    const statuses = [...PET_STATUSES, undefined] as const
    const cases = Array.from({ length: CONCURRENT_CREATES }, (_, index) =>
      newPetBody(check, {
        label: 'concurrent',
        name: (c) => c.petName(`concurrent-${index}`),
        // A plain categoryId: what this rule varies is the timing, and each create differs from the others by its name.
        categoryId: categoryId,
        ...(statuses[index % statuses.length] ? { status: statuses[index % statuses.length] as PetStatus } : {}),
      }),
    )
    const answers = await Promise.all(cases.map((body) => check.api.createPet(body)))
    const acknowledged = answers.flatMap((exchange, index) => {
      if (exchange.response?.status !== 201) return []
      const id = integerField(check.expect.petObject(exchange).id)
      return id === undefined ? [] : [{ exchange, id, sent: (cases[index] as { json: Record<string, unknown> }).json }]
    })
    const unsent = answers.find((exchange) => exchange.failure?.kind === 'over-budget')?.failure?.message
    check.require(
      acknowledged.length >= 2,
      `only ${acknowledged.length} of ${CONCURRENT_CREATES} concurrent creates were answered 201 with an id (${unsent ?? 'see createPet/returns-201-pet'})`,
    )
    const ids = acknowledged.map((pet) => pet.id)
    check.expect.that(new Set(ids).size === ids.length, `concurrent creates got repeated ids: ${ids.join(', ')}`, {
      expected: `${ids.length} distinct ids`,
      actual: ids.join(', '),
    })
    const reads = await Promise.all(acknowledged.map((pet) => readBack(check, pet.id)))
    acknowledged.forEach((pet, index) => {
      const read = reads[index] as EventualRead
      check.expect.that(read.found, `GET /pets/${pet.id} (created concurrently) did not answer 200 ${windowWords(read)}`, {
        exchange: read.exchange,
        expected: '200 with the pet',
        actual: describeAnswer(read.exchange),
      })
      expectAsSent(check, read.exchange, pet.id, pet.sent, `pet ${pet.id}, created concurrently, reads back differently from what was sent`)
    })
  })

  test('[createPet/status-omitted] the status stored when none is sent is recorded', async ({ check }) => {
    const { created, id } = await createValid(check, { label: 'no status', name: (c) => c.petName('no-status'), categoryId: categoryId }, NO_STATUS_CREATE)
    check.observe(
      created.status === undefined
        ? 'POST /pets without status: the created pet has no status'
        : `POST /pets without status: the created pet has status ${stringifyJson(created.status)}`,
    )
    check.observe(`created pet id: ${id}`)
  })
})
