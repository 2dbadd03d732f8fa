import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { INT64_MAX, INT64_MIN } from '../../lib/http/int64.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import { PET_STATUSES, type PetStatus } from '../../lib/spec/petstore-api.js'
import { categoryId, requireGetPetInService } from '../fixtures.js'

interface NewPetCase {
  label: string
  name: (check: Check) => string
  categoryId: (check: Check) => bigint
  status?: PetStatus
  extra?: Record<string, unknown>
}

/** Configured category ids replace the int64 extremes when the target only knows some categories. */
const configuredOr = (value: bigint) => (check: Check) => (check.context.categoryIds.length > 0 ? categoryId(check) : value)

const ECHO_CASES: NewPetCase[] = [
  { label: 'ASCII name with status', name: (c) => c.petName('echo-ascii'), categoryId: categoryId, status: 'available' },
  {
    label: 'name with accents, combining marks, emoji, right-to-left text, quotes, backslash and a tab',
    name: (c) => `${c.petName('echo-unicode')} Ünïcødé e\u0301 🐶🦜 עברית "q" \\ \t end `,
    categoryId: categoryId,
    status: 'pending',
  },
  { label: 'categoryId 2^53 + 1', name: (c) => c.petName('echo-2p53'), categoryId: configuredOr(2n ** 53n + 1n), status: 'sold' },
  { label: 'categoryId int64 maximum', name: (c) => c.petName('echo-max'), categoryId: configuredOr(INT64_MAX) },
  { label: 'categoryId int64 minimum', name: (c) => c.petName('echo-min'), categoryId: configuredOr(INT64_MIN), status: 'available' },
  { label: 'empty name', name: () => '', categoryId: categoryId, status: 'sold' },
  { label: 'an extra property', name: (c) => c.petName('echo-extra'), categoryId: categoryId, extra: { nickname: 'extra' } },
]

function newPetBody(check: Check, pet: NewPetCase): { json: Record<string, unknown> } {
  return { json: { ...pet.extra, name: pet.name(check), categoryId: pet.categoryId(check), ...(pet.status ? { status: pet.status } : {}) } }
}

/** Create a pet; cases with a `shareKey` are sent once per run and judged by every check that asks. */
async function createValid(check: Check, pet: NewPetCase, shareKey?: string) {
  check.requireWrites()
  const body = newPetBody(check, pet)
  const exchange = shareKey ? await check.shared(shareKey, (api) => api.createPet(body)) : await check.api.createPet(body)
  check.expect.status(exchange, 201, 'POST /pets')
  const created = check.expect.petObject(exchange)
  const id = integerField(created.id)
  check.expect.that(id !== undefined, 'the created pet has no integer id', { exchange, expected: 'an integer id', actual: stringifyJson(created.id) })
  return { exchange, created, id: id as bigint, sent: body.json }
}

describe('createPet: a valid NewPet', () => {
  test('[createPet/returns-201-pet] a valid NewPet is answered 201 with a Pet carrying an id', async ({ check }) => {
    await createValid(check, ECHO_CASES[0] as NewPetCase, `echo:${ECHO_CASES[0]?.label}`)
  })

  test.for(ECHO_CASES)('[createPet/body-schema] the 201 body is a valid Pet: $label', async (pet, { check }) => {
    const { exchange } = await createValid(check, pet, `echo:${pet.label}`)
    check.expect.matchesSchema(exchange, 'Pet')
  })

  test.for(ECHO_CASES)('[createPet/echoes-fields] the created pet echoes the body: $label', async (pet, { check }) => {
    const { exchange, created, sent } = await createValid(check, pet, `echo:${pet.label}`)
    check.expect.that(created.name === sent.name, 'name differs from the one sent', { exchange, expected: JSON.stringify(sent.name), actual: stringifyJson(created.name) })
    check.expect.that(integerField(created.categoryId) === sent.categoryId, 'categoryId differs from the one sent', {
      exchange,
      expected: String(sent.categoryId),
      actual: stringifyJson(created.categoryId),
    })
    if (pet.status) check.expect.that(created.status === pet.status, 'status differs from the one sent', { exchange, expected: pet.status, actual: stringifyJson(created.status) })
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
      name: (c) => `${c.petName('round-trip')} 🐢`,
      categoryId: configuredOr(2n ** 60n + 3n),
      status: 'pending',
    })
    const exchange = await check.api.getPet(id)
    check.expect.status(exchange, 200, `GET /pets/${id}`)
    const read = check.expect.petObject(exchange)
    const same = integerField(read.id) === id && read.name === sent.name && integerField(read.categoryId) === sent.categoryId && read.status === sent.status
    check.expect.that(same, 'GET /pets/{id} differs from the pet created', { exchange, expected: stringifyJson({ ...sent, id }), actual: stringifyJson(read) })
  })

  test.for(PET_STATUSES)('[createPet/created-pet-listed] a pet created with status %s is listed by status=%s&limit=100', async (status, { check }) => {
    const { id } = await createValid(check, { label: 'listed', name: (c) => c.petName(`listed-${status}`), categoryId: categoryId, status })
    const exchange = await check.api.listPets({ status, limit: 100 })
    check.expect.status(exchange, 200, `GET /pets?status=${status}&limit=100`)
    const pets = check.expect.petArray(exchange)
    const ids = listedPets(exchange).map((pet) => pet.id)
    if (ids.includes(id)) return
    check.require(pets.length < 100, `status=${status}&limit=100 holds 100 pets, so it may be incomplete`)
    check.expect.fail(`pet ${id}, just created with status ${status}, is not in status=${status}&limit=100 (${pets.length} pets)`, {
      exchange,
      expected: `pet ${id} in the list`,
      actual: `ids ${ids.slice(0, 20).join(', ')}`,
    })
  })

  test('[createPet/status-omitted] the status stored when none is sent is recorded', async ({ check }) => {
    const { created, id } = await createValid(check, { label: 'no status', name: (c) => c.petName('no-status'), categoryId: categoryId })
    check.observe(
      created.status === undefined
        ? 'POST /pets without status: the created pet has no status'
        : `POST /pets without status: the created pet has status ${stringifyJson(created.status)}`,
    )
    check.observe(`created pet id: ${id}`)
  })
})
