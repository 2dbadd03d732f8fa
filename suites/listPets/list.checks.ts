import { describe, test } from '../../lib/checks/registry.js'
import { surveyLists } from '../../lib/data/store-survey.js'
import { withQuery } from '../../lib/spec/operation-requests.js'
import { knownPetId, requireServesValid } from '../fixtures.js'

const PAGING_HEADERS = ['link', 'x-total-count', 'x-next-cursor', 'x-next', 'x-page', 'x-per-page', 'x-pagination']

describe('listPets: the list', () => {
  test('[listPets/returns-pets] GET /pets is answered 200 with a JSON array of pets', async ({ check }) => {
    const survey = await check.survey()
    check.expect.status(survey.defaultPage, 200, 'GET /pets')
    check.expect.petArray(survey.defaultPage)
  })

  test('[listPets/body-schema] the lists of the store survey are valid Pets bodies', async ({ check }) => {
    const survey = await check.survey()
    const lists = surveyLists(survey)
    for (const exchange of check.expect.successes(lists, 'listPets/returns-pets')) check.expect.matchesSchema(exchange, 'Pets')
  })

  test.for(['petId', 'id'])(
    '[listPets/body-schema] GET /pets with a pet’s id as the %s query parameter is a list (or refused): no parameter makes the list one pet',
    async (name, { check }) => {
      // CherryPy's dispatcher hands the query to the handler GET /pets/{petId} shares with the list: ?petId=2 answered pet 2, an object.
      const id = await knownPetId(check, 'a list turned into one pet would show nothing')
      const exchange = await check.api.send(withQuery(check.api.request({ operation: 'listPets' }), [{ name, value: String(id) }]))
      check.requireAnswer(exchange, `GET /pets?${name}=${id}`)
      const status = exchange.response?.status ?? 0
      if (status === 200) check.expect.matchesSchema(exchange, 'Pets')
      else {
        check.expect.that(status >= 400 && status < 500, `GET /pets?${name}=${id} was answered ${status}, neither a list nor a refusal`, {
          exchange,
          expected: '200 with a list, or a 4xx with an Error body',
        })
        await requireServesValid(check, 'listPets')
      }
    },
  )

  test('[listPets/further-pages] paging headers of GET /pets are recorded', async ({ check }) => {
    const survey = await check.survey()
    const headers = survey.defaultPage.response?.headers ?? {}
    const paging = PAGING_HEADERS.filter((name) => headers[name] !== undefined).map((name) => `${name}: ${headers[name]}`)
    check.observe(paging.length > 0 ? `paging headers: ${paging.join('; ')}` : 'no paging headers (Link, X-Total-Count, …) on GET /pets')
  })
})
