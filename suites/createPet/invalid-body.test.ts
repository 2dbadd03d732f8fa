import type { Check } from '../../lib/check.js'
import { describe, test } from '../../lib/check.js'
import { listedPets } from '../../lib/store-survey.js'
import { INVALID_BODIES, type InvalidBody, type InvalidMarker } from './invalid-bodies.js'

/** A category id no real pet is likely to have, distinct per rule, so a wrongly stored pet can be found. */
function markerOf(check: Check, rule: string): InvalidMarker {
  const index = INVALID_BODIES.findIndex((body) => body.rule === rule)
  return { name: check.petName(`invalid-${index}`), categoryId: 7_770_000_000_000n + BigInt(check.context.seed) * 100n + BigInt(index) }
}

function send(check: Check, invalid: InvalidBody) {
  return check.shared(`invalid:${invalid.rule}`, (api) => api.createPet(invalid.body(check, markerOf(check, invalid.rule))))
}

describe('createPet: an invalid NewPet', () => {
  test.for(INVALID_BODIES)('[createPet/invalid-body-400] $rule: answered exactly 400 with an Error body', async (invalid, { check }) => {
    check.requireWrites()
    const exchange = await send(check, invalid)
    check.expect.errorAnswer(exchange, 400, `POST /pets (${invalid.rule})`)
  })

  test.for(INVALID_BODIES.filter((invalid) => invalid.findBy !== undefined))('[createPet/invalid-body-not-created] $rule: no pet is created', async (invalid, { check }) => {
    check.requireWrites()
    const marker = markerOf(check, invalid.rule)
    const post = await send(check, invalid)
    check.expect.that(!(post.response && post.response.status < 300), `POST /pets (${invalid.rule}) was answered ${post.response?.status}: the pet was accepted`, {
      exchange: post,
      expected: '400 and nothing created',
      actual: `${post.response?.status}`,
    })
    const list = await check.api.listPets({ ...(invalid.listStatus ? { status: invalid.listStatus } : {}), limit: 100 })
    const pets = listedPets(list)
    const stored = pets.find((pet) => (invalid.findBy === 'name' ? pet.name === marker.name : pet.categoryId === marker.categoryId))
    check.expect.that(stored === undefined, `POST /pets (${invalid.rule}) was refused but pet ${stored?.id} was stored from it`, {
      exchange: list,
      expected: 'no pet carrying the refused body’s marker',
      actual: `pet ${stored?.id}`,
    })
    check.require(
      list.response?.status === 200 && pets.length < 100,
      `the list that would show the pet holds ${pets.length} pets (status ${list.response?.status}), so it may be incomplete`,
    )
  })
})
