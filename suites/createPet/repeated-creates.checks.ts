/**
 * POST is not idempotent (RFC 9110 §9.2.2; policy §2, repeated creates): the same NewPet body, byte for
 * byte, sent twice creates two pets. A service that deduplicates creates by their body, or protects against
 * double submits, answers the second POST with the first pet, and every other check, whose bodies all differ,
 * would never see it.
 */
import { describeAnswer } from '../../lib/checks/assertions.js'
import { describe, test } from '../../lib/checks/registry.js'
import { windowWords } from '../../lib/data/eventual-reads.js'
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
})
