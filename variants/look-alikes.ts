/**
 * Conformant look-alikes: implementations that behave unusually but within the spec and the policy.
 * A careless suite fails them; this one must not. Each may warn only on the SHOULD requirements it lists.
 */
import { exactInteger, INT64_MIN } from '../lib/http/int64.js'
import { isJsonObject, parseJson, stringifyJson } from '../lib/http/json.js'
import { isPetStatus } from '../lib/spec/petstore-api.js'
import { bearerToken, decodedSegment, errorResponse, json, petBody } from '../reference/handler.js'
import { PetStore, populatedStore } from '../reference/pet-store.js'
import { editLookAlikes } from './look-alikes-of-edits.js'
import {
  isCreatePet,
  isGetPet,
  isListPets,
  isValidLimit,
  lagsBehindWrites,
  mapAnswers,
  mapJsonBody,
  rewritingNewPet,
  type Variant,
  withHeader,
  withoutParameter,
} from './variant.js'

/** Every `period`-th request is turned away with `status` and Retry-After: 1, before the reference sees it. */
function turnsAwayEvery(period: number, status: 429 | 503): Variant['wrap'] {
  let requests = 0
  return (reference) => async (request) => {
    requests += 1
    if (requests % period !== 0) return reference(request)
    return errorResponse(status, status === 429 ? 'rate_limited' : 'unavailable', 'try again shortly', { 'retry-after': '1' })
  }
}

/**
 * A rate limiter that answers in HTTP dates, on a clock `skewMs` off from this machine's: after every
 * `period` requests it served, it closes until the start of the second after next (its clock), and answers
 * every request until then 429 with `Retry-After: <that second, as an HTTP date>` and `Date: <its now>`.
 * Once open again it stays open for at least OPEN_AT_LEAST_MS, so a client that waits as long as it is told
 * gets through at its first retry: without that, the retries of one closing (hundreds, when every check runs
 * at once) served 150 and closed it again before the last of them came, and a request could be turned away
 * four times in a row however well the client waited, which the policy counts as a failure.
 */
/** How long the HTTP-date rate limiter stays open after it reopens: longer than a retry that waited as told (its wait plus a second) takes to come. */
const OPEN_AT_LEAST_MS = 3_000

function rateLimitedInHttpDates(period: number, skewMs: number): Variant['wrap'] {
  let served = 0
  let closedUntil = 0
  return (reference) => async (request) => {
    const now = Date.now() + skewMs
    if (now < closedUntil) {
      return errorResponse(429, 'rate_limited', 'try again at the time given', { 'retry-after': new Date(closedUntil).toUTCString(), date: new Date(now).toUTCString() })
    }
    served += 1
    if (served % period === 0 && now >= closedUntil + OPEN_AT_LEAST_MS) closedUntil = Math.ceil(now / 1000) * 1000 + 1000
    return reference(request)
  }
}

/**
 * A rate limiter that closes for a second or two after every `period`-th GET it served: until the start of the second
 * after next, every request is answered 429 with `Retry-After: <that second, as an HTTP date>` and `Date`. Unlike the
 * one above it promises nothing once open again: a client that goes on sending while one request waits opens the
 * next window itself, and only a client that pauses every request (RFC 9110 §10.2.3) gets through.
 */
function closesAfterEveryGets(period: number): Variant['wrap'] {
  let gets = 0
  let closedUntil = 0
  return (reference) => async (request) => {
    const now = Date.now()
    if (now < closedUntil) {
      return errorResponse(429, 'rate_limited', 'try again at the time given', { 'retry-after': new Date(closedUntil).toUTCString(), date: new Date(now).toUTCString() })
    }
    if (request.method === 'GET') {
      gets += 1
      if (gets % period === 0) closedUntil = Math.ceil(now / 1000) * 1000 + 1000
    }
    return reference(request)
  }
}

export const lookAlikes: Variant[] = [
  ...editLookAlikes,
  {
    name: 'ids-above-2^53',
    description: 'the store assigns ids from 2^62 + 12345: every id is beyond what a double holds exactly',
    store: () => new PetStore(2n ** 62n + 12_345n),
    wrap: (reference) => reference,
  },
  {
    name: 'ids-negative',
    description: 'the store assigns negative ids near the bottom of int64',
    store: () => new PetStore(INT64_MIN + 1_000n),
    wrap: (reference) => reference,
  },
  {
    name: 'charset-utf-8',
    description: 'every JSON answer is labelled application/json; charset=utf-8',
    wrap: mapAnswers((answer) => (answer.headers['content-type'] === 'application/json' ? withHeader(answer, 'content-type', 'application/json; charset=utf-8') : answer)),
  },
  {
    name: 'extra-properties',
    description: 'pets carry tags and createdAt; Error bodies carry details',
    wrap: mapAnswers((answer) =>
      mapJsonBody(answer, (body) => {
        const extend = (value: unknown) =>
          isJsonObject(value) ? { ...value, ...(answer.status >= 400 ? { details: [] } : { tags: ['friendly'], createdAt: '2026-01-01T00:00:00Z' }) } : value
        return Array.isArray(body) ? body.map(extend) : extend(body)
      }),
    ),
  },
  {
    name: 'list-newest-first',
    description: 'lists are in reverse creation order',
    wrap:
      (reference, { store }) =>
      async (request) => {
        const answer = await reference(request)
        if (!isListPets(request) || answer.status !== 200) return answer
        const status = request.query.get('status')
        const limit = request.query.has('limit') ? Number(request.query.get('limit')) : 20
        const all = store.list({ limit: Number.POSITIVE_INFINITY, ...(isPetStatus(status) ? { status } : {}) })
        return json(200, all.reverse().slice(0, limit).map(petBody))
      },
  },
  {
    name: 'connection-close',
    description: 'every answer closes the connection (no keep-alive)',
    wrap: mapAnswers((answer) => ({ ...answer, delivery: { ...answer.delivery, closeConnection: true } })),
  },
  {
    name: 'chunked-bodies',
    description: 'every body is sent chunked, without Content-Length',
    wrap: mapAnswers((answer) => ({ ...answer, delivery: { ...answer.delivery, chunked: true } })),
  },
  {
    name: 'pretty-printed-json',
    description: 'JSON bodies are indented over several lines',
    wrap: mapAnswers((answer) => {
      const parsed = parseJson(answer.body)
      return parsed.ok ? { ...answer, body: stringifyJson(parsed.value, 2) } : answer
    }),
  },
  {
    name: 'slow-answers',
    description: 'every answer takes 30 ms',
    wrap: mapAnswers((answer) => ({ ...answer, delivery: { ...answer.delivery, delayMs: 30 } })),
  },
  {
    name: 'occasional-429',
    description: 'every 40th request is answered 429 with Retry-After: 1',
    wrap: turnsAwayEvery(40, 429),
  },
  {
    name: 'retry-after-http-date-clock-behind',
    description:
      'after every 150 requests it served it closes until the second after next, answering 429 with Retry-After as an HTTP date and a Date, on a clock 30 s behind this machine',
    wrap: rateLimitedInHttpDates(150, -30_000),
  },
  {
    name: 'rate-limit-windows-after-every-50-gets',
    description: 'after every 50th GET it closes for a second or two, answering every request 429 with Retry-After as an HTTP date until then',
    wrap: closesAfterEveryGets(50),
  },
  {
    name: 'occasional-503',
    description: 'every 60th request is answered 503 with Retry-After: 1',
    wrap: turnsAwayEvery(60, 503),
  },
  {
    name: 'status-defaulted-available',
    description: 'a pet created without status is stored as available',
    wrap: rewritingNewPet((fields) => ('status' in fields ? fields : { ...fields, status: 'available' })),
  },
  {
    name: 'limit-clamped',
    description: 'an out-of-range limit is clamped (0 → 1, 101 → 100) and a non-integer one ignored, instead of refused',
    allowedWarnings: ['listPets/limit-out-of-range-400'],
    wrap: (reference) => async (request) => {
      const limit = request.query.get('limit')
      if (!isListPets(request) || limit === null || isValidLimit(limit)) return reference(request)
      // A decimal integer is clamped; anything else (5.5, abc, and 0x7 or 7., which Number() would read as 7) is ignored.
      if (!/^-?\d+$/.test(limit)) return reference(withoutParameter(request, 'limit'))
      const value = Number(limit)
      const query = new URLSearchParams(request.query)
      query.set('limit', String(Math.min(100, Math.max(1, value))))
      return reference({ ...request, query })
    },
  },
  {
    name: 'limit-refused-422',
    description: 'an out-of-range limit is answered 422 with a valid Error body saying 422',
    allowedWarnings: ['listPets/limit-out-of-range-400'],
    wrap: mapAnswers((answer, request) =>
      isListPets(request) && answer.status === 400 && request.query.has('limit')
        ? mapJsonBody({ ...answer, status: 422 }, (body) => (isJsonObject(body) ? { ...body, status: 422 } : body))
        : answer,
    ),
  },
  {
    name: 'invalid-id-404',
    description: 'a petId that is not an int64 is answered 404 (not 400)',
    wrap: mapAnswers((answer, request) => (isGetPet(request) && answer.status === 400 ? errorResponse(404, 'not_found', 'no such pet') : answer)),
  },
  {
    name: 'odd-names-in-store',
    description: 'the store already holds pets named "", " ", "\\u0000", "🐶", 3000 × "é", with int64-extreme category ids',
    store: () => {
      const store = new PetStore()
      const names = ['', ' ', '\u0000', '🐶', 'é'.repeat(3000), 'e\u0301', '\u202eevil']
      names.forEach((name, index) => {
        store.add({ name, categoryId: index % 2 === 0 ? 2n ** 63n - 1n : -(2n ** 63n), status: (['available', 'pending', 'sold'] as const)[index % 3], extra: {} })
      })
      return store
    },
    wrap: (reference) => reference,
  },
  {
    name: 'deprecation-announced',
    description: 'GET /pets/{petId} answers carry Deprecation and Sunset headers; every answer carries rate-limit headers',
    wrap: mapAnswers((answer, request) => {
      const limited = { ...answer, headers: { ...answer.headers, 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999' } }
      return isGetPet(request) ? { ...limited, headers: { ...limited.headers, deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' } } : limited
    }),
  },
  {
    name: 'pets-sold-while-read',
    description: 'a pet the store already held is sold (an order, an area not shown) the first time GET /pets/{petId} reads it: its status changes between reads',
    store: () => populatedStore(150),
    wrap: (reference, { store }) => {
      const soldOnce = new Set<bigint>()
      return async (request) => {
        const id = isGetPet(request) ? exactInteger(decodedSegment(request.path.slice('/pets/'.length)) ?? '') : undefined
        const pet = id === undefined || soldOnce.has(id) ? undefined : store.get(id)
        if (pet && id !== undefined && id <= 150n) {
          soldOnce.add(id)
          store.update(id, { ...pet, status: pet.status === 'sold' ? 'available' : 'sold' })
        }
        return reference(request)
      }
    },
  },
  {
    name: 'replica-lags-2s',
    description: 'reads come from a replica 2 s behind the writes: within the 5 s consistency window',
    wrap: lagsBehindWrites(2_000),
  },
  {
    name: 'get-replica-lags-800ms',
    description:
      'GET /pets/{id} is answered from a replica 800 ms behind the writes while lists are current: a pet a list shows can be 404 to its GET for a moment, within the 5 s window',
    wrap: lagsBehindWrites(800, 0),
  },
  {
    name: 'get-lags-1500ms-lists-lag-600ms',
    description: 'GET /pets/{id} lags 1.5 s behind the writes and the lists 0.6 s: a pet shows in the lists before its GET finds it, all within the 5 s window',
    wrap: lagsBehindWrites(1_500, 600),
  },
  {
    name: 'unknown-paths-404-before-auth',
    description:
      'the router answers 404 with an Error body to any path it does not serve (a trailing slash, another letter case, …) before auth runs (an error answer has the Error body whatever the path: spec, Errors; policy §2b)',
    wrap: (reference) => async (request) =>
      request.path === '/pets' || /^\/pets\/[^/]+$/.test(request.path) ? reference(request) : errorResponse(404, 'not_found', 'no such path'),
  },
  {
    name: 'trailing-slash-redirect',
    description: 'a path with a trailing slash is redirected (301) to the path without it, before auth runs',
    wrap: (reference) => async (request) =>
      request.path.length > 1 && request.path.endsWith('/')
        ? { status: 301, headers: { location: `/v1${request.path.slice(0, -1)}`, 'content-type': 'text/plain' }, body: 'Moved Permanently' }
        : reference(request),
  },
  {
    name: 'client-id-refused-400',
    description: 'a NewPet that carries an id is refused with 400 and an Error body',
    allowedWarnings: ['createPet/client-id-accepted'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request)) return reference(request)
      const parsed = parseJson(request.body)
      return parsed.ok && isJsonObject(parsed.value) && 'id' in parsed.value ? errorResponse(400, 'invalid_body', 'id is assigned by the service') : reference(request)
    },
  },
  {
    name: 'long-names-in-store',
    description: 'the store already holds 40 pets whose names are 4,096 code points of accented letters (8 KiB each): lists are large, and well within the body cap',
    store: () => {
      const store = new PetStore()
      for (let index = 0; index < 40; index++)
        store.add({ name: `long ${index} ${'é'.repeat(4_096 - 6 - String(index).length)}`, categoryId: BigInt(index), status: 'available', extra: {} })
      return store
    },
    wrap: (reference) => reference,
  },
  {
    name: 'ids-sparse',
    description: 'ids are far apart (each 2^32 + 15 after the last, from 1,000,003), crossing the int32 and uint32 edges and 2^53 as the store grows',
    store: () => new PetStore(1_000_003n, 2n ** 32n + 15n),
    wrap: (reference) => reference,
  },
  {
    name: 'ids-from-zero',
    description: 'ids start at 0, so a pet with id 0 exists and GET /pets/0 returns it',
    store: () => new PetStore(0n),
    wrap: (reference) => reference,
  },
  {
    name: 'negative-ids-400',
    description: 'a negative petId is refused with 400 (ids are never negative here) instead of 404',
    wrap: (reference) => async (request) =>
      isGetPet(request) && /^\/pets\/-/.test(request.path) ? errorResponse(400, 'invalid_pet_id', 'petId must not be negative') : reference(request),
  },
  {
    name: 'top-int64-ids-400',
    description: 'GET /pets/{id} of the two highest int64 ids (2^63-2, 2^63-1) is refused with 400 and a valid Error body (its ids stop short of them) instead of 404',
    wrap: mapAnswers((answer, request) =>
      answer.status === 404 && isGetPet(request) && /^\/pets\/922337203685477580[67]$/.test(request.path)
        ? errorResponse(400, 'invalid_pet_id', 'petId is beyond the ids this store assigns')
        : answer,
    ),
  },
  {
    name: 'other-media-types-415',
    description:
      'a body not labelled application/json (its media type read case-insensitively, parameters allowed) is refused with 415 and an Error body, after auth; no label at all too',
    // Refused before the store sees it: a 415 that still created the pet would break the leakage rule (policy §2b).
    wrap:
      (reference, { apiKey }) =>
      async (request) => {
        const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
        const authorised = bearerToken(request.headers.authorization) === apiKey
        return isCreatePet(request) && authorised && mediaType !== 'application/json' ? errorResponse(415, 'unsupported_media_type', 'send application/json') : reference(request)
      },
  },
  {
    name: 'lenient-id-notations-read',
    description: 'GET /pets/{id} reads +30, 030, 30.0 and 30e0 as the id 30 (readings the policy records as INFO)',
    wrap: (reference) => async (request) => {
      const id = isGetPet(request) ? request.path.slice('/pets/'.length) : ''
      const lenient = /^\+?\d+(\.0+)?(e0)?$/i.test(id) && !/^\d+$/.test(id) ? String(Number(id)) : undefined
      return lenient ? reference({ ...request, path: `/pets/${lenient}` }) : reference(request)
    },
  },
  {
    name: 'lone-surrogates-refused-400',
    description: 'a name holding a lone surrogate escape is refused with 400 and an Error body (a strict UTF-16 check)',
    wrap: (reference) => async (request) =>
      isCreatePet(request) && /\\ud[89a-f][0-9a-f]{2}/i.test(request.body) && !/\\ud[89ab][0-9a-f]{2}\\ud[c-f]/i.test(request.body)
        ? errorResponse(400, 'invalid_body', 'name is not well-formed Unicode')
        : reference(request),
  },
  {
    name: 'lone-surrogates-stored-as-replacement',
    description: 'a lone surrogate in a name is stored as U+FFFD, and shown so in the 201, the GET and the lists alike',
    wrap: rewritingNewPet((fields) =>
      typeof fields.name === 'string' ? { ...fields, name: fields.name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd') } : fields,
    ),
  },
  {
    name: 'gzip-encoded-answers',
    description: 'every answer is gzip-encoded (Content-Encoding: gzip), asked for or not',
    wrap: mapAnswers((answer) => ({ ...answer, delivery: { ...answer.delivery, gzip: true } })),
  },
  {
    name: 'error-messages-with-markup',
    description: 'Error messages and codes hold <, >, & and quotes: "no pet <42> & \'none\' found"',
    wrap: mapAnswers((answer) =>
      answer.status >= 400
        ? mapJsonBody(answer, (body) => (isJsonObject(body) ? { ...body, code: `${String(body.code)}<&>`, message: `"${String(body.message)}" <b>&amp;</b> 'quoted'` } : body))
        : answer,
    ),
  },
]
