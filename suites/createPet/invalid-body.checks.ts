import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { isJsonObject, type JsonValue } from '../../lib/http/json.js'
import { requireServesValid } from '../fixtures.js'
import { EDGE_BODIES, INVALID_BODIES, type InvalidBody, type InvalidMarker } from './invalid-bodies.js'
import { refusedPetSearches } from './refused-pet-search.js'

const ALL_BODIES = [...INVALID_BODIES, ...EDGE_BODIES]

/** A category id no real pet is likely to have, distinct per rule, so a wrongly stored pet can be found. */
function markerOf(check: Check, rule: string): InvalidMarker {
  const index = ALL_BODIES.findIndex((body) => body.rule === rule)
  return { name: check.petName(`invalid-${index}`), categoryId: 7_770_000_000_000n + BigInt(check.context.seed) * 100n + BigInt(index) }
}

function send(check: Check, invalid: InvalidBody) {
  return check.shared(`invalid:${invalid.rule}`, (api) => api.createPet(invalid.body(check, markerOf(check, invalid.rule))))
}

/** Refused, and nothing stored from it: a 2xx answer means the pet was accepted; else the marker is looked for where the pet would show. */
async function expectNothingCreated(check: Check, invalid: InvalidBody): Promise<void> {
  const marker = markerOf(check, invalid.rule)
  const post = await send(check, invalid)
  check.expect.that(!(post.response && post.response.status < 300), `POST /pets (${invalid.rule}) was answered ${post.response?.status}: the pet was accepted`, {
    exchange: post,
    expected: '400 and nothing created',
    actual: `${post.response?.status}`,
  })
  if (invalid.findBy === undefined) return
  const body = invalid.body(check, marker)
  const sentStatus = 'json' in body && isJsonObject(body.json) ? body.json.status : undefined
  const search = await (await refusedPetSearches(check)).search(marker, invalid.findBy, sentStatus as JsonValue | undefined)
  check.adopt(search.exchanges)
  check.expect.that(search.found === undefined, `POST /pets (${invalid.rule}) was refused but pet ${search.found?.pet.id} was stored from it`, {
    ...(search.found ? { exchange: search.found.exchange } : {}),
    expected: 'no pet carrying the refused body’s marker',
    actual: `pet ${search.found?.pet.id}`,
  })
  check.require(search.decided, 'the list that would show the pet holds 100 pets or more, so it may be incomplete')
}

describe('createPet: an invalid NewPet', () => {
  test.for(INVALID_BODIES)('[createPet/invalid-body-400] $rule: answered exactly 400 with an Error body', async (invalid, { check }) => {
    check.requireWrites()
    const exchange = await send(check, invalid)
    check.expect.errorAnswer(exchange, 400, `POST /pets (${invalid.rule})`)
    await requireServesValid(check, 'createPet')
  })

  test.for(INVALID_BODIES.filter((invalid) => invalid.findBy !== undefined))('[createPet/invalid-body-not-created] $rule: no pet is created', async (invalid, { check }) => {
    check.requireWrites()
    await expectNothingCreated(check, invalid)
  })
})

/** Past the 1 MiB nginx takes by default (client_max_body_size 1m), whose own 413 page is HTML. */
const PAST_ONE_MIB = 1024 * 1024 + 64 * 1024

describe('createPet: the edges of the body space', () => {
  test('[createPet/invalid-body-400] an invalid NewPet padded past 1 MiB is answered 400, or 413 (a body over 64 KiB), with an Error body', async ({ check }) => {
    check.requireWrites()
    // Invalid (categoryId is no integer), so a service that reads it refuses it too: no pet of a megabyte's member is ever stored.
    // Written as text: the padding goes into the body as it is, where a JSON value of a megabyte's string was written and
    // read back member by member, over 100 ms of a run's CPU (JSON.stringify walks a string made by repeat() slowly).
    const padded = `{"name":${JSON.stringify(check.petName('past-1-mib-'))},"categoryId":"x","padding":"${'x'.repeat(PAST_ONE_MIB)}"}`
    const exchange = await check.api.createPet({ raw: padded })
    // A server may answer before it has read such a body and close the connection under the rest, which can lose the answer: then nothing is known.
    check.requireAnswer(exchange, 'POST /pets with an invalid NewPet padded past 1 MiB')
    check.expect.errorAnswer(exchange, [400, 413], `POST /pets with an invalid NewPet padded past 1 MiB, which an edge refuses by default`)
    // A refusal is evidence only from a target that creates a valid NewPet.
    await requireServesValid(check, 'createPet')
  })

  test.for(EDGE_BODIES)('[createPet/invalid-body-edges] $rule: answered exactly 400 with an Error body, and nothing created', async (invalid, { check }) => {
    check.requireWrites()
    const exchange = await send(check, invalid)
    check.expect.errorAnswer(exchange, 400, `POST /pets (${invalid.rule})`)
    await expectNothingCreated(check, invalid)
    await requireServesValid(check, 'createPet')
  })
})
