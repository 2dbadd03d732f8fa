import { mediaType } from '../../lib/checks/assertions.js'
import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import type { RecordedResponse } from '../../lib/http/traffic.js'
import { type Authorization, withPathBelowBase, withQuery } from '../../lib/spec/operation-requests.js'
import type { Field } from '../../lib/spec/request-model.js'
import { categoryId, requireGetPetInService, unknownIdCandidates } from '../fixtures.js'
import { WRONG_KEY, withWrongKey } from './operations.js'

/**
 * Query parameters a framework reads itself, before the service's own code: the format of the answer (Django REST
 * framework answers an unknown one 404 and `api` with its HTML browsable API; Rails routes a format), a JSONP callback
 * (the answer wrapped as JavaScript), a method override. The spec names none of them.
 */
const FRAMEWORK_PARAMETERS: Array<Field & { reads: string }> = [
  { name: 'format', value: 'xyz', reads: 'an answer format the framework does not know' },
  { name: 'format', value: 'api', reads: "Django REST framework's browsable API" },
  { name: 'callback', value: 'cb', reads: 'a JSONP callback' },
  { name: '_method', value: 'POST', reads: 'a method override' },
]

const WITHOUT_VALID_KEY: Array<{ label: string; authorization: Authorization }> = [
  { label: 'no key', authorization: null },
  { label: 'a wrong key', authorization: WRONG_KEY },
]

describe('auth: 401 comes before every other answer', () => {
  test.for(WITHOUT_VALID_KEY)('[auth/401-before-404] GET /pets/{unknown id} with $label is answered 401, not 404', async ({ authorization }, { check }) => {
    requireGetPetInService(check)
    const [id] = unknownIdCandidates(await check.survey())
    check.expect.status(await check.api.getPet(id ?? 1n, authorization), 401, 'GET /pets/{unknown id}')
  })

  test.for(WITHOUT_VALID_KEY)('[auth/401-before-400] GET /pets?limit=0 with $label is answered 401, not 400', async ({ authorization }, { check }) => {
    check.expect.status(await check.api.listPets({ limit: 0 }, authorization), 401, 'GET /pets?limit=0')
  })

  test.for(WITHOUT_VALID_KEY)('[auth/401-before-400] GET /pets/abc with $label is answered 401, not 400', async ({ authorization }, { check }) => {
    requireGetPetInService(check)
    check.expect.status(await check.api.getPet('abc', authorization), 401, 'GET /pets/abc')
  })

  // A router that percent-decodes the path before auth refuses an escape of no UTF-8 (hapi: 400 Bad Request) unless the key is checked first.
  test.for(WITHOUT_VALID_KEY)(
    '[auth/401-before-400] GET /pets/%FF1 (an escape of an octet no UTF-8 text holds) with $label is answered 401, not 400',
    async ({ authorization }, { check }) => {
      requireGetPetInService(check)
      // The escape as written: an id given to the model is encoded as text (`%25FF1`).
      const request = withPathBelowBase(check.api.request({ operation: 'getPet', id: 1n }, authorization), ['pets', '%FF1'])
      check.expect.status(await check.api.send(request), 401, 'GET /pets/%FF1')
    },
  )

  // A framework's own refusal of a long path parameter (Fastify's maxParamLength: 100) comes before its auth hook unless the service checks the key first.
  test.for(WITHOUT_VALID_KEY)('[auth/401-before-400] GET /pets/{an id of 200 digits} with $label is answered 401, not 400, 404 or 414', async ({ authorization }, { check }) => {
    requireGetPetInService(check)
    check.expect.status(await check.api.getPet('9'.repeat(200), authorization), 401, 'GET /pets/{an id of 200 digits}')
  })

  test.for(WITHOUT_VALID_KEY)('[auth/401-before-400] POST /pets with malformed JSON and $label is answered 401, not 400', async ({ authorization }, { check }) => {
    check.requireWrites()
    const exchange = await check.api.createPet({ raw: '{"name": "a", "categoryId": ' }, authorization)
    check.expect.status(exchange, 401, 'POST /pets (malformed JSON)')
  })

  test.for(WITHOUT_VALID_KEY)('[auth/401-before-400] POST /pets with bytes that are not UTF-8 and $label is answered 401, not 400', async ({ authorization }, { check }) => {
    check.requireWrites()
    const exchange = await check.api.createPet({ octets: `{"name":"${check.petName('not-utf8-no-key')}\u00ff","categoryId":${categoryId(check)}}` }, authorization)
    check.expect.status(exchange, 401, 'POST /pets (bytes that are not UTF-8)')
  })

  test.for(WITHOUT_VALID_KEY)('[auth/401-before-400] POST /pets labelled text/plain and $label is answered 401, not 415 or 400', async ({ authorization }, { check }) => {
    check.requireWrites()
    const exchange = await check.api.createPet({ json: { name: check.petName('text-plain-no-key'), categoryId: categoryId(check) } }, authorization, 'text/plain')
    check.expect.status(exchange, 401, 'POST /pets (labelled text/plain)')
  })

  // An HTTP layer that parses a multipart body before any of the service's code (Twisted) refuses a label without its boundary unless the key is read first.
  test.for(WITHOUT_VALID_KEY)(
    '[auth/401-before-400] POST /pets labelled multipart/form-data without its boundary and $label is answered 401, not 415 or 400',
    async ({ authorization }, { check }) => {
      check.requireWrites()
      const json = { name: check.petName('multipart-no-boundary-no-key'), categoryId: categoryId(check) }
      const exchange = await check.api.createPet({ json }, authorization, 'multipart/form-data')
      check.expect.status(exchange, 401, 'POST /pets (labelled multipart/form-data without its boundary)')
    },
  )

  test.for(WITHOUT_VALID_KEY)('[auth/401-before-400] POST /pets with an invalid body and $label is answered 401, not 400', async ({ authorization }, { check }) => {
    check.requireWrites()
    const exchange = await check.api.createPet({ json: { name: 42, categoryId: categoryId(check) } }, authorization)
    check.expect.status(exchange, 401, 'POST /pets (invalid body)')
  })

  test.for(FRAMEWORK_PARAMETERS)('[auth/401-before-400] GET /pets?$name=$value without a key is answered 401 ($reads)', async (parameter, { check }) => {
    const exchange = await check.api.send(withQuery(check.api.request({ operation: 'listPets' }, null), [parameter]))
    check.expect.status(exchange, 401, `GET /pets?${parameter.name}=${parameter.value} without a key`)
  })
})

describe('responses: a parameter a framework reads is no reason for another media type', () => {
  test.for(FRAMEWORK_PARAMETERS)(
    '[responses/json-content-type] GET /pets?$name=$value with the key is answered in JSON, whatever its status ($reads)',
    async (parameter, { check }) => {
      const exchange = await check.api.send(withQuery(check.api.request({ operation: 'listPets' }), [parameter]))
      const what = `GET /pets?${parameter.name}=${parameter.value}`
      check.requireAnswer(exchange, what)
      const response = exchange.response as RecordedResponse
      // The status is the list rules' (a 4xx with an Error body refuses a parameter the spec does not name): the label is judged here.
      check.require(
        response.status >= 200 && response.status < 500 && response.status !== 429 && !(response.status >= 300 && response.status < 400),
        `${what} was answered ${response.status}`,
      )
      check.expect.that(mediaType(response) === 'application/json', `${what} was answered ${response.status} with Content-Type ${response.headers['content-type'] ?? '(absent)'}`, {
        exchange,
        expected: 'application/json',
        actual: response.headers['content-type'] ?? '(absent)',
      })
    },
  )
})

/** An acceptance of another spelling of the key is evidence only from a target that refuses a wrong key: one that serves any token serves this spelling too. */
async function requireWrongKeyRefused(check: Check, spelling: string): Promise<void> {
  const wrong = await withWrongKey(check, 'listPets')
  check.requireAnswer(wrong, 'GET /pets with a wrong key')
  const status = wrong.response?.status ?? 0
  check.require(
    status < 200 || status >= 300,
    `GET /pets with a wrong key was answered ${status}: a target that serves a wrong key would accept ${spelling} whatever it makes of it`,
  )
}

/**
 * The default page with the key as the spec writes it, from the survey: another spelling's 200 to the same list shows
 * the key accepted only where that list is served (a service that refuses the list's query for its own reasons answers
 * every spelling of the key so, which says nothing of the key).
 */
async function requirePlainListServed(check: Check): Promise<void> {
  const { defaultPage } = await check.survey()
  const status = defaultPage.response?.status
  check.require(status === 200, `GET /pets with the key as the spec writes it was answered ${status ?? 'nothing'}: another spelling's answer to it cannot show the key accepted`)
}

describe('auth: the scheme name and the spaces after it', () => {
  test.for(['bearer', 'BEARER', 'BeArEr'])('[auth/scheme-case-insensitive] "%s <key>" is accepted', async (scheme, { check }) => {
    await requirePlainListServed(check)
    const exchange = await check.api.listPets({}, (key) => `${scheme} ${key}`)
    check.expect.status(exchange, 200, `GET /pets with "${scheme} <key>"`)
    await requireWrongKeyRefused(check, `"${scheme} <key>"`)
  })

  test.for([2, 3])('[auth/bearer-spacing] "Bearer", %i spaces and the key is accepted', async (spaces, { check }) => {
    await requirePlainListServed(check)
    const exchange = await check.api.listPets({}, (key) => `Bearer${' '.repeat(spaces)}${key}`)
    check.expect.status(exchange, 200, `GET /pets with "Bearer", ${spaces} spaces and the key`)
    await requireWrongKeyRefused(check, `"Bearer", ${spaces} spaces and the key`)
  })
})
