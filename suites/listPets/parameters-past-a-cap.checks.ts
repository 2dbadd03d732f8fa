/**
 * The limit and the filter after as many parameters the spec does not name as a query parser caps: parsers that read
 * only the first N parameters (nginx-lua's get_uri_args 100, Node's querystring and qs 1,000, PHP's max_input_vars
 * 1,000) drop the rest without a word, and the list then ignores what it was asked for.
 */
import { describe, test } from '../../lib/checks/registry.js'
import { withQuery } from '../../lib/spec/operation-requests.js'
import type { Field } from '../../lib/spec/request-model.js'
import { CLIENT_ERROR_OR_OK, requireServesValid } from '../fixtures.js'
import { busiestStatus } from './filtered-lists.js'

/** The caps of common query parsers: a request with this many parameters before `status` and `limit` puts them past the cap. */
const CAPS = [100, 1_000] as const

/** The limit asked for after them: small, so that the default page is longer. */
const LIMIT = 3

describe('listPets: parameters past a parser’s cap', () => {
  test.for(CAPS)(
    '[listPets/parameters-past-a-cap] %i parameters the spec does not name, then status=S&limit=3: at most 3 pets, all of S, or a 4xx with an Error body',
    async (cap, { check }) => {
      const survey = await check.survey()
      const { status, count } = busiestStatus(survey)
      const unnamed: Field[] = Array.from({ length: cap }, () => ({ name: 'x', value: '' }))
      const query = [...unnamed, { name: 'status', value: status }, { name: 'limit', value: String(LIMIT) }]
      const request = `GET /pets?x=&… (${cap} parameters)&status=${status}&limit=${LIMIT}`
      const exchange = await check.api.send(withQuery(check.api.request({ operation: 'listPets' }), query))
      const response = check.expect.status(exchange, CLIENT_ERROR_OR_OK, request)
      if (response.status >= 400) {
        check.expect.errorAnswer(exchange, response.status, request)
        // A refusal is evidence only from a target that serves a plain list.
        await requireServesValid(check, 'listPets')
        return
      }
      const pets = check.expect.petArray(exchange)
      const others = pets.filter((pet) => pet.status !== status).length
      check.expect.that(
        pets.length <= LIMIT && others === 0,
        `${request} listed ${pets.length} pets, ${others} not of status ${status}: the parameters after the ${cap} others were not read`,
        { exchange, expected: `at most ${LIMIT} pets, all of status ${status}`, actual: `${pets.length} pets, ${others} of another status` },
      )
      const otherKnown = [...survey.pets.values()].some((pet) => pet.status !== status)
      check.require(
        count > LIMIT && otherKnown,
        `the store is known to hold ${count} pets of status ${status}${otherKnown ? '' : ' and none of another'}: a list that ignores both would look the same`,
      )
    },
  )
})
