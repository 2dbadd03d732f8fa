/** Faults of what every answer must be: Error bodies that are almost right, media types, server errors. */
import { isJsonObject, JsonNumber } from '../../lib/http/json.js'
import { errorResponse } from '../../reference/handler.js'
import type { ServiceRequest } from '../../reference/http-types.js'
import { isCreatePet, isGetPet, isListPets, mapAnswers, mapJsonBody, type Variant, withHeader, withoutHeader } from '../variant.js'

/** Error bodies rewritten by `map`: of every error answer, or of those of one status. */
const mapErrorBody = (map: (body: Record<string, unknown>) => Record<string, unknown>, only?: number) =>
  mapAnswers((answer) => (answer.status >= 400 && (only === undefined || answer.status === only) ? mapJsonBody(answer, (body) => (isJsonObject(body) ? map(body) : body)) : answer))

/**
 * A 404 or 405 of the router (no route of the spec's matched), to a request whose Accept does not name JSON: what a
 * renderer guarded by Laravel's `expectsJson()` lets the framework's own page answer.
 */
function routerErrorNotAskedInJson(answer: { status: number }, request: ServiceRequest): boolean {
  const routed = isListPets(request) || isCreatePet(request) || isGetPet(request) || request.method === 'HEAD'
  return (answer.status === 404 || answer.status === 405) && !routed && !(request.headers.accept ?? '').toLowerCase().includes('json')
}

export const errorsAndResponsesFaults: Variant[] = [
  {
    name: 'router-errors-html-unless-json-asked',
    description:
      "the router's own 404 and 405 pages answer in HTML unless the request's Accept names JSON (a renderer guarded by Laravel's expectsJson()): with `Accept: */*` or a browser's, an unknown path or method gets text/html",
    catches: ['errors/body-schema'],
    wrap: mapAnswers((answer, request) =>
      routerErrorNotAskedInJson(answer, request)
        ? { status: answer.status, headers: { 'content-type': 'text/html; charset=utf-8' }, body: `<!DOCTYPE html><html><body><h1>${answer.status}</h1></body></html>` }
        : answer,
    ),
  },
  {
    name: 'router-errors-500-unless-json-asked',
    description: "the router's own 404 and 405 become 500 unless the request's Accept names JSON (a catch-all handler behind a renderer guarded by expectsJson())",
    catches: ['responses/no-server-error'],
    wrap: mapAnswers((answer, request) => (routerErrorNotAskedInJson(answer, request) ? errorResponse(500, 'internal', 'Server Error') : answer)),
  },
  {
    name: 'plain-json-labelled-gzip',
    description: 'every answer says Content-Encoding: gzip, but its body is the plain JSON',
    catches: ['listPets/returns-pets', 'responses/json-content-type'],
    wrap: mapAnswers((answer) => withHeader(answer, 'content-encoding', 'gzip')),
  },
  {
    name: 'error-without-status',
    description: 'Error bodies lack the status field',
    catches: ['errors/body-schema'],
    wrap: mapErrorBody(({ status: _dropped, ...rest }) => rest),
  },
  {
    name: 'error-status-as-string',
    description: 'Error bodies write status as a string ("404")',
    catches: ['errors/body-schema'],
    wrap: mapErrorBody((body) => ({ ...body, status: body.status instanceof JsonNumber ? body.status.text : body.status })),
  },
  {
    name: 'error-code-numeric',
    description: 'Error bodies give code as a number',
    catches: ['errors/body-schema'],
    wrap: mapErrorBody((body) => ({ ...body, code: 1001 })),
  },
  {
    name: 'error-message-missing',
    description: 'Error bodies lack the message field',
    catches: ['errors/body-schema'],
    wrap: mapErrorBody(({ message: _dropped, ...rest }) => rest),
  },
  {
    name: 'error-status-always-400',
    description: 'Error bodies say status 400 whatever the HTTP status',
    catches: ['errors/status-matches-http'],
    wrap: mapErrorBody((body) => ({ ...body, status: 400 })),
  },
  {
    name: 'method-not-allowed-status-400',
    description: "the 405 to a method a path does not have comes from the framework's own handler, whose Error body says status 400; every other error body is right",
    catches: ['errors/status-matches-http'],
    onlyCatches: true,
    provenByEdits: ['other-method'],
    wrap: mapErrorBody((body) => ({ ...body, status: 400 }), 405),
  },
  {
    name: 'error-labelled-problem-json',
    description: 'Error bodies are labelled application/problem+json',
    catches: ['responses/json-content-type'],
    wrap: mapAnswers((answer) => (answer.status >= 400 ? { ...answer, headers: { ...answer.headers, 'content-type': 'application/problem+json' } } : answer)),
  },
  {
    name: 'list-labelled-text-plain',
    description: 'GET /pets labels its JSON text/plain',
    catches: ['responses/json-content-type'],
    wrap: mapAnswers((answer, request) => (isListPets(request) ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain' } } : answer)),
  },
  {
    name: 'created-without-content-type',
    description: 'the 201 answer of POST /pets has no Content-Type',
    catches: ['responses/json-content-type'],
    wrap: mapAnswers((answer, request) => (isCreatePet(request) && answer.status === 201 ? withoutHeader(answer, 'content-type') : answer)),
  },
  {
    name: 'list-500-when-store-large',
    description: 'GET /pets?limit=100 fails with 500 once the store holds more than 100 pets',
    catches: ['responses/no-server-error', 'listPets/limit-max-100'],
    wrap:
      (reference, { store }) =>
      async (request) => {
        const answer = await reference(request)
        return isListPets(request) && answer.status === 200 && request.query.get('limit') === '100' && store.size > 100 ? errorResponse(500, 'internal', 'page overflow') : answer
      },
  },
]
