import { describe, test } from '../../lib/checks/registry.js'

const PAGING_HEADERS = ['link', 'x-total-count', 'x-next-cursor', 'x-next', 'x-page', 'x-per-page', 'x-pagination']

describe('listPets: the list', () => {
  test('[listPets/returns-pets] GET /pets is answered 200 with a JSON array of pets', async ({ check }) => {
    const survey = await check.survey()
    check.expect.status(survey.defaultPage, 200, 'GET /pets')
    check.expect.petArray(survey.defaultPage)
  })

  test('[listPets/body-schema] the lists of the store survey are valid Pets bodies', async ({ check }) => {
    const survey = await check.survey()
    const lists = [survey.defaultPage, survey.limit100, ...Object.values(survey.byStatus)]
    for (const exchange of check.expect.successes(lists, 'listPets/returns-pets')) check.expect.matchesSchema(exchange, 'Pets')
  })

  test('[listPets/further-pages] paging headers of GET /pets are recorded', async ({ check }) => {
    const survey = await check.survey()
    const headers = survey.defaultPage.response?.headers ?? {}
    const paging = PAGING_HEADERS.filter((name) => headers[name] !== undefined).map((name) => `${name}: ${headers[name]}`)
    check.observe(paging.length > 0 ? `paging headers: ${paging.join('; ')}` : 'no paging headers (Link, X-Total-Count, …) on GET /pets')
  })
})
