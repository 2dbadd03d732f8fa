import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { requireGetPetInService, unknownIdCandidates } from '../fixtures.js'

/** The error answers the spec's table lists, one per status. Every other 4xx of the run is checked too. */
const ERROR_CONDITIONS: Array<{ label: string; status: number; send: (check: Check) => Promise<OperationExchange> }> = [
  { label: '401 of GET /pets without a key', status: 401, send: (check) => check.shared('auth:missing:listPets', (api) => api.listPets({}, null)) },
  {
    label: '404 of GET /pets/{unknown id}',
    status: 404,
    send: async (check) => {
      requireGetPetInService(check)
      const [id] = unknownIdCandidates(await check.survey())
      return check.shared(`get:${id ?? 1n}`, (api) => api.getPet(id ?? 1n))
    },
  },
  {
    label: '400 of POST /pets with a body missing name',
    status: 400,
    send: (check) => {
      check.requireWrites()
      return check.shared('invalid:error-table', (api) => api.createPet({ json: { categoryId: 1, status: 'sold' } }))
    },
  },
]

describe('errors: the Error body', () => {
  test.for(ERROR_CONDITIONS)('[errors/body-schema] the $label has an Error body', async ({ status, send }, { check }) => {
    const exchange = await send(check)
    check.expect.status(exchange, status)
    check.expect.errorAnswer(exchange, status)
  })

  test.for(ERROR_CONDITIONS)('[errors/status-matches-http] the $label repeats its status in the body', async ({ status, send }, { check }) => {
    const exchange = await send(check)
    check.expect.status(exchange, status)
    check.expect.errorAnswer(exchange, status)
  })
})
