/**
 * Text that is not well-formed Unicode (policy §2): a name holding a lone surrogate escape. A service may refuse
 * it (400 with an Error body, nothing created) or store it; what it stores must read back the same in every view
 * and must not make a later read fail. Which it does is recorded. From the input catalogue's rows.
 */
import { describe, test } from '../../lib/checks/registry.js'
import { windowWords } from '../../lib/data/eventual-reads.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import { responseObject } from '../../lib/http/response-json.js'
import { inputClass } from '../../lib/spec/input-catalogue.js'
import { categoryId, requireGetPetInService } from '../fixtures.js'

const ILL_FORMED = inputClass('NewPet name', 'not the value').spellings

describe('createPet: a name that is not well-formed Unicode', () => {
  test.for(ILL_FORMED)('[createPet/ill-formed-text] a name holding $label is refused with 400, or read back the same in every view', async (spelling, { check }) => {
    check.requireWrites()
    const prefix = check.petName(`ill-formed-${ILL_FORMED.indexOf(spelling)}-`)
    const text = `{"name":"${spelling.spell(prefix)}","categoryId":${categoryId(check)},"status":"pending"}`
    const post = await check.api.createPet(spelling.octets ? { octets: text } : { raw: text })
    const what = `POST /pets with a name holding ${spelling.label}`
    const response = check.expect.status(post, [201, 400], what)
    check.observe(`${spelling.label}: answered ${response.status}`)
    const list = (found: (names: unknown[]) => boolean) =>
      check.eventually(
        `GET /pets?status=pending&limit=100 after ${what}`,
        (api) => api.listPets({ status: 'pending', limit: 100 }),
        (exchange) => {
          const pets = listedPets(exchange)
          return exchange.response?.status !== 200 || pets.length >= 100 || found(pets.map((pet) => pet.name))
        },
      )
    if (response.status === 400) {
      check.expect.errorAnswer(post, 400, what)
      const after = await check.api.listPets({ status: 'pending', limit: 100 })
      check.expect.answeredWith(after, 200, 'GET /pets?status=pending&limit=100 after the refused create', 'listPets/status-filter-matches')
      const stored = listedPets(after).filter((pet) => typeof pet.name === 'string' && pet.name.startsWith(prefix))
      check.expect.that(stored.length === 0, `${what} was answered 400, yet GET /pets?status=pending lists a pet of that name (id ${stored[0]?.id})`, {
        exchange: after,
        expected: 'nothing created',
      })
      return
    }
    const created = responseObject(post)
    const id = integerField(created?.id)
    check.expect.that(id !== undefined && typeof created?.name === 'string', `${what} was answered 201 without a pet id and name`, { exchange: post, expected: 'a Pet' })
    const name = created?.name as string
    requireGetPetInService(check)
    const read = await check.eventually(
      `GET /pets/${id}`,
      (api) => api.getPet(id as bigint),
      (exchange) => exchange.response?.status !== 404,
      check.api,
      { pets: [id as bigint] },
    )
    check.expect.status(read.exchange, 200, `GET /pets/${id}, a pet stored with ${spelling.label},`)
    const shown = responseObject(read.exchange)?.name
    check.expect.that(shown === name, `GET /pets/${id} shows the name otherwise than the 201 answer did`, {
      exchange: read.exchange,
      expected: stringifyJson(name),
      actual: stringifyJson(shown),
    })
    const listed = await list((names) => names.includes(name))
    check.expect.answeredWith(listed.exchange, 200, 'GET /pets?status=pending&limit=100, which lists a pet stored with ill-formed text,', 'listPets/status-filter-matches')
    const item = listedPets(listed.exchange).find((pet) => pet.id === id)
    if (item || listedPets(listed.exchange).length < 100) {
      check.expect.that(
        item?.name === name,
        item
          ? `GET /pets?status=pending&limit=100 shows pet ${id} otherwise than the 201 answer did`
          : `pet ${id}, created with status pending, is not in GET /pets?status=pending&limit=100 ${windowWords(listed)}`,
        {
          exchange: listed.exchange,
          expected: item ? stringifyJson(name) : `pet ${id} in the list`,
          actual: item ? stringifyJson(item.name) : '(not listed)',
        },
      )
    }
  })
})
