/** How a conformant service may read the list's parameters where the spec leaves it open: out-of-range and invalid values, other notations, names it does not know. */
import { isJsonObject } from '../../lib/http/json.js'
import { decimalDigitValue } from '../../lib/spec/spellings.js'
import { errorResponse } from '../../reference/handler.js'
import type { Handler, ServiceRequest } from '../../reference/http-types.js'
import { authorised, isListPets, isValidLimit, mapAnswers, mapJsonBody, type VariantContext, withoutParameter } from '../variant.js'
import type { Allowance } from './allowance.js'

const OUT_OF_RANGE = { policy: 'out-of-range `limit`' } as const
const OUT_OF_RANGE_WORDS = 'the answer is either a 4xx with a valid Error body (its `status` equal to the HTTP status) or 200 with a valid Pets body. SHOULD: 400'
const INVALID_STATUS = { policy: 'invalid `status` filter value' } as const
const INVALID_STATUS_WORDS = 'same rule as out-of-range `limit`: a 4xx with a valid Error body or 200 with a valid Pets body'

/** The list request with its query rewritten. */
function withQuery(request: ServiceRequest, rewrite: (query: URLSearchParams) => void): ServiceRequest {
  const query = new URLSearchParams(request.query)
  rewrite(query)
  return { ...request, query }
}

/** A list request's query read another way (`read` makes the query the service acts on); other requests as they are. */
function readsListQuery(read: (query: URLSearchParams) => URLSearchParams): (inner: Handler) => Handler {
  return (inner) => async (request) => (isListPets(request) ? inner({ ...request, query: read(request.query) }) : inner(request))
}

/** A list request whose limit the reference would refuse, read by `read` instead: a number from 1 to 100 replaces it, undefined leaves it. */
function readsLimit(read: (text: string) => number | undefined): (inner: Handler) => Handler {
  return (inner) => async (request) => {
    const limit = request.query.get('limit')
    if (!isListPets(request) || limit === null || isValidLimit(limit)) return inner(request)
    const value = read(limit)
    return value !== undefined && Number.isInteger(value) && value >= 1 && value <= 100 ? inner(withQuery(request, (query) => query.set('limit', String(value)))) : inner(request)
  }
}

/** Python's int() of a text: whitespace around, a sign, underscores between digits, and decimal digits of any script. */
function pythonInt(text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^[+-]?\p{Nd}+(_\p{Nd}+)*$/u.test(trimmed)) return undefined
  return Number(trimmed.replace(/_/g, '').replace(/\p{Nd}/gu, (digit) => String(decimalDigitValue(digit.codePointAt(0) as number))))
}

/** An invalid answer of the list turned into `status` with its Error body saying so, for requests `matches` picks. */
function refusedAs(status: number, matches: (request: ServiceRequest) => boolean): (inner: Handler, context: VariantContext) => Handler {
  return mapAnswers((answer, request) =>
    isListPets(request) && answer.status === 400 && matches(request) ? mapJsonBody({ ...answer, status }, (body) => (isJsonObject(body) ? { ...body, status } : body)) : answer,
  )
}

const isPetStatusText = (text: string | null) => text === 'available' || text === 'pending' || text === 'sold'

/** Refused with `status` after auth when `refuses` holds; otherwise the answer inside. */
export function refusedAfterAuth(status: number, code: string, refuses: (request: ServiceRequest) => boolean): (inner: Handler, context: VariantContext) => Handler {
  return (inner, { apiKey }) =>
    async (request) =>
      authorised(request, apiKey) && refuses(request) ? errorResponse(status, code, 'the request is not one this service reads') : inner(request)
}

export const listPetsAllowances: Allowance[] = [
  {
    id: 'query-read-up-to-1000-parameters',
    does: "the query is read as Node's querystring and qs read it (Express, restify): the first 1,000 parameters, the rest dropped without a word, so a limit and a filter after 1,000 others are not read",
    source: { policy: 'never longer than a `limit` the service applied' },
    allowedBy: 'every list answer is a JSON array of valid pets, never longer than 100, and never longer than a `limit` the service applied',
    layer: 'service',
    warns: ['listPets/parameters-past-a-cap'],
    wrap: readsListQuery((query) => new URLSearchParams([...query].slice(0, 1_000))),
  },
  {
    id: 'limit-clamped',
    does: 'an out-of-range limit is clamped (0 → 1, 101 → 100) and a non-integer one ignored, instead of refused',
    source: OUT_OF_RANGE,
    allowedBy: OUT_OF_RANGE_WORDS,
    layer: 'service',
    group: 'out-of-range limit',
    warns: ['listPets/limit-out-of-range-400'],
    wrap: (inner) => async (request) => {
      const limit = request.query.get('limit')
      if (!isListPets(request) || limit === null || isValidLimit(limit)) return inner(request)
      // A decimal integer is clamped; anything else (5.5, abc, and 0x7 or 7., which Number() would read as 7) is ignored.
      if (!/^-?\d+$/.test(limit)) return inner(withoutParameter(request, 'limit'))
      return inner(withQuery(request, (query) => query.set('limit', String(Math.min(100, Math.max(1, Number(limit)))))))
    },
  },
  {
    id: 'limit-out-of-range-ignored',
    does: 'a limit it cannot use (0, 101, abc, 1.5) is ignored: the default page of 20 comes back',
    source: OUT_OF_RANGE,
    allowedBy: OUT_OF_RANGE_WORDS,
    layer: 'service',
    group: 'out-of-range limit',
    warns: ['listPets/limit-out-of-range-400'],
    wrap: (inner) => async (request) => {
      const limit = request.query.get('limit')
      return isListPets(request) && limit !== null && !isValidLimit(limit) ? inner(withoutParameter(request, 'limit')) : inner(request)
    },
  },
  {
    id: 'limit-refused-422',
    does: 'an out-of-range limit is answered 422 with a valid Error body saying 422',
    source: OUT_OF_RANGE,
    allowedBy: OUT_OF_RANGE_WORDS,
    layer: 'service',
    group: 'out-of-range limit',
    warns: ['listPets/limit-out-of-range-400'],
    wrap: refusedAs(422, (request) => request.query.has('limit')),
  },
  {
    id: 'limit-read-with-number',
    does: "a limit that is no plain decimal is read with JavaScript's Number(): 0x7 is 7, 1e1 is 10, 5.0 is 5, ' 5 ' is 5",
    source: { policy: 'other notations' },
    allowedBy:
      'For `limit`: the out-of-range row, where a list of at most 100 valid pets is an allowed answer; a list whose length is what a lenient parser reads (`0x7` listed as 7 pets) is a SHOULD warning',
    layer: 'service',
    group: 'limit notation',
    warns: ['listPets/limit-other-notations', 'listPets/limit-out-of-range-400'],
    wrap: readsLimit((text) => (text.trim() === '' ? undefined : Number(text))),
  },
  {
    id: 'limit-read-with-python-int',
    does: "a limit is read with Python's int(): digits of any script (٣ is 3), underscores between digits (1_0 is 10), a sign, spaces around",
    source: { policy: 'other notations' },
    allowedBy: 'a list whose length is what a lenient parser reads (`0x7` listed as 7 pets) is a SHOULD warning, not a failure',
    layer: 'service',
    group: 'limit notation',
    warns: ['listPets/limit-other-notations', 'listPets/limit-out-of-range-400'],
    wrap: readsLimit(pythonInt),
  },
  {
    id: 'status-invalid-ignored',
    does: 'a status filter outside the enum is ignored: the unfiltered list comes back',
    source: INVALID_STATUS,
    allowedBy: INVALID_STATUS_WORDS,
    layer: 'service',
    group: 'invalid status',
    warns: ['listPets/status-invalid-400'],
    wrap: (inner) => async (request) =>
      isListPets(request) && request.query.has('status') && !isPetStatusText(request.query.get('status')) ? inner(withoutParameter(request, 'status')) : inner(request),
  },
  {
    id: 'status-invalid-lists-nothing',
    does: 'a status filter outside the enum matches no pet: an empty list comes back',
    source: INVALID_STATUS,
    allowedBy: INVALID_STATUS_WORDS,
    layer: 'service',
    group: 'invalid status',
    warns: ['listPets/status-invalid-400'],
    wrap: (inner) => async (request) => {
      if (!isListPets(request) || !request.query.has('status') || isPetStatusText(request.query.get('status'))) return inner(request)
      const answer = await inner(withoutParameter(request, 'status'))
      return answer.status === 200 ? { ...answer, body: '[]' } : answer
    },
  },
  {
    id: 'status-refused-422',
    does: 'a status filter outside the enum is answered 422 with a valid Error body saying 422',
    source: INVALID_STATUS,
    allowedBy: INVALID_STATUS_WORDS,
    layer: 'service',
    group: 'invalid status',
    warns: ['listPets/status-invalid-400'],
    wrap: refusedAs(422, (request) => request.query.has('status') && !isPetStatusText(request.query.get('status'))),
  },
  {
    id: 'unknown-query-parameters-refused-400',
    does: 'a list request with a query parameter the spec does not name (Limit, limit in another case, a duplicate name) is refused with 400 and an Error body, after auth',
    source: { policy: 'an edit that makes a value invalid gets what the rows above give invalid values' },
    allowedBy: 'a request the spec does not describe is held to the invariants only (a 4xx with an Error body is one of their answers)',
    layer: 'service',
    group: 'unknown parameters',
    wrap: refusedAfterAuth(400, 'unknown_parameter', (request) => isListPets(request) && [...request.query.keys()].some((name) => name !== 'limit' && name !== 'status')),
  },
  {
    id: 'query-names-in-any-case',
    does: 'query parameter names are read in any letter case (LIMIT=5 is limit=5), as model binding in ASP.NET does',
    source: { policy: 'an edit that makes a value invalid gets what the rows above give invalid values' },
    allowedBy: 'a parameter the spec does not name is held to the invariants only: a list of at most 100 valid pets, within the limit it applied',
    layer: 'service',
    group: 'unknown parameters',
    wrap: readsListQuery((given) => {
      const query = new URLSearchParams()
      for (const [name, value] of given) query.append(['limit', 'status'].includes(name.toLowerCase()) ? name.toLowerCase() : name, value)
      return query
    }),
  },
  {
    id: 'repeated-parameters-refused-400',
    does: 'a request that gives a query parameter twice, or Content-Type twice, is refused with 400 and an Error body, after auth',
    source: { rfc: 'RFC 9110 §5.3' },
    allowedBy: 'a recipient may refuse a singleton field given twice; Accept is a list, and two of it are one list',
    layer: 'service',
    group: 'repeated parameters',
    wrap: refusedAfterAuth(400, 'repeated_field', (request) => {
      const names = [...request.query.keys()]
      return new Set(names).size !== names.length || (request.headers['content-type'] ?? '').includes(', ')
    }),
  },
  {
    id: 'repeated-limit-read-as-invalid',
    does: "a limit given twice, even with one value, or beside a name in its array form (`limit[]`, which qs merges with it), is read as one invalid value and the default page is served (Express reads an array, and NestJS's conversion makes it NaN)",
    source: { policy: 'out-of-range `limit`' },
    allowedBy: 'the answer is either a 4xx with a valid Error body … or 200 with a valid Pets body (no more than 100 items)',
    layer: 'service',
    group: 'repeated parameters',
    wrap: (inner) => async (request) => {
      const names = [...request.query.keys()]
      const forms = names.filter((name) => name === 'limit' || (names.includes('limit') && name.startsWith('limit[')))
      return isListPets(request) && forms.length > 1 ? inner(withoutParameter(request, 'limit')) : inner(request)
    },
  },
  {
    id: 'repeated-parameters-last-wins',
    does: 'a query parameter given twice is read from its last value (the first is what the reference reads)',
    source: { policy: 'an edit that makes a value invalid gets what the rows above give invalid values' },
    allowedBy: 'a parameter given twice is no request the spec describes: the list rules hold for whichever value the service took',
    layer: 'service',
    group: 'repeated parameters',
    wrap: readsListQuery((given) => {
      const query = new URLSearchParams()
      for (const name of new Set(given.keys())) query.set(name, given.getAll(name).at(-1) as string)
      return query
    }),
  },
]
