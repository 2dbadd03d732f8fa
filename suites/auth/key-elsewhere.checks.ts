/**
 * The key in other places (policy §2): without a valid `Authorization: Bearer` header no request gets a 2xx
 * or any pet data, whatever else it carries and however its path is spelled. An auth layer that also reads
 * the key from a query string, or that guards `/pets` but not `/pets/`, serves pets to anyone. Read-only
 * probes, so the smoke profile sends them too.
 */
import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import type { ExchangeKind } from '../../lib/spec/petstore-api.js'
import { knownIds, requireGetPetInService, requireServesValid } from '../fixtures.js'

/** The right key, carried some other way than `Authorization: Bearer <key>`. */
interface KeyPlacement {
  label: string
  query?: (key: string) => string
  headers?: (key: string) => Record<string, string>
}

const KEY_PLACEMENTS: KeyPlacement[] = [
  { label: 'as the api_key query parameter', query: (key) => `api_key=${encodeURIComponent(key)}` },
  { label: 'as the access_token query parameter', query: (key) => `access_token=${encodeURIComponent(key)}` },
  { label: 'in a cookie (api_key and access_token)', headers: (key) => ({ cookie: `api_key=${key}; access_token=${key}` }) },
  { label: 'in an X-API-Key header', headers: (key) => ({ 'x-api-key': key }) },
  { label: 'as Authorization without a scheme', headers: (key) => ({ authorization: key }) },
  { label: 'as Basic credentials (the key as user name)', headers: (key) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` }) },
  { label: 'as Basic credentials (the key as password)', headers: (key) => ({ authorization: `Basic ${Buffer.from(`:${key}`).toString('base64')}` }) },
]

/** A path the spec names, as GET /pets or GET /pets/{id} of a pet the lists show (the one most worth guarding). */
interface Target {
  as: Extract<ExchangeKind, 'listPets' | 'getPet'>
  path: (check: Check) => Promise<string>
}

const TARGETS: Record<'GET /pets' | 'GET /pets/{id}', Target> = {
  'GET /pets': { as: 'listPets', path: async () => '/pets' },
  'GET /pets/{id}': { as: 'getPet', path: async (check) => `/pets/${await probedId(check)}` },
}

const PLACEMENT_ROWS = (Object.keys(TARGETS) as Array<keyof typeof TARGETS>).flatMap((target) => KEY_PLACEMENTS.map((placement) => ({ target, ...placement })))

/** Other spellings of the two paths; `{id}` is a pet the lists show. */
const PATH_SPELLINGS: Array<{ label: string; path: string }> = [
  { label: 'a trailing slash', path: '/pets/' },
  { label: 'a doubled slash', path: '//pets' },
  { label: 'a dot segment', path: '/./pets' },
  { label: 'a dot-dot segment', path: '/pets/../pets' },
  { label: 'a percent-encoded letter', path: '/%70ets' },
  { label: 'upper case', path: '/PETS' },
  { label: 'mixed case', path: '/Pets' },
  { label: 'a trailing slash after the id', path: '/pets/{id}/' },
  { label: 'a doubled slash before the id', path: '/pets//{id}' },
  { label: 'a percent-encoded letter and the id', path: '/%70ets/{id}' },
  { label: 'upper case and the id', path: '/PETS/{id}' },
]

/** A pet the lists show, so that a served probe would hand out real data; inconclusive when the store shows none. */
async function probedId(check: Check): Promise<bigint> {
  const [id] = knownIds(await check.survey(), 1)
  check.require(id !== undefined, 'no pet is known in the store, so a served GET /pets/{id} would show no data')
  return id as bigint
}

describe('auth: the key anywhere but the Bearer header', () => {
  test.for(PLACEMENT_ROWS)('[auth/key-elsewhere-refused] $target with the key $label and no Bearer header: no 2xx, no pet data', async (row, { check }) => {
    const target = TARGETS[row.target]
    if (target.as === 'getPet') requireGetPetInService(check)
    const key = check.context.apiKey
    const query = row.query ? `?${row.query(key)}` : ''
    const exchange = await check.api.probe({ as: target.as, path: `${await target.path(check)}${query}`, headers: row.headers?.(key) ?? {} })
    const what = `${row.target} with the key ${row.label}`
    check.requireAnswer(exchange, what)
    check.expect.refused(exchange, what)
    await requireServesValid(check, target.as)
  })
})

describe('auth: every spelling of a path needs the key', () => {
  test.for(PATH_SPELLINGS)('[auth/path-spelling-refused] GET $path ($label) without a key: no 2xx, no pet data', async (spelling, { check }) => {
    // Only the spellings with an id wait for the survey: the others need no data, and go out at once.
    const needsId = spelling.path.includes('{id}')
    if (needsId) requireGetPetInService(check)
    const path = needsId ? spelling.path.replace('{id}', String(await probedId(check))) : spelling.path
    const exchange = await check.api.probe({ as: 'probe', path, headers: {} })
    const what = `GET ${path} (${spelling.label}) without a key`
    check.requireAnswer(exchange, what)
    check.expect.refused(exchange, what)
    await requireServesValid(check, needsId ? 'getPet' : 'listPets')
  })
})
