/**
 * Faults that come from a framework's habit rather than from one line of the service's own code: each shows in
 * many requirements at once, and the reports must name it once as their root cause (lib/judging/root-causes.ts).
 */
import { isJsonObject, JsonNumber, type JsonValue } from '../../lib/http/json.js'
import { errorResponse } from '../../reference/handler.js'
import type { ServiceResponse } from '../../reference/http-types.js'
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

export const frameworkHabitFaults: Variant[] = [
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
    description: "Express's body-parser: a JSON body labelled with a charset other than UTF-8 (us-ascii, iso-8859-1) is answered 415 charset.unsupported",
    catches: ['createPet/equivalent-spellings'],
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
]
