/**
 * POST is not idempotent (RFC 9110 §9.2.2; policy §2, repeated creates): the same NewPet body, byte for
 * byte, sent twice creates two pets. A service that deduplicates creates by their body, or protects against
 * double submits, answers the second POST with the first pet, and every other check, whose bodies all differ,
 * would never see it. Two bodies that share only their name make two pets too: names are no key of the interface, and
 * a service that takes one for a key (a unique constraint, an upsert by name) answers the second with a conflict or
 * the first pet.
 */
import { describeAnswer } from '../../lib/checks/assertions.js'
import { describe, test } from '../../lib/checks/registry.js'
import { windowWords } from '../../lib/data/eventual-reads.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import { categoryId, requireGetPetInService } from '../fixtures.js'
import { expectAsSent, newPetBody, readBack } from './created-pets.js'

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
      const ids = posts.map((post, index) => {
        check.expect.status(post, 201, `POST /pets, the same body sent twice ${label} (${index === 0 ? 'first' : 'second'})`)
        const id = integerField(check.expect.petObject(post).id)
        check.expect.that(id !== undefined, 'the created pet has no integer id', { exchange: post, expected: 'an integer id', actual: describeAnswer(post) })
        return id as bigint
      })
      const [first, second] = ids as [bigint, bigint]
      check.expect.that(
        first !== second,
        `the same NewPet body sent twice ${label} was answered with one pet, id ${first}, both times: POST is not idempotent, each must create a pet`,
        {
          exchange: posts[1],
          expected: 'two distinct ids',
          actual: `${first} and ${second}`,
        },
      )
      const reads = await Promise.all(ids.map((id) => readBack(check, id)))
      reads.forEach((read, index) => {
        const id = ids[index] as bigint
        check.expect.that(read.found, `GET /pets/${id} (the same body sent twice ${label}) did not answer 200 ${windowWords(read)}`, {
          exchange: read.exchange,
          expected: '200 with the pet',
          actual: describeAnswer(read.exchange),
        })
        expectAsSent(check, read.exchange, id, json, `pet ${id}, one of two created from the same body ${label}, reads back differently from what was sent`)
      })
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
    const ids = posts.map((post, index) => {
      check.expect.status(post, 201, `POST /pets, the ${index === 0 ? 'first' : 'second'} of two bodies that share only their name`)
      const id = integerField(check.expect.petObject(post).id)
      check.expect.that(id !== undefined, 'the created pet has no integer id', { exchange: post, expected: 'an integer id', actual: describeAnswer(post) })
      return id as bigint
    })
    const [first, second] = ids as [bigint, bigint]
    check.expect.that(first !== second, `two bodies that share only their name were answered with one pet, id ${first}: a name is no key of the interface`, {
      exchange: posts[1],
      expected: 'two distinct ids',
      actual: `${first} and ${second}`,
    })
    const reads = await Promise.all(ids.map((id) => readBack(check, id)))
    reads.forEach((read, index) => {
      const id = ids[index] as bigint
      check.expect.that(read.found, `GET /pets/${id} (one of two pets that share a name) did not answer 200 ${windowWords(read)}`, {
        exchange: read.exchange,
        expected: '200 with the pet',
        actual: describeAnswer(read.exchange),
      })
      expectAsSent(check, read.exchange, id, bodies[index] ?? {}, `pet ${id}, one of two that share their name, reads back differently from its own body`)
    })
    // Both in the list of their status, each as its own body: a list that keys its pets by name would show one.
    const list = await check.eventually(
      `GET /pets?status=pending&limit=100 showing pets ${first} and ${second}`,
      (api) => api.listPets({ status: 'pending', limit: 100 }),
      (exchange) => exchange.response?.status !== 200 || listedPets(exchange).length >= 100 || ids.every((id) => listedPets(exchange).some((pet) => pet.id === id)),
    )
    check.expect.status(list.exchange, 200, 'GET /pets?status=pending&limit=100')
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
