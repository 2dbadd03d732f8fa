import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { BROWSER_ACCEPT } from '../../lib/spec/input-catalogue.js'
import { withHeader, withPathBelowBase } from '../../lib/spec/operation-requests.js'
import type { OperationExchange, PetstoreApi } from '../../lib/spec/petstore-api.js'
import type { RequestModel } from '../../lib/spec/request-model.js'
import { requireGetPetInService, unknownIdCandidates } from '../fixtures.js'

/**
 * One request per condition of the spec's error table, and the first two again with an Accept a browser sends (HTML
 * first, JSON admitted by `*\/*`) and with one that admits no JSON: the Error body in JSON to every Accept that admits
 * it, and to one that does not, a 406 with an Error body or the answer in JSON (policy §2b); without the key that
 * answer is the 401 (auth precedence). Every other 4xx of the run is judged too (the rules of every answer). Which status each request must get is the rule of its own requirement (auth/missing-key-401,
 * getPet/unknown-id-404, createPet/invalid-body-400): these judge only the Error body of the answer, whatever
 * 4xx it is, so one answer is never charged twice, and never to a rule it keeps.
 */
const ERROR_CONDITIONS: Array<{ label: string; judgedBy: string; send: (check: Check) => Promise<OperationExchange> }> = [
  { label: 'GET /pets without a key', judgedBy: 'auth/missing-key-401', send: (check) => check.shared('auth:missing:listPets', (api) => api.listPets({}, null)) },
  {
    label: 'GET /pets/{unknown id}',
    judgedBy: 'getPet/unknown-id-404',
    send: async (check) => {
      requireGetPetInService(check)
      const [id] = unknownIdCandidates(await check.survey())
      return check.shared(`get:${id ?? 1n}`, (api) => api.getPet(id ?? 1n))
    },
  },
  {
    label: `GET /pets without a key, with a browser's Accept (${BROWSER_ACCEPT})`,
    judgedBy: 'auth/missing-key-401',
    send: (check) => check.shared('auth:missing:listPets:browser-accept', (api) => api.send(withHeader(api.request({ operation: 'listPets' }, null), 'Accept', BROWSER_ACCEPT))),
  },
  {
    label: 'GET /pets without a key, with Accept: text/html',
    judgedBy: 'auth/missing-key-401',
    send: (check) => check.shared('auth:missing:listPets:html-accept', (api) => api.send(withHeader(api.request({ operation: 'listPets' }, null), 'Accept', 'text/html'))),
  },
  {
    label: `GET /pets/{unknown id} with a browser's Accept (${BROWSER_ACCEPT})`,
    judgedBy: 'getPet/unknown-id-404',
    send: async (check) => {
      requireGetPetInService(check)
      const [id] = unknownIdCandidates(await check.survey())
      return check.shared(`get:${id ?? 1n}:browser-accept`, (api) => api.send(withHeader(api.request({ operation: 'getPet', id: id ?? 1n }), 'Accept', BROWSER_ACCEPT)))
    },
  },
  {
    label: 'POST /pets with a body missing name',
    judgedBy: 'createPet/invalid-body-400',
    send: (check) => {
      check.requireWrites()
      return check.shared('invalid:error-table', (api) => api.createPet({ json: { categoryId: 1, status: 'sold' } }))
    },
  },
]

/**
 * The service's routing, with the key and an Accept a browser sends (JSON admitted only by `*\/*`): a method the route
 * does not have, and a path below the base the spec does not name. Frameworks render their router's 404 and 405 in
 * HTML unless the request asks for JSON by name (Laravel's `expectsJson()`), and the neighbourhood edits the method or
 * the path of a request that asks for `application/json`, one part at a time, so it never meets that. The policy owes
 * the Error body in JSON to every Accept that admits JSON, and never a 5xx (§2b). A 400 or 501 to a method is the HTTP
 * layer's own words (RFC 9110 §9.1: a parser that does not know it), which no rule of the Error body judges.
 */
const ROUTING_PROBES: Array<{ label: string; model: (api: PetstoreApi) => RequestModel; ownWords: readonly number[] }> = [
  {
    label: "PROPFIND /pets with the key and a browser's Accept",
    model: (api) => ({ ...withHeader(api.request({ operation: 'listPets' }), 'Accept', BROWSER_ACCEPT), method: 'PROPFIND' }),
    ownWords: [400, 501],
  },
  {
    label: "GET /owners (a path the spec does not name) with the key and a browser's Accept",
    model: (api) => withPathBelowBase(withHeader(api.request({ operation: 'listPets' }), 'Accept', BROWSER_ACCEPT), ['owners']),
    ownWords: [],
  },
]

function routingProbe(check: Check, probe: (typeof ROUTING_PROBES)[number]): Promise<OperationExchange> {
  return check.shared(`routing:${probe.label}`, (api) => api.send(probe.model(api), 'probe'))
}

/** The answer, when it is a 4xx: an Error body is owed only by an error answer; any other status is judged by `judgedBy`. */
async function clientError(check: Check, condition: (typeof ERROR_CONDITIONS)[number]): Promise<OperationExchange> {
  const exchange = await condition.send(check)
  check.requireAnswer(exchange, condition.label)
  const status = exchange.response?.status ?? 0
  check.require(status >= 400 && status < 500, `${condition.label} was answered ${status}, not a 4xx: its status is judged by ${condition.judgedBy}`)
  return exchange
}

describe('errors: the Error body', () => {
  test.for(ERROR_CONDITIONS)('[errors/body-schema] the 4xx answer to $label has an Error body', async (condition, { check }) => {
    const exchange = await clientError(check, condition)
    check.expect.errorBody(exchange, `the ${exchange.response?.status} answer to ${condition.label}`)
  })

  test.for(ERROR_CONDITIONS)('[errors/status-matches-http] the 4xx answer to $label repeats its status in the body', async (condition, { check }) => {
    const exchange = await clientError(check, condition)
    const what = `the ${exchange.response?.status} answer to ${condition.label}`
    check.require(check.expect.errorStatusField(exchange) !== undefined, `${what} has no numeric status field: its body is judged by errors/body-schema`)
    check.expect.errorStatusRepeated(exchange, what)
  })
})

describe("errors: the service's routing answers in JSON to every Accept that admits it", () => {
  test.for(ROUTING_PROBES)('[errors/body-schema] the 4xx answer to $label has an Error body', async (probe, { check }) => {
    const exchange = await routingProbe(check, probe)
    check.requireAnswer(exchange, probe.label)
    const status = exchange.response?.status ?? 0
    check.require(status >= 400 && status < 500, `${probe.label} was answered ${status}, not a 4xx`)
    check.require(!probe.ownWords.includes(status), `${probe.label} was answered ${status}, which an HTTP layer may give in its own words`)
    check.expect.errorBody(exchange, `the ${status} answer to ${probe.label}`)
  })

  test.for(ROUTING_PROBES)('[responses/no-server-error] $label is never answered 5xx', async (probe, { check }) => {
    const exchange = await routingProbe(check, probe)
    check.requireAnswer(exchange, probe.label)
    const status = exchange.response?.status ?? 0
    check.expect.that(status < 500 || (probe.ownWords.includes(501) && status === 501), `${probe.label} was answered ${status}`, {
      exchange,
      expected: 'an answer that is no 5xx',
      actual: `${status}`,
    })
  })
})
