/** Faults of GET /pets: limits, the status filter, the shape of the list. */
import { JsonNumber } from '../../lib/http/json.js'
import { isPetStatus } from '../../lib/spec/petstore-api.js'
import { errorResponse, json, petBody } from '../../reference/handler.js'
import type { ServiceRequest } from '../../reference/http-types.js'
import { PetStore } from '../../reference/pet-store.js'
import { refusedAfterAuth } from '../allowances/list-pets.js'
import { isListPets, isValidLimit, mapAnswers, mapJsonBody, rewritePets, type Variant, type VariantContext, withoutParameter } from '../variant.js'

/** A list answered from the store directly, bypassing the reference's limit handling (auth still checked by the reference first). */
function listWith(request: ServiceRequest, { store }: VariantContext, limit: number) {
  const status = request.query.get('status')
  return json(200, store.list({ limit, ...(isPetStatus(status) ? { status } : {}) }).map(petBody))
}

/** Only for an authenticated, otherwise valid list request: the reference answers everything else. */
function overridesValidList(override: (request: ServiceRequest, context: VariantContext, limit: number) => ReturnType<typeof json> | undefined): Variant['wrap'] {
  return (reference, context) => async (request) => {
    const answer = await reference(request)
    if (!isListPets(request) || answer.status !== 200) return answer
    const limitText = request.query.get('limit')
    return override(request, context, limitText === null ? 20 : Number(limitText)) ?? answer
  }
}

export const listPetsFaults: Variant[] = [
  {
    name: 'default-limit-25',
    description: 'GET /pets without limit returns up to 25 pets (shows only with more than 20 pets)',
    catches: ['listPets/limit-default-20'],
    wrap: overridesValidList((request, context) => (request.query.has('limit') ? undefined : listWith(request, context, 25))),
  },
  {
    name: 'limit-1-refused',
    description: 'limit=1 is refused with 400 and an Error body, as a validator written with an exclusive minimum of 1 refuses it',
    catches: ['listPets/limit-caps-size'],
    wrap: refusedAfterAuth(400, 'invalid_limit', (request) => isListPets(request) && request.query.get('limit') === '1'),
  },
  {
    name: 'limit-100-refused',
    description:
      'limit=100 is refused with 400 and an Error body, as a validator written with an exclusive maximum of 100 refuses it; the rules of creates, whose pets are looked for in lists of 100, are not charged with it',
    catches: ['listPets/limit-max-100', 'listPets/limit-caps-size', 'listPets/status-filter-matches', 'listPets/filter-and-limit', 'listPets/returns-pets'],
    onlyCatches: true,
    wrap: refusedAfterAuth(400, 'invalid_limit', (request) => isListPets(request) && request.query.get('limit') === '100'),
  },
  {
    name: 'empty-limit-lists-everything',
    description:
      'an empty limit (`limit=`) is read as no limit at all, as a cap guarded by `if (limit)` reads it: every pet is listed (shows only on a list of more than 100 pets, so not under a filter of a fresh store)',
    catches: ['listPets/limit-out-of-range'],
    wrap: (reference, context) => async (request) => {
      if (!isListPets(request) || request.query.get('limit') !== '') return reference(request)
      const answer = await reference(withoutParameter(request, 'limit'))
      return answer.status === 200 ? listWith(request, context, Number.POSITIVE_INFINITY) : answer
    },
  },
  {
    name: 'limit-off-by-one',
    description: 'limit=N returns N+1 pets',
    catches: ['listPets/limit-caps-size', 'listPets/limit-max-100'],
    wrap: overridesValidList((request, context, limit) => (request.query.has('limit') ? listWith(request, context, limit + 1) : undefined)),
  },
  {
    name: 'limit-100-unbounded',
    description: 'limit=100 returns every pet (shows only with more than 100 pets)',
    catches: ['listPets/limit-max-100'],
    wrap: overridesValidList((request, context, limit) => (limit === 100 ? listWith(request, context, Number.POSITIVE_INFINITY) : undefined)),
  },
  {
    name: 'default-page-of-10',
    description: 'GET /pets without limit returns only 10 pets although the store holds more',
    catches: ['listPets/limit-fills-page'],
    wrap: overridesValidList((request, context) => (request.query.has('limit') ? undefined : listWith(request, context, 10))),
  },
  {
    name: 'page-short-by-one',
    description: 'limit=N returns N-1 pets although the store holds more',
    catches: ['listPets/limit-fills-page'],
    wrap: overridesValidList((request, context, limit) => (request.query.has('limit') ? listWith(request, context, limit - 1) : undefined)),
  },
  {
    name: 'limit-above-ten-ignored',
    description: 'a limit above 10 is ignored and the default page of 20 served: limits 11 to 19 get more pets than asked; 1, 2, 50 and 99 look right',
    catches: ['listPets/limit-caps-size'],
    wrap: (reference) => async (request) => {
      if (!isListPets(request)) return reference(request)
      const limit = Number(request.query.get('limit'))
      return reference(limit > 10 && limit <= 100 ? withoutParameter(request, 'limit') : request)
    },
  },
  {
    name: 'limit-101-accepted',
    description: 'limit=101 is answered 200 with 101 pets (shows only with more than 100 pets)',
    catches: ['listPets/limit-out-of-range'],
    wrap: (reference, context) => async (request) => {
      const answer = await reference(request)
      // The reference's 400 means the key was valid: only the range check is skipped.
      return isListPets(request) && answer.status === 400 && request.query.get('limit') === '101' ? listWith(request, context, 101) : answer
    },
  },
  {
    name: 'infinite-limit-uncapped',
    description:
      "the limit is coerced to a double and its range checked only when finite, as ajv's coerced minimum and maximum are in a Fastify route: limit=1e999 or Infinity lists every pet (shows only with more than 100 pets)",
    catches: ['listPets/limit-out-of-range'],
    wrap: (reference, context) => async (request) => {
      const answer = await reference(request)
      const read = Number(request.query.get('limit') ?? '')
      return isListPets(request) && answer.status === 400 && read === Number.POSITIVE_INFINITY ? listWith(request, context, read) : answer
    },
  },
  {
    name: 'query-cut-after-100-parameters',
    description:
      "the query is read with nginx-lua's ngx.req.get_uri_args(), which keeps the first 100 parameters and drops the rest without a word: status and limit after 100 others are not read, and the default page of every status comes back",
    catches: ['listPets/parameters-past-a-cap'],
    wrap: (reference) => async (request) => (isListPets(request) ? reference({ ...request, query: new URLSearchParams([...request.query].slice(0, 100)) }) : reference(request)),
  },
  {
    name: 'invalid-limit-500',
    description: 'limit=0 makes GET /pets fail with 500',
    catches: ['listPets/limit-out-of-range', 'responses/no-server-error'],
    wrap: mapAnswers((answer, request) =>
      isListPets(request) && answer.status === 400 && request.query.get('limit') === '0' ? errorResponse(500, 'internal', 'division by zero') : answer,
    ),
  },
  {
    name: 'invalid-limit-plain-text-422',
    description: 'an out-of-range limit is answered 422 with a plain-text body instead of an Error',
    catches: ['listPets/limit-out-of-range'],
    wrap: mapAnswers((answer, request) =>
      isListPets(request) && answer.status === 400 && request.query.has('limit')
        ? { status: 422, headers: { 'content-type': 'text/plain' }, body: 'limit must be between 1 and 100' }
        : answer,
    ),
  },
  {
    name: 'invalid-limit-ignored',
    description: 'an out-of-range or non-integer limit is ignored and the default page returned (200)',
    catches: ['listPets/limit-out-of-range-400'],
    wrap: (reference) => async (request) => {
      const limit = request.query.get('limit')
      return reference(isListPets(request) && limit !== null && !isValidLimit(limit) ? withoutParameter(request, 'limit') : request)
    },
  },
  {
    name: 'status-filter-ignored',
    description: 'GET /pets ignores the status filter',
    catches: ['listPets/status-filter-matches'],
    wrap: (reference) => async (request) => reference(isListPets(request) && isPetStatus(request.query.get('status')) ? withoutParameter(request, 'status') : request),
  },
  {
    name: 'status-filter-misses-newest',
    description: 'a status list leaves out the most recently created pet of that status',
    catches: ['listPets/status-filter-complete', 'createPet/created-pet-listed'],
    wrap: overridesValidList((request, { store }, limit) => {
      const status = request.query.get('status')
      if (!isPetStatus(status)) return undefined
      const all = store.list({ status, limit: Number.POSITIVE_INFINITY })
      return json(200, all.slice(0, -1).slice(0, limit).map(petBody))
    }),
  },
  {
    name: 'invalid-status-500',
    description: 'a status filter outside the enum makes GET /pets fail with 500',
    catches: ['listPets/status-invalid', 'responses/no-server-error'],
    wrap: mapAnswers((answer, request) => (isListPets(request) && answer.status === 400 && request.query.has('status') ? errorResponse(500, 'internal', 'bad enum') : answer)),
  },
  {
    name: 'invalid-status-lists-everything',
    description: 'a status filter outside the enum is ignored and the unfiltered list returned (200)',
    catches: ['listPets/status-invalid-400'],
    wrap: (reference) => async (request) => {
      const status = request.query.get('status')
      return reference(isListPets(request) && status !== null && !isPetStatus(status) ? withoutParameter(request, 'status') : request)
    },
  },
  {
    name: 'status-stripped-before-filtering',
    description:
      "the status is read as Tornado's get_query_argument reads a value: control octets made spaces, then Unicode whitespace stripped, so status=sold%09 or %E3%80%80sold lists the sold pets",
    catches: ['listPets/status-spelled-otherwise'],
    wrap: (reference) => async (request) => {
      const status = request.query.get('status')
      if (!isListPets(request) || status === null) return reference(request)
      const query = new URLSearchParams(request.query)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are the point: Tornado makes them spaces
      query.set('status', status.replace(/[\x00-\x08\x0e-\x1f]/g, ' ').trim())
      return reference({ ...request, query })
    },
  },
  {
    name: 'status-matched-in-any-case',
    description: 'the status filter compares without case (a case-insensitive enum converter): status=SOLD lists the sold pets',
    catches: ['listPets/status-spelled-otherwise'],
    wrap: (reference) => async (request) => {
      const status = request.query.get('status')
      if (!isListPets(request) || status === null) return reference(request)
      const query = new URLSearchParams(request.query)
      query.set('status', status.toLowerCase())
      return reference({ ...request, query })
    },
  },
  {
    name: 'list-wrapped-in-object',
    description: 'GET /pets answers {"pets": [...]} instead of a bare array',
    catches: ['listPets/returns-pets', 'listPets/body-schema'],
    wrap: mapAnswers((answer, request) => (isListPets(request) && answer.status === 200 ? mapJsonBody(answer, (body) => ({ pets: body })) : answer)),
  },
  {
    name: 'list-ids-as-strings',
    description: 'GET /pets writes each id as a JSON string',
    catches: ['listPets/body-schema'],
    wrap: rewritePets(isListPets, 200, (pet) => (pet.id instanceof JsonNumber ? { ...pet, id: pet.id.text } : pet)),
  },
  {
    name: 'list-rounds-large-ids',
    description: 'GET /pets goes through JSON.parse, so ids above 2^53 come out rounded (the store assigns ids from 2^60)',
    catches: ['getPet/returns-pet', 'createPet/created-pet-listed', 'listPets/status-filter-complete'],
    store: () => new PetStore(2n ** 60n + 1n),
    wrap: mapAnswers((answer, request) => (isListPets(request) && answer.status === 200 ? { ...answer, body: JSON.stringify(JSON.parse(answer.body)) } : answer)),
  },
  {
    name: 'filter-forgets-default-limit',
    description: 'status=S without limit returns up to 100 pets of S: the filter path forgets the default page of 20',
    catches: ['listPets/filter-and-default-limit'],
    wrap: overridesValidList((request, context) => (request.query.has('status') && !request.query.has('limit') ? listWith(request, context, 100) : undefined)),
  },
  {
    name: 'filter-ignores-limit',
    description: 'with a status filter, limit is ignored and up to 100 pets of S come back',
    catches: ['listPets/filter-and-limit'],
    wrap: overridesValidList((request, context) => (request.query.has('status') && request.query.has('limit') ? listWith(request, context, 100) : undefined)),
  },
  {
    name: 'limit-drops-filter',
    description: 'with limit given, the status filter is dropped',
    catches: ['listPets/status-filter-matches'],
    wrap: (reference) => async (request) => (isListPets(request) && request.query.has('limit') ? reference(withoutParameter(request, 'status')) : reference(request)),
  },
  {
    name: 'filter-needs-limit',
    description: 'the status filter is applied only when a limit is given too',
    catches: ['listPets/status-filter-matches'],
    wrap: (reference) => async (request) => (isListPets(request) && !request.query.has('limit') ? reference(withoutParameter(request, 'status')) : reference(request)),
  },
]
