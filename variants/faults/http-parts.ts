/**
 * Faults in the parts of HTTP beside the ones a plain request writes (policy §2b): other methods, the HTTP version,
 * the request-target's form, the body's framing, and a parameter given twice with two values. Each is a habit of a
 * real framework or service, written from the policy's rules before the operator that finds it; each names the
 * operator that shows it and the requirement its invariant is charged to.
 */
import { isPetStatus } from '../../lib/spec/petstore-api.js'
import { errorResponse, json, petBody } from '../../reference/handler.js'
import { refusedAfterAuth } from '../allowances/list-pets.js'
import { fieldValuesAsSent, isCreatePet, isListPets, mapAnswers, mapJsonBody, type Variant, withoutHeader, withValidKey } from '../variant.js'

/** A JSON object's text with each repeated member name keeping its first value (a first-wins parser's reading), or undefined when no name repeats. */
function firstMembersWin(text: string): string | undefined {
  if (!isPlainObject(lastMembersWin(text))) return undefined
  const members = [...text.matchAll(/"((?:[^"\\]|\\.)*)"\s*:\s*("(?:[^"\\]|\\.)*"|-?[\d.eE+-]+|true|false|null)/g)]
  const names = members.map((member) => member[1])
  if (new Set(names).size === names.length) return undefined
  const first = new Map<string, string>()
  for (const member of members) if (member[1] !== undefined && member[2] !== undefined && !first.has(member[1])) first.set(member[1], member[2])
  return `{${[...first].map(([name, value]) => `"${name}":${value}`).join(',')}}`
}

/** A JSON text as JSON.parse reads it, the last of each repeated name kept; undefined when it is no JSON. */
function lastMembersWin(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

/** A method the auth middleware lets past, and the router hands to the GET handler: served as GET, key or not. */
function servedAsGetWithoutKey(method: string): Variant['wrap'] {
  return (reference, { apiKey }) =>
    async (request) =>
      request.method === method ? reference({ ...withValidKey(request, apiKey), method: 'GET' }) : reference(request)
}

export const httpPartFaults: Variant[] = [
  {
    name: 'head-served-without-key',
    description: 'the auth middleware runs for GET and POST only, and the router hands HEAD to the GET handler: HEAD /v1/pets without a key is answered 200 (other-method)',
    catches: ['auth/no-access-without-key'],
    provenByEdits: ['other-method'],
    wrap: servedAsGetWithoutKey('HEAD'),
  },
  {
    name: 'options-lists-pets-without-key',
    description: 'CORS middleware lets OPTIONS past auth, and the router hands it to the GET handler: OPTIONS /v1/pets without a key lists the pets (other-method)',
    catches: ['auth/no-access-without-key'],
    provenByEdits: ['other-method'],
    wrap: servedAsGetWithoutKey('OPTIONS'),
  },
  {
    name: 'unrouted-methods-500',
    description: 'a method the router has no table for (PROPFIND, SEARCH, REPORT) throws: 500 (other-method)',
    catches: ['responses/no-server-error'],
    provenByEdits: ['other-method'],
    wrap: (reference) => async (request) =>
      ['PROPFIND', 'QUERY', 'REPORT', 'SEARCH', 'LOCK', 'MKCOL'].includes(request.method)
        ? errorResponse(500, 'internal', `no handler table for ${request.method}`)
        : reference(request),
  },
  {
    name: 'http10-taken-for-health-checks',
    description: 'requests in HTTP/1.0 are taken for the load balancer’s health checks and served without the key (other-version)',
    catches: ['auth/no-access-without-key'],
    provenByEdits: ['other-version'],
    wrap:
      (reference, { apiKey }) =>
      async (request) =>
        request.httpVersion === '1.0' ? reference(withValidKey(request, apiKey)) : reference(request),
  },
  {
    name: 'absolute-form-skips-auth',
    description: 'the auth middleware is mounted on targets that begin /v1/; an absolute-form target (http://host/v1/pets) is routed but never checked (target-form)',
    catches: ['auth/no-access-without-key'],
    provenByEdits: ['target-form'],
    wrap:
      (reference, { apiKey }) =>
      async (request) =>
        /^https?:/i.test(request.rawTarget ?? '') ? reference(withValidKey(request, apiKey)) : reference(request),
  },
  {
    name: 'unparsable-messages-closed-without-a-word',
    description:
      'a message its HTTP parser refuses (whitespace before a colon, a control octet in a field name or the method) is answered by closing the connection without a word, as Yaws does, where HTTP/1.1 answers 400 (octet)',
    catches: ['responses/edits-answered'],
    provenByEdits: ['octet'],
    server: { closeOnParseError: true },
    wrap: (reference) => reference,
  },
  {
    name: 'bare-cr-ends-header-lines',
    description:
      "its HTTP layer reads a bare CR in a head as a line end, as Python's header parser does (http.server, Werkzeug), and refuses a line without a colon: `Authorization: Bearer <key>\\rx` is refused, and `Authorization: Bearer <key>\\rX-Request-Id: 1` is the key and a field of its own (octet)",
    catches: ['auth/no-access-without-key'],
    provenByEdits: ['octet'],
    server: { bareCrEndsLines: true },
    wrap: (reference) => reference,
  },
  {
    name: 'first-content-length-read',
    description: "its HTTP layer reads the first of two Content-Length fields and serves the request, as cohttp's does, where RFC 9112 §6.3 has it answer 400 and close",
    catches: ['responses/differing-lengths-refused'],
    provenByEdits: ['framing'],
    server: { contentLengthRead: 'first' },
    wrap: (reference) => reference,
  },
  {
    name: 'last-content-length-read',
    description: 'its HTTP layer reads the last of two Content-Length fields and serves the request, where RFC 9112 §6.3 has it answer 400 and close',
    catches: ['responses/differing-lengths-refused'],
    provenByEdits: ['framing'],
    server: { contentLengthRead: 'last' },
    wrap: (reference) => reference,
  },
  {
    name: 'location-from-forwarded-fields',
    description:
      "the 201's Location is built from the request's X-Forwarded-Proto, X-Forwarded-Host and X-Forwarded-Prefix, trusted from any client (Plack's ReverseProxy, Express's trust proxy): a create with X-Forwarded-Host: evil.example is answered Location: http://evil.example/v1/pets/7",
    catches: ['responses/meaningless-fields-ignored'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      const id = answer.status === 201 ? /"id"\s*:\s*(-?\d+)/.exec(answer.body)?.[1] : undefined
      if (!isCreatePet(request) || id === undefined) return answer
      const { headers } = request
      const origin = `${headers['x-forwarded-proto'] ?? 'http'}://${headers['x-forwarded-host'] ?? headers.host}`
      return { ...answer, headers: { ...answer.headers, location: `${origin}${headers['x-forwarded-prefix'] ?? ''}/v1/pets/${id}` } }
    },
  },
  {
    name: 'chunked-bodies-500',
    description: 'the body reader sizes its buffer from Content-Length: a chunked request body, which has none, fails with 500 (framing)',
    catches: ['responses/no-server-error'],
    provenByEdits: ['framing'],
    wrap: (reference) => async (request) =>
      request.headers['transfer-encoding'] !== undefined ? errorResponse(500, 'internal', 'Content-Length is required') : reference(request),
  },
  {
    name: 'members-checked-first-stored-last',
    description:
      'a gateway validates the body with a parser that keeps the first of two members of one name, and the service stores with one that keeps the last: {"categoryId":1,"categoryId":"x"} is stored with categoryId "x" (differing-duplicate)',
    catches: ['createPet/body-schema'],
    provenByEdits: ['differing-duplicate'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request)) return reference(request)
      const firsts = firstMembersWin(request.body)
      if (firsts === undefined) return reference(request)
      const checked = await reference({ ...request, body: firsts })
      if (checked.status !== 201) return checked
      const stored = lastMembersWin(request.body)
      return isPlainObject(stored) ? mapJsonBody(checked, (pet) => ({ ...(pet as object), ...stored })) : checked
    },
  },
  {
    name: 'first-accept-line-read',
    description:
      "content negotiation reads the first Accept field line alone (hyper's headers().get): `Accept: text/html` then `Accept: application/json`, one list that takes JSON (RFC 9110 §5.3), is refused 406 with an Error body (differing-duplicate)",
    catches: ['listPets/equivalent-spellings', 'getPet/equivalent-spellings', 'createPet/equivalent-spellings'],
    provenByEdits: ['differing-duplicate'],
    wrap: refusedAfterAuth(406, 'not_acceptable', (request) => {
      const [first] = fieldValuesAsSent(request, 'accept')
      return first !== undefined && !/(^|,)\s*(application\/json|application\/\*|\*\/\*)\s*(;|,|$)/i.test(first)
    }),
  },
  {
    name: 'head-not-routed-404',
    description: 'HEAD has no route: HEAD /v1/pets with the key is answered 404 with an Error body (other-method)',
    catches: ['responses/head-as-get'],
    provenByEdits: ['other-method'],
    wrap: (reference) => async (request) => (request.method === 'HEAD' && !request.outside ? errorResponse(404, 'not_found', 'no route for HEAD') : reference(request)),
  },
  {
    name: 'head-answered-with-content-length-0',
    description:
      "an answer to HEAD says Content-Length: 0, the content it sends, where RFC 9110 §8.6 has it say GET's length or nothing (a PSGI wrapper that empties the body after the length is set): a client that reads the length to HEAD as GET's is misled (other-method)",
    catches: ['responses/head-as-get'],
    provenByEdits: ['other-method'],
    wrap: mapAnswers((answer, request) => (request.method === 'HEAD' ? { ...answer, delivery: { ...answer.delivery, headContentLength: 0 } } : answer)),
  },
  {
    name: 'head-answered-with-content',
    description:
      "an answer to HEAD carries its body after its head all the same, as a middleware outside the framework's HEAD handling writes it (Dancer2 on Starman): a kept-alive connection reads it as the next answer (other-method)",
    catches: ['responses/head-as-get'],
    provenByEdits: ['other-method'],
    wrap: mapAnswers((answer, request) => (request.method === 'HEAD' ? { ...answer, delivery: { ...answer.delivery, contentToHead: true } } : answer)),
  },
  {
    name: 'method-not-allowed-without-allow',
    description: "a 405 to a method a route does not have comes without Allow, as gin 1.8's HandleMethodNotAllowed writes it (other-method)",
    catches: ['responses/405-allow'],
    provenByEdits: ['other-method'],
    wrap: mapAnswers((answer) => (answer.status === 405 ? withoutHeader(answer, 'allow') : answer)),
  },
  {
    name: 'chunked-bodies-read-as-empty',
    description: 'the body reader reads Content-Length octets only: a chunked request body is read as empty and refused 400 with an Error body (framing)',
    catches: ['responses/message-forms'],
    provenByEdits: ['framing'],
    wrap: (reference) => async (request) => reference(request.headers['transfer-encoding'] !== undefined ? { ...request, body: '' } : request),
  },
  {
    name: 'options-answered-without-key',
    description: 'OPTIONS is answered 200 with an Allow list before auth runs, without a key too (other-method)',
    catches: ['auth/options-without-key'],
    provenByEdits: ['other-method'],
    wrap: (reference) => async (request) =>
      request.method === 'OPTIONS'
        ? { status: 200, headers: { allow: 'GET, HEAD, POST, OPTIONS', 'content-type': 'text/plain' }, body: 'GET, HEAD, POST, OPTIONS' }
        : reference(request),
  },
  {
    name: 'trace-echoed-before-auth',
    description:
      "the framework's own TRACE handler answers 200 message/http echoing the request, before any route or auth runs, without a key too (cpprest's listener; a servlet's doTrace) (other-method)",
    catches: ['auth/no-access-without-key'],
    provenByEdits: ['other-method'],
    wrap: (reference) => async (request) => {
      if (request.method !== 'TRACE') return reference(request)
      const lines = (request.rawHeaders ?? []).flatMap((text, index, all) => (index % 2 === 0 ? [`${text}: ${all[index + 1] ?? ''}`] : []))
      return {
        status: 200,
        headers: { 'content-type': 'message/http' },
        body: [`TRACE ${request.rawTarget ?? request.path} HTTP/${request.httpVersion ?? '1.1'}`, ...lines, '', ''].join('\r\n'),
      }
    },
  },
  {
    name: 'options-preflight-204-before-auth',
    description: 'CORS middleware in front of the routes answers OPTIONS 204 with Allow and CORS headers before auth runs, without a key too (other-method)',
    catches: ['auth/options-without-key'],
    provenByEdits: ['other-method'],
    wrap: (reference) => async (request) =>
      request.method === 'OPTIONS'
        ? {
            status: 204,
            headers: {
              allow: 'GET, HEAD, POST',
              'access-control-allow-origin': '*',
              'access-control-allow-methods': 'GET, HEAD, POST',
              'access-control-allow-headers': 'authorization',
            },
            body: '',
          }
        : reference(request),
  },
  {
    name: 'other-methods-405-in-plain-text',
    description: 'the router answers a method a route does not have (PROPFIND, PUT, …) 405 with a plain-text body, where its other errors are Error JSON (other-method)',
    catches: ['errors/body-schema'],
    provenByEdits: ['other-method'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return answer.status === 405 ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain' }, body: 'Method Not Allowed' } : answer
    },
  },
  {
    name: 'limit-checked-first-read-last',
    description: 'the validator reads the first limit and the query layer the last: limit=7&limit=500 passes validation and lists up to 500 pets',
    catches: ['listPets/limit-max-100'],
    wrap:
      (reference, { store }) =>
      async (request) => {
        const limits = request.query.getAll('limit')
        const last = Number(limits.at(-1))
        if (!isListPets(request) || limits.length < 2 || !Number.isInteger(last) || last < 1) return reference(request)
        const answer = await reference(request)
        if (answer.status !== 200) return answer
        const status = request.query.get('status')
        return json(200, store.list({ ...(isPetStatus(status) ? { status } : {}), limit: last }).map(petBody))
      },
  },
  {
    name: 'multipart-without-boundary-refused-bare',
    description:
      "the HTTP layer parses a multipart body before any resource (Twisted's Request.requestReceived): a POST labelled multipart/form-data without its boundary gets a bare 400, no Error body, before the key is read",
    catches: ['auth/401-before-400', 'createPet/request-media-types'],
    wrap: (reference) => async (request) => {
      const label = (request.headers['content-type'] ?? '').toLowerCase()
      if (request.method !== 'POST' || !label.startsWith('multipart/form-data') || /;\s*boundary=[^;\s]/.test(label)) return reference(request)
      return { status: 400, headers: {}, body: '' }
    },
  },
  {
    name: 'content-type-untrimmed-before-parameters',
    description:
      "the body is read as JSON only when the label split at `;` is application/json as it stands, untrimmed (Bottle's request.json): application/json ; charset=utf-8 is no JSON, and a valid NewPet so labelled is refused with 400",
    catches: ['createPet/equivalent-spellings'],
    wrap: (reference) => async (request) => {
      const [type = ''] = (request.headers['content-type'] ?? '').toLowerCase().split(';')
      if (!isCreatePet(request) || !/^application\/json[ \t]+$/.test(type)) return reference(request)
      return errorResponse(400, 'bad_request', 'body must be a JSON object')
    },
  },
  {
    name: 'content-type-q-read-as-weight',
    description: "the body's handler is picked as Accept's ranges are (Falcon): a q parameter on Content-Type is a weight, and application/json; q=0 is refused with 415",
    catches: ['createPet/equivalent-spellings'],
    wrap: (reference) => async (request) => {
      const weight = /;\s*q=([0-9.]+)/i.exec(request.headers['content-type'] ?? '')?.[1]
      if (!isCreatePet(request) || weight === undefined || Number(weight) > 0) return reference(request)
      return errorResponse(415, 'unsupported_media_type', `${request.headers['content-type']} is an unsupported media type`)
    },
  },
]
