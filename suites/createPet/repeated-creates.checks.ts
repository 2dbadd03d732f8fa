/**
 * POST is not idempotent (RFC 9110 §9.2.2; policy §2, repeated creates): the same NewPet body, byte for
 * byte, sent twice creates two pets. A service that deduplicates creates by their body, or protects against
 * double submits, answers the second POST with the first pet, and every other check, whose bodies all differ,
 * would never see it. Two bodies that share only their name make two pets too: names are no key of the interface, and
 * a service that takes one for a key (a unique constraint, an upsert by name) answers the second with a conflict or
 * the first pet.
 */
import { describeAnswer } from '../../lib/checks/assertions.js'
import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { windowWords } from '../../lib/data/eventual-reads.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { categoryId, requireGetPetInService } from '../fixtures.js'
import { expectAsSent, newPetBody, readBack } from './created-pets.js'

/**
 * Two creates answered: each 201 with a pet of its own id, each read back by GET /pets/{id} as its own body (`sent`).
 * `which` names the pair in the messages. Gives the two ids.
 */
async function expectTwoPets(check: Check, posts: readonly OperationExchange[], sent: readonly Record<string, unknown>[], which: string): Promise<bigint[]> {
  const ids = posts.map((post, index) => {
    check.expect.status(post, 201, `POST /pets, the ${index === 0 ? 'first' : 'second'} of ${which}`)
    const id = integerField(check.expect.petObject(post).id)
    check.expect.that(id !== undefined, 'the created pet has no integer id', { exchange: post, expected: 'an integer id', actual: describeAnswer(post) })
    return id as bigint
  })
  const [first, second] = ids as [bigint, bigint]
  check.expect.that(first !== second, `${which} were answered with one pet, id ${first}, both times: each must create a pet`, {
    exchange: posts[1],
    expected: 'two distinct ids',
    actual: `${first} and ${second}`,
  })
  const reads = await Promise.all(ids.map((id) => readBack(check, id)))
  reads.forEach((read, index) => {
    const id = ids[index] as bigint
    check.expect.that(read.found, `GET /pets/${id} (one of ${which}) did not answer 200 ${windowWords(read)}`, {
      exchange: read.exchange,
      expected: '200 with the pet',
      actual: describeAnswer(read.exchange),
    })
    expectAsSent(check, read.exchange, id, sent[index] ?? {}, `pet ${id}, one of ${which}, reads back differently from what was sent`)
  })
  return ids
}

const REPEATS = [
  { label: 'one after the other', slug: 'in-turn', together: false },
  { label: 'at once', slug: 'at-once', together: true },
]

describe('createPet: the same body sent twice', () => {
  test.for(REPEATS)(
    '[createPet/repeated-creates] the same NewPet body sent twice $label creates two pets with distinct ids, each read back as sent',
    async ({ label, slug, together }, { check }) => {
      check.requireWrites()
      requireGetPetInService(check)
      // Plain values but the name (no other request uses it): what this rule varies is the repetition alone.
      const { json } = newPetBody(check, { label: 'repeated', name: (c) => c.petName(`repeated-${slug}`), categoryId: categoryId, status: 'pending' })
      const raw = stringifyJson(json)
      const send = () => check.api.createPet({ raw })
      const posts = together ? await Promise.all([send(), send()]) : [await send(), await send()]
      // POST is not idempotent (RFC 9110 §9.2.2): a cache keyed by the body, or double-submit protection, answers the second with the first pet.
      await expectTwoPets(check, posts, [json, json], `two POSTs of the same body sent ${label}`)
    },
  )

  test('[createPet/repeated-creates] two NewPet bodies that share their name and status only create two pets with distinct ids, each read back as its own body by GET and in the list of their status', async ({
    check,
  }) => {
    check.requireWrites()
    requireGetPetInService(check)
    const name = check.petName('name-twins')
    const bodies = [
      newPetBody(check, { label: 'name twin', name: () => name, categoryId: categoryId, status: 'pending' }).json,
      // Another category (a configured one, where the user restricted them): the name and the status are shared, so the twins meet in one list.
      newPetBody(check, { label: 'name twin', name: () => name, categoryId: (c) => BigInt(c.context.categoryIds.at(-1) ?? '2'), status: 'pending' }).json,
    ]
    const posts = []
    for (const json of bodies) posts.push(await check.api.createPet({ json }))
    // A name is no key of the interface: a unique constraint or an upsert by name answers the second otherwise.
    const ids = await expectTwoPets(check, posts, bodies, 'two bodies that share their name and status only')
    const [first, second] = ids as [bigint, bigint]
    // Both in the list of their status, each as its own body: a list that keys its pets by name would show one.
    const list = await check.eventually(
      `GET /pets?status=pending&limit=100 showing pets ${first} and ${second}`,
      (api) => api.listPets({ status: 'pending', limit: 100 }),
      (exchange) => exchange.response?.status !== 200 || listedPets(exchange).length >= 100 || ids.every((id) => listedPets(exchange).some((pet) => pet.id === id)),
      check.api,
      { pets: [first, second] },
    )
    check.expect.answeredWith(list.exchange, 200, 'GET /pets?status=pending&limit=100', 'listPets/status-filter-matches')
    const listed = listedPets(list.exchange)
    const missing = ids.filter((id) => !listed.some((pet) => pet.id === id))
    check.require(missing.length === 0 || listed.length < 100, 'the list of pending holds 100 pets or more: the twins may be past its first page')
    check.expect.that(
      missing.length === 0,
      `pet ${missing.join(' and ')}, one of two that share their name, is missing from GET /pets?status=pending&limit=100 ${windowWords(list)}`,
      {
        exchange: list.exchange,
        expected: `pets ${first} and ${second}`,
      },
    )
  })
})
