/**
 * A status the service fills in (policy §2, views of one pet): a pet created without status may show any value of
 * the enum, or none, but the same one in every view, and it is in the list filtered by the status it shows. Every
 * full run creates one such pet, whatever the seed (the sequences create one only when they draw it), before its
 * other checks start.
 */
import { describeAnswer } from '../../lib/checks/assertions.js'
import { describe, test } from '../../lib/checks/registry.js'
import { windowWords } from '../../lib/data/eventual-reads.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { stringifyJson } from '../../lib/http/json.js'
import { isPetStatus } from '../../lib/spec/petstore-api.js'
import { createValid, NO_STATUS_CREATE, readBack } from '../createPet/created-pets.js'
import { categoryId, requireGetPetInService } from '../fixtures.js'

describe('views: a status the service fills in', () => {
  // First, before the run's other creates: on a store the seeding left with room in the lists, the run's own creates
  // fill the list of the status a service fills in within seconds, well inside the consistency window, and a pet that
  // list never shows would then be only "past its first page" (a Fastify red team's service passed so at every seed).
  test('[views/one-pet-reads-the-same] a pet created without status shows the same status in its 201, GET /pets/{id} and the list of that status', { first: true }, async ({
    check,
  }) => {
    requireGetPetInService(check)
    const { created, id } = await createValid(check, { label: 'no status', name: (c) => c.petName('no-status'), categoryId: categoryId }, NO_STATUS_CREATE)
    const shown = created.status
    const read = await readBack(check, id)
    check.expect.that(read.found, `GET /pets/${id} (created without status) did not answer 200 ${windowWords(read)}`, {
      exchange: read.exchange,
      expected: '200 with the pet',
      actual: describeAnswer(read.exchange),
    })
    const got = check.expect.petObject(read.exchange).status
    check.expect.that(
      stringifyJson(got ?? null) === stringifyJson(shown ?? null),
      `GET /pets/${id} shows status ${stringifyJson(got ?? null)} where its 201 showed ${stringifyJson(shown ?? null)}`,
      {
        exchange: read.exchange,
        expected: `status ${stringifyJson(shown ?? null)}, as the 201 showed`,
      },
    )
    if (!isPetStatus(shown)) return check.observe(`pet ${id}, created without status, shows none: no list filters it`)
    const list = await check.eventually(
      `GET /pets?status=${shown}&limit=100 showing pet ${id}`,
      (api) => api.listPets({ status: shown, limit: 100 }),
      (exchange) => exchange.response?.status !== 200 || listedPets(exchange).length >= 100 || listedPets(exchange).some((pet) => pet.id === id),
      check.api,
      { pets: [id] },
    )
    check.expect.answeredWith(list.exchange, 200, `GET /pets?status=${shown}&limit=100`, 'listPets/status-filter-matches')
    const listed = listedPets(list.exchange)
    const there = listed.some((pet) => pet.id === id)
    check.require(there || listed.length < 100, `the list of ${shown} holds 100 pets or more: pet ${id} may be past its first page`)
    check.expect.that(there, `pet ${id}, created without status and shown as ${shown}, is missing from GET /pets?status=${shown}&limit=100 ${windowWords(list)}`, {
      exchange: list.exchange,
      expected: `pet ${id} among the ${shown} pets`,
    })
  })
})
