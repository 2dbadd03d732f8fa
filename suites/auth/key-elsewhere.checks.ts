/**
 * The key in other places (policy §2): without a valid `Authorization: Bearer` header no request gets a 2xx
 * or any pet data, whatever else it carries and however its path is spelled. An auth layer that also reads
 * the key from a query string, or that guards `/pets` but not `/pets/`, serves pets to anyone. Read-only
 * probes, so the smoke profile sends them too.
 */
import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { type StoreSurvey, surveyLists } from '../../lib/data/store-survey.js'
import { urlencodedForm } from '../../lib/spec/form-bodies.js'
import { pathBelowBase, withHeader, withPathBelowBase, withQuery } from '../../lib/spec/operation-requests.js'
import type { Field, RequestModel } from '../../lib/spec/request-model.js'
import { categoryId, knownPetId, requireGetPetInService, requireServesValid } from '../fixtures.js'

/** The right key, carried some other way than `Authorization: Bearer <key>`. */
interface KeyPlacement {
  label: string
  query?: (key: string) => Field[]
  headers?: (key: string) => Record<string, string>
  /** Also send back every cookie a keyed answer of the survey set (a session a keyed request opened must not stand in for the key). */
  servedCookies?: true
  /** Form content (urlencoded) that carries it. */
  form?: (key: string) => Array<[string, string]>
}

/** The model with urlencoded form content holding the fields. */
function withForm(model: RequestModel, fields: ReadonlyArray<readonly [string, string]>): RequestModel {
  const form = urlencodedForm(fields)
  return { ...withHeader(model, 'Content-Type', form.contentType), body: { text: form.text } }
}

const KEY_PLACEMENTS: KeyPlacement[] = [
  { label: 'as the api_key query parameter', query: (key) => [{ name: 'api_key', value: encodeURIComponent(key) }] },
  { label: 'as the access_token query parameter', query: (key) => [{ name: 'access_token', value: encodeURIComponent(key) }] },
  {
    label: 'in a cookie (api_key and access_token, beside every cookie a keyed answer set)',
    headers: (key) => ({ cookie: `api_key=${key}; access_token=${key}` }),
    servedCookies: true,
  },
  { label: 'in an X-API-Key header', headers: (key) => ({ 'x-api-key': key }) },
  // One request for the fields other auth layers and gateways read: any of them honoured is a 2xx without the Bearer header.
  {
    label: 'in the fields other auth layers read (X-Auth-Token, X-Access-Token, Api-Key, Token, Proxy-Authorization: Bearer)',
    headers: (key) => ({ 'x-auth-token': key, 'x-access-token': key, 'api-key': key, token: key, 'proxy-authorization': `Bearer ${key}` }),
  },
  { label: 'as Authorization without a scheme', headers: (key) => ({ authorization: key }) },
  { label: 'as Basic credentials (the key as user name)', headers: (key) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }) },
  { label: 'as Basic credentials (the key as password)', headers: (key) => ({ authorization: `Basic ${Buffer.from(`:${key}`).toString('base64')}` }) },
  // RFC 6750 §2.2's form-encoded body parameter, which a Bearer strategy that reads a request's parameters takes on any method.
  { label: 'as an access_token field of form content (RFC 6750 §2.2)', form: (key) => [['access_token', key]] },
]

/** A path the spec names, as GET /pets or GET /pets/{id} of a pet the lists show (the one most worth guarding), without the key. */
const TARGETS: Record<'GET /pets' | 'GET /pets/{id}', (check: Check) => Promise<RequestModel>> = {
  'GET /pets': async (check) => check.api.request({ operation: 'listPets' }, null),
  'GET /pets/{id}': async (check) => check.api.request({ operation: 'getPet', id: await probedId(check) }, null),
}

/**
 * The right key carried in a create's own places (RFC 6750 §2.2 and §2.3 name the body and the query, which a Bearer
 * strategy such as passport-http-bearer reads): a member of the JSON body, a parameter of the POST's query.
 */
const CREATE_KEY_PLACEMENTS: Array<{ label: string; member?: string; query?: string; form?: true }> = [
  { label: 'as an access_token member of the JSON body', member: 'access_token' },
  { label: 'as an access_token field of a form body (RFC 6750 §2.2)', form: true },
  { label: 'as an api_key member of the JSON body', member: 'api_key' },
  { label: 'as the access_token query parameter of the POST', query: 'access_token' },
]

const PLACEMENT_ROWS = (Object.keys(TARGETS) as Array<keyof typeof TARGETS>).flatMap((target) => KEY_PLACEMENTS.map((placement) => ({ target, ...placement })))

/** Other spellings of the two paths, as the segments below the base URL; `{id}` is a pet the lists show. */
const PATH_SPELLINGS = [
  { label: 'a trailing slash', segments: ['pets', ''] },
  { label: 'a doubled slash', segments: ['', 'pets'] },
  { label: 'a dot segment', segments: ['.', 'pets'] },
  { label: 'a dot-dot segment', segments: ['pets', '..', 'pets'] },
  { label: 'a percent-encoded letter', segments: ['%70ets'] },
  { label: 'upper case', segments: ['PETS'] },
  { label: 'mixed case', segments: ['Pets'] },
  { label: 'a trailing slash after the id', segments: ['pets', '{id}', ''] },
  { label: 'a doubled slash before the id', segments: ['pets', '', '{id}'] },
  { label: 'a percent-encoded letter and the id', segments: ['%70ets', '{id}'] },
  { label: 'upper case and the id', segments: ['PETS', '{id}'] },
].map((spelling) => ({ ...spelling, path: `/${spelling.segments.join('/')}` }))

/**
 * The `name=value` of every cookie the survey's keyed answers set (RFC 6265 §4.1: the pair before the first `;`). The
 * client joins a field given twice with commas, so a pair is one that starts the value or follows a comma; an Expires
 * date's comma is followed by a day, not by a name and `=`.
 */
function cookiesSet(survey: StoreSurvey): string[] {
  const answers = surveyLists(survey)
  const pairs = answers.flatMap((exchange) =>
    [...(exchange.response?.headers['set-cookie'] ?? '').matchAll(/(?:^|,)\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+=[^;,]*)/g)].map((match) => match[1] as string),
  )
  return [...new Set(pairs)]
}

/** A pet the lists show, so that a served probe would hand out real data; inconclusive when the store shows none. */
const probedId = (check: Check) => knownPetId(check, 'a served GET /pets/{id} would show no data')

describe('auth: the key anywhere but the Bearer header', () => {
  test.for(PLACEMENT_ROWS)('[auth/key-elsewhere-refused] $target with the key $label and no Bearer header: no 2xx, no pet data', async (row, { check }) => {
    if (row.target === 'GET /pets/{id}') requireGetPetInService(check)
    const key = check.context.apiKey
    const withoutKey = await TARGETS[row.target](check)
    const queried = row.query ? withQuery(withoutKey, row.query(key)) : withoutKey
    const formed = row.form ? withForm(queried, row.form(key)) : queried
    const headers = row.headers?.(key) ?? {}
    if (row.servedCookies) headers.cookie = [headers.cookie, ...cookiesSet(await check.survey())].filter(Boolean).join('; ')
    const request = Object.entries(headers).reduce((model, [name, value]) => withHeader(model, name, value), formed)
    const exchange = await check.api.send(request)
    const what = `${row.target} with the key ${row.label}`
    check.requireAnswer(exchange, what)
    check.expect.refused(exchange, what)
    await requireServesValid(check, request.operation)
  })
})

describe('auth: the key anywhere in a create but the Bearer header', () => {
  test.for(CREATE_KEY_PLACEMENTS)('[auth/key-elsewhere-refused] POST /pets with the key $label and no Bearer header: no 2xx, no pet data', async (placement, { check }) => {
    check.requireWrites()
    const key = check.context.apiKey
    const pet = { name: check.petName('key-in-create'), categoryId: categoryId(check), status: 'sold', ...(placement.member ? { [placement.member]: key } : {}) }
    const withoutKey = check.api.request({ operation: 'createPet', body: { json: pet } }, null)
    const queried = placement.query ? withQuery(withoutKey, [{ name: placement.query, value: encodeURIComponent(key) }]) : withoutKey
    const fields = [
      ['access_token', key],
      ['name', pet.name],
      ['categoryId', String(pet.categoryId)],
      ['status', pet.status],
    ] as const
    const request = placement.form ? withForm(queried, fields) : queried
    const exchange = await check.api.send(request)
    const what = `POST /pets with the key ${placement.label}`
    check.requireAnswer(exchange, what)
    check.expect.refused(exchange, what)
    await requireServesValid(check, 'createPet')
  })
})

describe('auth: every spelling of a path needs the key', () => {
  test.for(PATH_SPELLINGS)('[auth/path-spelling-refused] GET $path ($label) without a key: no 2xx, no pet data', async (spelling, { check }) => {
    // Only the spellings with an id wait for the survey: the others need no data, and go out at once.
    const needsId = spelling.path.includes('{id}')
    if (needsId) requireGetPetInService(check)
    const id = needsId ? String(await probedId(check)) : ''
    const segments = spelling.segments.map((segment) => (segment === '{id}' ? id : segment))
    const request = withPathBelowBase(check.api.request({ operation: 'listPets' }, null), segments)
    const path = pathBelowBase(request)
    const exchange = await check.api.send(request, 'probe')
    const what = `GET ${path} (${spelling.label}) without a key`
    check.requireAnswer(exchange, what)
    check.expect.refused(exchange, what)
    await requireServesValid(check, needsId ? 'getPet' : 'listPets')
  })
})
