/**
 * Faults that come from a framework's habit rather than from one line of the service's own code: each shows in
 * many requirements at once, and the reports must name it once as their root cause (lib/judging/root-causes.ts).
 */
import { isJsonObject, JsonNumber, type JsonValue } from '../../lib/http/json.js'
import { errorResponse } from '../../reference/handler.js'
import type { ServiceRequest, ServiceResponse } from '../../reference/http-types.js'
import { PetStore } from '../../reference/pet-store.js'
import { isCreatePet, isGetPet, isListPets, mapAnswers, mapJsonBody, rewritingNewPet, type Variant } from '../variant.js'

/** What JSON.parse and JSON.stringify make of a JSON text: every number through a double. */
function throughDoubles(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text))
  } catch {
    return text
  }
}

/** A pet answer (an object, or each item of a list) with `status: null` where the pet has no status. */
function nullForUnset(body: JsonValue): unknown {
  const one = (pet: JsonValue) => (isJsonObject(pet) && !('status' in pet) ? { ...pet, status: null } : pet)
  return Array.isArray(body) ? body.map(one) : one(body)
}

/**
 * DRF's content negotiation: the Accept's ranges by precedence (a full type before `type/*` before `*\/*`), q-values
 * ignored, and within the most specific set that a renderer matches, the JSON renderer first: HTML wins only where the
 * most specific ranges name text/html and not application/json.
 */
function prefersHtml(accept: string | undefined): boolean {
  const specific = (accept ?? '')
    .split(',')
    .map((range) => range.split(';')[0]?.trim().toLowerCase() ?? '')
    .filter((range) => range !== '' && !range.includes('*'))
  return specific.includes('text/html') && !specific.includes('application/json')
}

/** The answer as the browsable API renders it: an HTML page with the body inside. */
function asHtmlPage(answer: ServiceResponse): ServiceResponse {
  const escaped = answer.body.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  return { ...answer, headers: { ...answer.headers, 'content-type': 'text/html; charset=utf-8' }, body: `<!DOCTYPE html><html><body><pre>${escaped}</pre></body></html>` }
}

/**
 * The fields of a form body, urlencoded or multipart, as a framework's parameter reader takes them (scotty's `param`,
 * PHP's `$_REQUEST`, Flask's `request.values`): none for any other content.
 */
function formFields(request: { headers: Record<string, string | undefined>; body: string }): Array<[string, string]> {
  const type = (request.headers['content-type'] ?? '').toLowerCase()
  if (type.startsWith('application/x-www-form-urlencoded')) return [...new URLSearchParams(request.body)]
  if (!type.startsWith('multipart/form-data')) return []
  return [...request.body.matchAll(/Content-Disposition: form-data; name="([^"]*)"\r\n\r\n([^\r]*)\r\n/gi)].map(([, name = '', value = '']): [string, string] => [name, value])
}

/** Rack's own page for a request its parser refuses, written before any filter of the service runs (no Error body, no key read). */
const RACK_BAD_REQUEST: ServiceResponse = { status: 400, headers: { 'content-type': 'text/html' }, body: '<h1>Bad Request</h1>' }

/** A parameter's name in Rack's reading (of the name decoded): the name before its first bracket, and how many brackets follow. */
function rackName(name: string): { base: string; depth: number; bracketed: boolean } {
  const base = name.split('[')[0] ?? ''
  return { base, depth: (name.match(/\[/g) ?? []).length, bracketed: name.length > base.length }
}

/** The names of a request's query parameters, decoded, as Rack reads them. */
const queryNames = (request: ServiceRequest) => [...request.query.keys()].map(rackName)

/** Whether a text holds a `%` that starts no escape, which URI.decode_www_form_component refuses (Rack's "invalid %-encoding"). */
const hasMalformedEscape = (text: string) => /%(?![0-9A-Fa-f]{2})/.test(text)

export const frameworkHabitFaults: Variant[] = [
  {
    name: 'query-pairs-split-at-semicolons',
    description:
      "Netty's QueryStringDecoder (as Python's parse_qs before 3.9.2 and Perl's CGI.pm): the query's pairs are split at `;` as at `&`, so `status=sold;x` lists the sold pets and `limit=1;x` reads as limit 1",
    catches: ['listPets/status-spelled-otherwise'],
    provenByEdits: ['octet'],
    wrap: (reference) => async (request) => {
      const query = request.target?.split('?')[1]
      return query?.includes(';') ? reference({ ...request, query: new URLSearchParams(query.replaceAll(';', '&')) }) : reference(request)
    },
  },
  {
    name: 'integers-read-as-doubles',
    description:
      'a JavaScript service that reads and writes JSON with JSON.parse and JSON.stringify, and petId with Number(): every integer beyond 2^53 (its ids, from 2^62, categoryIds, path ids) is rounded to a double',
    catches: ['createPet/echoes-fields', 'createPet/round-trip-get', 'getPet/returns-pet'],
    store: () => new PetStore(2n ** 62n + 12_345n),
    wrap: (reference) => async (request) => {
      const petId = isGetPet(request) ? request.path.slice('/pets/'.length) : undefined
      const asDouble = petId !== undefined && /^-?\d+$/.test(petId) ? BigInt(Number(petId)).toString() : petId
      const read = {
        ...request,
        ...(asDouble !== undefined ? { path: `/pets/${asDouble}` } : {}),
        ...(isCreatePet(request) && request.body !== undefined ? { body: throughDoubles(request.body) } : {}),
      }
      const answer = await reference(read)
      return { ...answer, body: throughDoubles(answer.body) }
    },
  },
  {
    name: 'unset-status-written-as-null',
    description: 'a pet created without a status is shown with "status": null in the 201, the GET and the lists (a serializer that writes unset fields)',
    catches: ['createPet/body-schema', 'getPet/body-schema', 'listPets/body-schema'],
    wrap: mapAnswers((answer, request) =>
      (isCreatePet(request) && answer.status === 201) || ((isGetPet(request) || isListPets(request)) && answer.status === 200) ? mapJsonBody(answer, nullForUnset) : answer,
    ),
  },
  {
    name: 'body-types-coerced',
    description:
      'NewPet members are coerced to their schema types as ajv coerceTypes does (a framework default): "5" is read as the integer 5, a number or boolean name as a string',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) => {
      const coerced = { ...fields }
      if (typeof fields.categoryId === 'string' && /^-?\d+$/.test(fields.categoryId)) coerced.categoryId = new JsonNumber(fields.categoryId)
      if (fields.name instanceof JsonNumber) coerced.name = fields.name.text
      if (typeof fields.name === 'boolean') coerced.name = String(fields.name)
      return coerced
    }),
  },
  {
    name: 'charset-not-utf8-415',
    description:
      "Express's body-parser: a JSON body labelled with a charset other than UTF-8 (us-ascii, iso-8859-1) is answered 415 charset.unsupported, where RFC 8259 §11 gives a charset no effect (a SHOULD: the allowance other-charsets-refused-415 is the same refusal, declared)",
    catches: ['createPet/charset-label-ignored'],
    wrap: (reference) => async (request) => {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase()
      return request.method === 'POST' && charset !== undefined && charset !== 'utf-8' && charset !== 'utf8'
        ? errorResponse(415, 'charset.unsupported', `unsupported charset "${charset.toUpperCase()}"`)
        : reference(request)
    },
  },
  {
    name: 'request-charset-honoured',
    description:
      "Django's request.encoding: a JSON body is decoded by the charset its Content-Type names, so a UTF-8 name labelled iso-8859-1 or windows-1252 is stored as mojibake (café as cafÃ©), and one labelled us-ascii is refused 400",
    catches: ['createPet/equivalent-spellings'],
    wrap: (reference) => async (request) => {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase()
      if (!isCreatePet(request) || request.octets === undefined || charset === undefined || charset === 'utf-8' || charset === 'utf8') return reference(request)
      if (charset === 'us-ascii' || charset === 'ascii')
        return request.octets.some((octet) => octet > 0x7f) ? errorResponse(400, 'parse_error', 'JSON parse error: the body is not US-ASCII') : reference(request)
      return reference({ ...request, body: request.octets.toString('latin1') })
    },
  },
  {
    name: 'browsable-api-html',
    description:
      "Django REST framework's browsable API: an Accept whose most specific ranges name text/html and not application/json (a browser's, or text/html alone) gets every answer rendered as an HTML page, its 401s and 404s included",
    catches: ['listPets/equivalent-spellings', 'errors/body-schema'],
    wrap: mapAnswers((answer, request) => (prefersHtml(request.headers.accept) ? asHtmlPage(answer) : answer)),
  },
  {
    name: 'format-parameter-read',
    description:
      "Django REST framework's format override, before auth: ?format=api renders the browsable API's HTML page, and a format it does not know is answered 404 with an Error body",
    catches: ['auth/401-before-400', 'responses/json-content-type'],
    wrap: (reference) => async (request) => {
      const format = request.outside ? null : request.query.get('format')
      if (format === null || format === 'json') return reference(request)
      return format === 'api' ? asHtmlPage(await reference(request)) : errorResponse(404, 'not_found', 'Not found.')
    },
  },
  {
    name: 'every-error-400',
    description: "every error is answered 400 by the framework's default error handler, a missing key and an unknown pet included (Error status 400)",
    catches: ['auth/missing-key-401', 'getPet/unknown-id-404'],
    wrap: mapAnswers((answer) =>
      answer.status >= 400 && answer.status < 500 && answer.status !== 400 ? errorResponse(400, 'bad_request', 'the request could not be served') : answer,
    ),
  },
  {
    name: 'connection-dropped-after-errors',
    description: 'the connection is closed 30 ms after every 4xx answer, without Connection: close; a request sent on it meanwhile gets no answer',
    catches: ['responses/close-announced'],
    wrap: mapAnswers((answer) => (answer.status >= 400 && answer.status < 500 ? { ...answer, delivery: { ...answer.delivery, dropConnectionAfterMs: 30 } } : answer)),
  },
  {
    name: 'get-form-content-overrides-query',
    description:
      "a list request's form content (urlencoded or multipart) is read as parameters over its query, as scotty's param reads captures, then form fields, then the query: GET /pets?limit=2 with limit=5 in the content lists five",
    catches: ['listPets/limit-caps-size', 'listPets/status-filter-matches'],
    provenByEdits: ['add-content'],
    wrap: (reference) => async (request) => {
      const fields = isListPets(request) ? formFields(request) : []
      if (fields.length === 0) return reference(request)
      const query = new URLSearchParams(request.query)
      for (const [name, value] of fields) query.set(name, value)
      return reference({ ...request, query })
    },
  },
  {
    name: 'get-content-read-under-query',
    description:
      'a list request\'s content, form or JSON, is merged into its parameters with the query winning, as Rails\' params does: GET /pets with {"limit":100} in the content lists 100 where the query names no limit',
    catches: ['listPets/limit-caps-size', 'listPets/status-filter-matches'],
    provenByEdits: ['add-content'],
    wrap: (reference) => async (request) => {
      if (!isListPets(request)) return reference(request)
      let fields = formFields(request)
      if (fields.length === 0 && (request.headers['content-type'] ?? '').startsWith('application/json')) {
        try {
          const content: unknown = JSON.parse(request.body)
          if (typeof content === 'object' && content !== null) fields = Object.entries(content).map(([name, value]): [string, string] => [name, String(value)])
        } catch {
          fields = []
        }
      }
      const query = new URLSearchParams(request.query)
      for (const [name, value] of fields) if (!query.has(name)) query.set(name, value)
      return reference({ ...request, query })
    },
  },
  {
    name: 'query-name-as-string-and-array-refused-bare',
    description:
      'Rack parses the query before any route or filter: a name given plain and in the array form (status=sold&status[]=sold) raises a ParameterTypeError, and Sinatra answers its own HTML 400 before the key is read',
    catches: ['auth/401-before-400', 'errors/body-schema'],
    provenByEdits: ['bracket-name'],
    wrap: (reference) => async (request) => {
      const names = queryNames(request)
      const plain = new Set(names.filter((name) => !name.bracketed).map((name) => name.base))
      return names.some((name) => name.bracketed && plain.has(name.base)) ? RACK_BAD_REQUEST : reference(request)
    },
  },
  {
    name: 'deep-query-names-answered-500',
    description:
      'Rack parses the query before any route or filter: a name nested more than 32 brackets deep raises ParamsTooDeepError, which nothing rescues, and the service answers 500',
    catches: ['responses/no-server-error'],
    provenByEdits: ['bracket-name'],
    wrap: (reference) => async (request) =>
      queryNames(request).some((name) => name.depth > 32) ? { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>Internal Server Error</h1>' } : reference(request),
  },
  {
    name: 'unlabelled-body-read-as-form',
    description:
      'Rack reads a POST body without a Content-Type (or labelled as a form) as form fields before any filter: a JSON NewPet whose name holds a `%` is a malformed form, and Sinatra answers its own HTML 400 before the key is read',
    catches: ['auth/401-before-400', 'createPet/request-media-types'],
    wrap: (reference) => async (request) => {
      const label = (request.headers['content-type'] ?? '').toLowerCase()
      const readAsForm = request.method === 'POST' && (label === '' || label.startsWith('application/x-www-form-urlencoded'))
      return readAsForm && hasMalformedEscape(request.body) ? RACK_BAD_REQUEST : reference(request)
    },
  },
  {
    name: 'list-query-read-as-path-parameter',
    description:
      "the list and the read of one pet are one handler whose parameters come from the path and the query alike, as CherryPy's MethodDispatcher passes them: GET /pets?petId=2 answers pet 2, an object where a list belongs",
    catches: ['listPets/body-schema'],
    wrap: (reference) => async (request) => {
      const id = isListPets(request) ? (request.query.get('petId') ?? request.query.get('id')) : null
      return id === null ? reference(request) : reference({ ...request, path: `/pets/${id}`, query: new URLSearchParams() })
    },
  },
  {
    name: 'get-json-content-merged-over-path',
    description: 'a read of one pet takes its id from the JSON content before the path, as `{ ...req.params, ...req.body }` does: GET /pets/4 with {"id":3} answers pet 3',
    catches: ['getPet/returns-pet'],
    provenByEdits: ['add-content'],
    wrap: (reference) => async (request) => {
      if (!isGetPet(request) || !(request.headers['content-type'] ?? '').startsWith('application/json')) return reference(request)
      let content: unknown
      try {
        content = JSON.parse(request.body)
      } catch {
        return reference(request)
      }
      const id = typeof content === 'object' && content !== null ? ((content as Record<string, unknown>).id ?? (content as Record<string, unknown>).petId) : undefined
      return id === undefined ? reference(request) : reference({ ...request, path: `/pets/${String(id)}` })
    },
  },
  {
    name: 'forwarded-ssl-refused-as-contradictory',
    description:
      "gunicorn behind nginx: nginx sets X-Forwarded-Proto: http and passes the client's X-Forwarded-Ssl through, and gunicorn, which trusts both from the proxy, answers 400 'Contradictory scheme headers' in HTML before the service, key or none",
    catches: ['errors/body-schema', 'responses/json-content-type', 'auth/missing-key-401'],
    provenByEdits: ['add-field'],
    wrap: (reference) => async (request) =>
      request.headers['x-forwarded-ssl'] === undefined
        ? reference(request)
        : { status: 400, headers: { 'content-type': 'text/html' }, body: '<html><body><h1><p>Bad Request</p></h1>Contradictory scheme headers</body></html>' },
  },
  {
    name: 'edge-413-page-past-1-mib',
    description: "nginx's client_max_body_size 1m in front, left with its own error pages: a body over 1 MiB gets nginx's 413 page in HTML, before the service reads it",
    catches: ['createPet/invalid-body-400'],
    wrap: (reference) => async (request) =>
      Buffer.byteLength(request.body) > 1024 * 1024
        ? {
            status: 413,
            headers: { 'content-type': 'text/html' },
            body: '<html><head><title>413 Request Entity Too Large</title></head><body><center><h1>413 Request Entity Too Large</h1></center><hr><center>nginx</center></body></html>',
          }
        : reference(request),
  },
  {
    name: 'pets-kept-in-a-plain-object',
    description:
      "the store is a plain object indexed by the path's id, as `pets[c.req.param('petId')]` does: GET /pets/__proto__ and /pets/constructor find something, and answer 200 with {}",
    catches: ['getPet/invalid-id'],
    wrap: (reference) => async (request) =>
      isGetPet(request) && ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'].includes(request.path.slice('/pets/'.length))
        ? { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }
        : reference(request),
  },
  {
    name: 'status-checked-against-an-object',
    description:
      "a NewPet's status is checked as `Boolean(STATUSES[s])` against a plain object of the statuses: constructor, toString and __proto__ pass, and a pet of status constructor is created",
    catches: ['createPet/invalid-body-400', 'createPet/invalid-body-not-created'],
    wrap: rewritingNewPet((fields) => (fields.status === 'constructor' || fields.status === 'toString' ? { ...fields, status: 'available', storedAs: fields.status } : fields)),
  },
]
