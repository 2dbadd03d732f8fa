/**
 * An id the client chose (policy §2, a client-sent id): "The client does not send `id`; the service
 * assigns it." A NewPet carrying an id is sent twice: with an id no pet holds, and with the id of a pet
 * this run created for the purpose (never someone else's: a faulty service could overwrite it).
 */
import { describeAnswer } from '../../lib/checks/assertions.js'
import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { windowWords } from '../../lib/data/eventual-reads.js'
import { integerField } from '../../lib/http/json.js'
import { responseObject } from '../../lib/http/response-json.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { categoryId, requireGetPetInService, requireServesValid } from '../fixtures.js'
import { expectAsSent, readBack } from './created-pets.js'

/** The id the answer names, when it is a JSON object with an integer id. */
function answeredId(exchange: OperationExchange): bigint | undefined {
  return integerField(responseObject(exchange)?.id)
}

/** An id no pet the survey saw holds, distinct per seed, far from where services usually count. */
async function unusedId(check: Check): Promise<bigint> {
  const survey = await check.survey()
  let id = 6_100_000_000_000_000_000n + BigInt(check.context.seed)
  while (survey.pets.has(id)) id += 1n
  return id
}

/** POST /pets with an id no pet holds; sent once per run, judged by the MUST and the SHOULD check. */
function sendWithUnusedId(check: Check) {
  return check.once('client-id:unused', async (api) => {
    const id = await unusedId(check)
    const body = { name: check.petName('client-id-unused'), categoryId: categoryId(check), status: 'available', id }
    return { id, body, post: await api.createPet({ json: body }) }
  })
}

/** A pet this run creates, then POST /pets carrying its id with other fields; sent once per run. */
function sendWithExistingId(check: Check) {
  return check.once('client-id:existing', async (api) => {
    const original = { name: check.petName('client-id-existing'), categoryId: categoryId(check), status: 'pending' }
    const created = await api.createPet({ json: original })
    const id = created.response?.status === 201 ? answeredId(created) : undefined
    if (id === undefined) return { created, original, id }
    const body = { name: check.petName('client-id-overwrite'), categoryId: categoryId(check) + 1n, status: 'sold', id }
    return { created, original, id, post: await api.createPet({ json: body }) }
  })
}

/** The existing pet's create and the create that carried its id, or inconclusive when the first create did not work. */
async function existingIdExchanges(check: Check) {
  const sent = await sendWithExistingId(check)
  check.adopt([sent.created])
  check.require(sent.id !== undefined && sent.post !== undefined, 'the pet whose id is to be sent could not be created (see createPet/returns-201-pet)')
  return { id: sent.id as bigint, original: sent.original, post: sent.post as OperationExchange }
}

/** The outcomes the policy allows for the POST itself: 201 with an id the service chose, or 400 with an Error body. */
function expectNotHonoured(check: Check, post: OperationExchange, sentId: bigint, what: string): void {
  check.adopt([post])
  check.expect.status(post, [201, 400], what)
  if (post.response?.status === 400) {
    check.expect.errorAnswer(post, 400, what)
    return
  }
  const id = answeredId(post)
  check.expect.that(id !== undefined, `${what} was answered 201 without an integer id`, { exchange: post, expected: 'a Pet with an id', actual: describeAnswer(post) })
  check.expect.that(id !== sentId, `${what} was answered 201 with the id the client sent (${sentId}): the service must assign ids itself`, {
    exchange: post,
    expected: `an id other than ${sentId}`,
    actual: `id ${id}`,
  })
}

describe('createPet: an id sent by the client is never honoured', () => {
  test('[createPet/client-id-not-honoured] a NewPet with an id no pet holds: 201 with an id the service chose, or 400; no pet appears under the sent id', async ({ check }) => {
    check.requireWrites()
    const { id, body, post } = await sendWithUnusedId(check)
    expectNotHonoured(check, post, id, `POST /pets with "id": ${id}`)
    requireGetPetInService(check)
    const underSentId = await check.api.getPet(id)
    const pet = underSentId.response?.status === 200 ? responseObject(underSentId) : undefined
    const stored = pet !== undefined && pet.name === body.name
    check.expect.that(!stored, `the pet sent with "id": ${id} was stored under that id: GET /pets/${id} returns it`, {
      exchange: underSentId,
      expected: `no pet named ${JSON.stringify(body.name)} under id ${id}`,
      actual: describeAnswer(underSentId),
    })
    if (post.response?.status !== 201) await requireServesValid(check, 'createPet')
  })

  test('[createPet/client-id-not-honoured] a NewPet with the id of an existing pet: 201 with another id, or 400; the existing pet is left unchanged', async ({ check }) => {
    check.requireWrites()
    requireGetPetInService(check)
    const { id, original, post } = await existingIdExchanges(check)
    expectNotHonoured(check, post, id, `POST /pets with the id of pet ${id}`)
    const read = await readBack(check, id)
    check.expect.that(read.found, `GET /pets/${id} did not answer 200 ${windowWords(read)}`, {
      exchange: read.exchange,
      expected: '200 with the pet',
      actual: describeAnswer(read.exchange),
    })
    expectAsSent(check, read.exchange, id, original, `pet ${id} changed after a create that carried its id`)
    if (post.response?.status !== 201) await requireServesValid(check, 'createPet')
  })

  test.for(['an id no pet holds', 'the id of an existing pet'])('[createPet/client-id-accepted] a NewPet that also carries %s is answered 201', async (which, { check }) => {
    check.requireWrites()
    const { post } = which === 'an id no pet holds' ? await sendWithUnusedId(check) : await existingIdExchanges(check)
    check.adopt([post])
    check.expect.status(post, 201, `POST /pets with ${which} in the body`)
  })
})
