/**
 * Faults that only an edit of the neighbourhood shows (policy §2b): each is a habit of a real framework or
 * service, written from the policy's rules before the operator that finds it, and none is on an input a check
 * lists. One or more per operator; each names the requirement the invariant is charged to.
 */
import { gunzipSync } from 'node:zlib'
import { isJsonObject, nestingDepth, parseJson } from '../../lib/http/json.js'
import { isPetStatus } from '../../lib/spec/petstore-api.js'
import { bearerToken, errorResponse, json, petBody } from '../../reference/handler.js'
import type { ServiceRequest } from '../../reference/http-types.js'
import { populatedStore } from '../../reference/pet-store.js'
import { acceptedAsValid, isCreatePet, isListPets, type Variant, withValidKey } from '../variant.js'

/** JSON read the way JSONC-minded parsers do: comments dropped first. */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '')
}

export const editFaults: Variant[] = [
  {
    name: 'base-path-any-case-without-key',
    description: 'the router matches /V1 like /v1, but the auth middleware is mounted on /v1 exactly: /V1/pets is served without a key (case)',
    catches: ['auth/no-access-without-key'],
    provenByEdits: ['case'],
    wrap:
      (reference, { apiKey }) =>
      async (request) =>
        reference(request.basePath !== undefined && request.basePath !== '/v1' ? { ...withValidKey(request, apiKey), basePath: '/v1' } : request),
  },
  {
    name: 'scheme-sliced-off',
    description: 'the token is the Authorization value after its first six characters, less the spaces before it: "BearerKEY" (the separator dropped) passes (drop)',
    catches: ['auth/key-lookalike-401', 'auth/no-access-without-key'],
    provenByEdits: ['drop'],
    wrap: acceptedAsValid((request, apiKey) => {
      const value = request.headers.authorization ?? ''
      return /^bearer/i.test(value) && value.slice(6).replace(/^ +/, '') === apiKey
    }),
  },
  {
    name: 'repeated-limit-uncapped',
    description:
      'a limit given twice is read as a list, which no cap applies to: every pet is listed, past 100 in a store of 400 (a page of up to 100 is what the out-of-range row allows a limit read as invalid)',
    catches: ['listPets/limit-max-100'],
    provenByEdits: ['duplicate'],
    store: () => populatedStore(400),
    wrap:
      (reference, { store }) =>
      async (request) => {
        if (!isListPets(request) || request.query.getAll('limit').length < 2) return reference(request)
        const answer = await reference(request)
        if (answer.status !== 200) return answer
        const status = request.query.get('status')
        return json(200, store.list({ ...(isPetStatus(status) ? { status } : {}), limit: Number.MAX_SAFE_INTEGER }).map(petBody))
      },
  },
  {
    name: 'authorization-percent-decoded',
    description: 'the Authorization value is percent-decoded before the token is compared (a gateway that decodes every header): %4B for K passes (percent)',
    catches: ['auth/key-lookalike-401', 'auth/no-access-without-key'],
    provenByEdits: ['percent'],
    wrap: acceptedAsValid((request, apiKey) => {
      const value = request.headers.authorization ?? ''
      if (!/%[0-9A-Fa-f]{2}/.test(value)) return false
      try {
        return bearerToken(decodeURIComponent(value)) === apiKey
      } catch {
        return false
      }
    }),
  },
  {
    name: 'non-ascii-field-value-500',
    description: 'header values are decoded as ASCII, strictly: an octet past 0x7F in Accept, User-Agent, Host or Content-Type fails the request with 500 (octet)',
    catches: ['responses/no-server-error'],
    provenByEdits: ['octet'],
    wrap: (reference) => async (request) => {
      const fields = ['accept', 'user-agent', 'host', 'content-type'].map((name) => request.headers[name] ?? '')
      return fields.some((value) => [...value].some((character) => character.charCodeAt(0) > 0x7f))
        ? errorResponse(500, 'internal', "'ascii' codec can't decode byte")
        : reference(request)
    },
  },
  {
    name: 'limit-read-with-parseInt',
    description: "the limit is read with JavaScript's parseInt: ' 7', '7.', '7,0' and '7e' are 7 (notation)",
    catches: ['listPets/limit-other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const limit = request.query.get('limit')
      if (!isListPets(request) || limit === null || /^\d+$/.test(limit)) return reference(request)
      const read = Number.parseInt(limit, 10)
      if (Number.isNaN(read)) return reference(request)
      const query = new URLSearchParams(request.query)
      query.set('limit', String(read))
      return reference({ ...request, query })
    },
  },
  {
    name: 'limit-decoded-twice',
    description: 'the limit is percent-decoded once more after the framework decoded it (uri_unescape on a value Plack already decoded): limit=%2537 is 7 (percent)',
    catches: ['listPets/limit-other-notations'],
    provenByEdits: ['percent'],
    wrap: (reference) => async (request) => {
      const limit = request.query.get('limit')
      if (!isListPets(request) || limit === null || !/%[0-9A-Fa-f]{2}/.test(limit)) return reference(request)
      const query = new URLSearchParams(request.query)
      try {
        query.set('limit', decodeURIComponent(limit))
      } catch {
        return reference(request)
      }
      return reference({ ...request, query })
    },
  },
  {
    name: 'limit-read-through-a-double',
    description: "the limit is read as Python's int(float(text)): an infinite one (inf, Infinity, 5e999) raises, and the answer is a 500 (notation)",
    catches: ['responses/no-server-error'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const limit = request.query.get('limit')
      if (!isListPets(request) || limit === null) return reference(request)
      // float() takes 'inf', 'infinity' in any case and a sign; an exponent past a double is an infinity too.
      const text = limit.trim().toLowerCase()
      const infinite = /^[+-]?(inf|infinity)$/.test(text) || Math.abs(Number(text)) === Number.POSITIVE_INFINITY
      return infinite ? errorResponse(500, 'internal', 'OverflowError: cannot convert float infinity to integer') : reference(request)
    },
  },
  {
    name: 'bracket-params-500',
    description: "the list reads its parameters as PHP's $_GET does: limit[]=7 is an array, and the string check on it throws, a 500 (bracket-name)",
    catches: ['responses/no-server-error'],
    provenByEdits: ['bracket-name'],
    wrap: (reference) => async (request) =>
      isListPets(request) && [...request.query.keys()].some((name) => /^(limit|status)\[[^\]]*\]$/.test(name))
        ? errorResponse(500, 'internal', 'TypeError: preg_match(): Argument #2 ($subject) must be of type string, array given')
        : reference(request),
  },
  {
    name: 'forwarded-for-loopback-trusted',
    description: 'a request that says it comes from 127.0.0.1 (X-Forwarded-For, X-Real-IP) is taken as internal and served without a key (add a field)',
    catches: ['auth/no-access-without-key'],
    provenByEdits: ['add-field'],
    wrap:
      (reference, { apiKey }) =>
      async (request) =>
        reference(request.headers['x-forwarded-for'] === '127.0.0.1' || request.headers['x-real-ip'] === '127.0.0.1' ? withValidKey(request, apiKey) : request),
  },
  {
    name: 'plain-object-checked-by-constructor',
    description: 'the body is taken for a plain object only when its constructor is Object: a NewPet with a member named "constructor" is refused with 400 (add a member)',
    catches: ['createPet/returns-201-pet'],
    provenByEdits: ['add-member'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request)) return reference(request)
      const parsed = parseJson(request.body)
      const plain = !parsed.ok || !isJsonObject(parsed.value) || !Object.hasOwn(parsed.value, 'constructor')
      return plain ? reference(request) : errorResponse(400, 'invalid_body', 'the body must be a JSON object')
    },
  },
  {
    name: 'deep-member-500',
    description: 'a recursive sanitiser walks every member: a body nested past 100 levels overflows its stack and fails with 500 (nest)',
    catches: ['responses/no-server-error'],
    provenByEdits: ['nest'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && nestingDepth(request.body, 101) > 100 ? errorResponse(500, 'internal', 'Maximum call stack size exceeded') : reference(request),
  },
  {
    name: 'json-comments-read',
    description: 'bodies are read by a JSONC-minded parser that drops comments, so JSONTestSuite texts with a comment, which a JSON parser refuses, are read (JSON text)',
    catches: ['createPet/invalid-body-400'],
    provenByEdits: ['json-text'],
    wrap: (reference) => async (request: ServiceRequest) => {
      if (!isCreatePet(request) || parseJson(request.body).ok) return reference(request)
      const read = withoutComments(request.body)
      return parseJson(read).ok ? reference({ ...request, body: read }) : reference(request)
    },
  },
  {
    name: 'gzip-body-read-as-sent',
    description: 'Content-Encoding: gzip makes the service gunzip the body, unguarded: a body that is not gzip data fails the request with 500 (add a field)',
    catches: ['responses/no-server-error', 'createPet/content-encoding'],
    provenByEdits: ['add-field'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request) || request.headers['content-encoding'] !== 'gzip') return reference(request)
      return reference({ ...request, body: gunzipSync(Buffer.from(request.body, 'latin1')).toString('utf8') })
    },
  },
  {
    name: 'gzip-label-ends-connection',
    description:
      'the HTTP layer gunzips a body labelled Content-Encoding: gzip before any handler runs (Tornado decompress_request), and ends the connection with no answer when the body is not gzip data (add a field)',
    catches: ['createPet/content-encoding'],
    provenByEdits: ['add-field'],
    wrap: (reference) => async (request) => {
      if (request.method !== 'POST' || !/gzip/i.test(request.headers['content-encoding'] ?? '')) return reference(request)
      try {
        gunzipSync(request.octets ?? Buffer.from(request.body, 'latin1'))
        return reference(request)
      } catch {
        return { status: 400, headers: {}, body: '', delivery: { endWithoutAnswer: true } }
      }
    },
  },
  {
    name: 'ajax-lists-wrapped',
    description: 'a request that says X-Requested-With: XMLHttpRequest gets its list wrapped as {"data": [...]}, the way a framework branches on request.ajax() (add a field)',
    catches: ['responses/meaningless-fields-ignored'],
    provenByEdits: ['add-field'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      if (!isListPets(request) || request.headers['x-requested-with'] !== 'XMLHttpRequest' || answer.status !== 200) return answer
      return { ...answer, body: `{"data":${answer.body}}` }
    },
  },
  {
    name: 'empty-limit-resets-connection',
    description: 'a limit with no value (limit=) crashes the worker, which resets the connection before any answer (drop)',
    catches: ['responses/edits-answered'],
    provenByEdits: ['drop'],
    wrap: (reference) => async (request) =>
      isListPets(request) && request.query.get('limit') === '' ? { ...errorResponse(500, 'internal', 'crashed'), delivery: { resetConnection: true } } : reference(request),
  },
]
