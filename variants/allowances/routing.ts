/**
 * How a conformant service's router, and an edge in front of it, may answer what the spec does not name: paths
 * outside the base path, other spellings of a path, other methods. Without the key none of it may give a 2xx or pet
 * data; with it, a path or method the spec does not name is held to the invariants only.
 */
import { bearerToken, errorResponse } from '../../reference/handler.js'
import type { Handler, ServiceRequest, ServiceResponse } from '../../reference/http-types.js'
import type { Allowance } from './allowance.js'

const KEY_ELSEWHERE = { policy: 'the key in other places' } as const
const KEY_ELSEWHERE_WORDS = 'Any other answer that holds no pet data passes: 401, 404 or 405 for a path the service does not serve, or a redirect within the service (not followed)'
const UNNAMED = { policy: 'no 2xx and no pet data without a valid Bearer key' } as const
const UNNAMED_WORDS = 'a path or method the spec does not name is held to the invariants: no 2xx and no pet data without the key, never a 5xx'

/** The request-target's path as it came, nothing decoded, and its segments. */
function rawSegments(request: ServiceRequest): string[] {
  return (request.rawTarget ?? '').split('?')[0]?.split('/').slice(1) ?? []
}

/** A path of the spec's routes, as the reference's router reads it (base path `/v1`, escapes of unreserved octets decoded). */
const isRoute = (request: ServiceRequest) => !request.outside && request.basePath === '/v1' && (request.path === '/pets' || /^\/pets\/[^/]+$/.test(request.path))

/** The methods each route has (HEAD beside GET, as every general-purpose server has it: RFC 9110 §9.1). */
const methodsOf = (request: ServiceRequest) => (request.path === '/pets' ? ['GET', 'HEAD', 'POST'] : ['GET', 'HEAD'])

/** The methods Node's HTTP parser (llhttp) reads: any other token is refused by the HTTP layer before a handler runs. */
const PARSED_METHODS = new Set([
  'DELETE',
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'COPY',
  'LOCK',
  'MKCOL',
  'MOVE',
  'PROPFIND',
  'PROPPATCH',
  'SEARCH',
  'UNLOCK',
  'BIND',
  'REBIND',
  'UNBIND',
  'ACL',
  'REPORT',
  'MKACTIVITY',
  'CHECKOUT',
  'MERGE',
  'M-SEARCH',
  'NOTIFY',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'PATCH',
  'PURGE',
  'MKCALENDAR',
  'LINK',
  'UNLINK',
  'SOURCE',
  'QUERY',
])

/** The request with another path below the base path (and the base path as the interface spells it). */
const routedTo = (request: ServiceRequest, path: string): ServiceRequest => ({ ...request, basePath: '/v1', path })

const html404: ServiceResponse = {
  status: 404,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: '<html><head><title>404 Not Found</title></head><body><center><h1>404 Not Found</h1></center><hr><center>edge</center></body></html>',
}

/** A router that rewrites the path it routes on, for requests under the base path in any spelling. */
function routesOn(rewrite: (request: ServiceRequest) => ServiceRequest): (inner: Handler) => Handler {
  return (inner) => async (request) => (request.outside ? inner(request) : inner(rewrite(request)))
}

export const routingAllowances: Allowance[] = [
  {
    id: 'edge-html-404-outside-base',
    does: 'an edge proxy in front forwards only request-targets that begin /v1/ as written (letter case and escapes included) and answers anything else with its own HTML 404',
    source: { policy: 'equivalent spellings' },
    allowedBy:
      "SHOULD only: the same in the fixed segments of the path (`/v1/%70ets`, and the base URL's own segments: `/%76%31/pets`), since many routers and edge proxies match the path undecoded",
    layer: 'edge',
    // An absolute-form target does not begin /v1/ either: a form HTTP/1.1 defines, refused (responses/message-forms).
    warns: ['listPets/path-spelling-equivalent', 'responses/message-forms'],
    server: { everyPath: true },
    wrap: (inner) => async (request) => ((request.rawTarget ?? '').startsWith('/v1/') ? inner(request) : html404),
  },
  {
    id: 'unknown-paths-404-before-auth',
    does: 'the router answers 404 with an Error body to any path it does not serve (a trailing slash, another letter case, …) before auth runs',
    source: KEY_ELSEWHERE,
    allowedBy: KEY_ELSEWHERE_WORDS,
    layer: 'router',
    wrap: (inner) => async (request) => (isRoute(request) ? inner(request) : errorResponse(404, 'not_found', 'no such path')),
  },
  {
    id: 'trailing-slash-redirect',
    does: 'a path with a trailing slash is redirected (301) to the path without it, before auth runs',
    source: KEY_ELSEWHERE,
    allowedBy: KEY_ELSEWHERE_WORDS,
    layer: 'router',
    group: 'trailing slash',
    wrap: (inner) => async (request) =>
      !request.outside && request.path.length > 1 && request.path.endsWith('/')
        ? { status: 301, headers: { location: `/v1${request.path.slice(0, -1)}`, 'content-type': 'text/plain' }, body: 'Moved Permanently' }
        : inner(request),
  },
  {
    id: 'trailing-slash-served',
    does: 'a path with a trailing slash is served as the path without it (non-strict routing, as in Express)',
    source: UNNAMED,
    allowedBy: UNNAMED_WORDS,
    layer: 'router',
    group: 'trailing slash',
    wrap: routesOn((request) => (request.path.length > 1 && request.path.endsWith('/') ? routedTo(request, request.path.slice(0, -1)) : request)),
  },
  {
    id: 'paths-case-insensitive',
    does: 'paths are routed in any letter case (/V1/PETS is /v1/pets), as ASP.NET routes',
    source: UNNAMED,
    allowedBy: UNNAMED_WORDS,
    layer: 'router',
    wrap: routesOn((request) => routedTo(request, request.path.replace(/^\/pets(?=\/|$)/i, '/pets'))),
  },
  {
    id: 'slashes-merged',
    does: 'repeated slashes in a path are merged before routing (/v1//pets is /v1/pets), as nginx does',
    source: UNNAMED,
    allowedBy: UNNAMED_WORDS,
    layer: 'router',
    wrap: routesOn((request) => (request.path.includes('//') ? { ...request, path: request.path.replace(/\/{2,}/g, '/') } : request)),
  },
  {
    id: 'path-parameters-removed',
    does: 'each path segment’s parameters, from a `;` on, are taken off before routing, as a servlet container does (Tomcat, Jetty): /v1/pets/30; and /v1/pets/30;x=1 are pet 30, /v1/pets/3;0 pet 3',
    source: { rfc: 'RFC 3986 §3.3' },
    allowedBy: 'the semicolon is often used to delimit parameters applicable to that segment: a reading of the id, recorded (INFO), never another pet than the one it names',
    layer: 'router',
    wrap: routesOn((request) => (request.path.includes(';') ? { ...request, path: request.path.replace(/;[^/]*/g, '') } : request)),
  },
  {
    id: 'fixed-segments-matched-undecoded',
    does: 'the router matches the path as written: /v1/%70ets or /%76%31/pets is no route, answered 404 with an Error body before auth',
    source: { policy: 'equivalent spellings' },
    allowedBy: 'SHOULD only: the same in the fixed segments of the path … since many routers and edge proxies match the path undecoded',
    layer: 'router',
    warns: ['listPets/path-spelling-equivalent'],
    wrap: (inner) => async (request) => {
      const [base, pets] = rawSegments(request)
      const spelledOtherwise = (raw: string | undefined) => raw?.includes('%') === true
      return !request.outside && (spelledOtherwise(base) || spelledOtherwise(pets)) ? errorResponse(404, 'not_found', 'no such path') : inner(request)
    },
  },
  {
    id: 'hosts-not-served-refused-400',
    does: "a Host other than the ones the service serves (127.0.0.1 or localhost, any port, any letter case): empty, spelled with escapes, with an octet more, is refused with Django's own HTML 400 page before auth runs, as ALLOWED_HOSTS does",
    source: { rfc: 'RFC 9110 §7.4' },
    allowedBy: 'a server may refuse a request whose target authority it does not serve (RFC 9110 §7.4: 421); an http URI with an empty host MUST be rejected as invalid (§4.2.1)',
    layer: 'router',
    wrap: (inner) => async (request) => {
      const host = request.headers.host
      const name = host?.toLowerCase().replace(/:\d+$/, '')
      // Django's own page for a DisallowedHost, which no handler of the service writes.
      return host === undefined || name === '127.0.0.1' || name === 'localhost'
        ? inner(request)
        : {
            status: 400,
            headers: { 'content-type': 'text/html' },
            body: '<!doctype html><html lang="en"><head><title>Bad Request (400)</title></head><body><h1>Bad Request (400)</h1><p></p></body></html>',
          }
    },
  },
  {
    id: 'other-methods-405-before-auth',
    does: 'a method a route does not have (PUT, DELETE, an unknown token) is answered 405 with Allow and an Error body, before auth runs',
    source: { rfc: 'RFC 9110 §15.5.6' },
    allowedBy: 'a method the spec does not name is held to the invariants (405 for a path the service does not serve that way passes without the key)',
    layer: 'router',
    group: 'other methods',
    wrap: (inner) => async (request) =>
      isRoute(request) && !methodsOf(request).includes(request.method)
        ? errorResponse(405, 'method_not_allowed', `${request.method} is not allowed here`, { allow: methodsOf(request).join(', ') })
        : inner(request),
  },
  {
    id: 'other-methods-404-before-auth',
    does: 'the router matches method and path together: a method a route does not have is answered 404 with an Error body, before auth runs (as Fastify does)',
    source: KEY_ELSEWHERE,
    allowedBy: KEY_ELSEWHERE_WORDS,
    layer: 'router',
    group: 'other methods',
    wrap: (inner) => async (request) => (isRoute(request) && !methodsOf(request).includes(request.method) ? errorResponse(404, 'not_found', 'no such route') : inner(request)),
  },
  {
    id: 'head-served-as-get',
    does: 'HEAD is answered as GET would be, without the body (RFC 9110 §9.3.2), the key rule included',
    source: { rfc: 'RFC 9110 §9.3.2' },
    allowedBy: 'The server SHOULD send the same header fields in response to a HEAD request as it would have sent if the request method had been GET',
    layer: 'router',
    wrap: (inner) => async (request) => (request.method === 'HEAD' ? inner({ ...request, method: 'GET' }) : inner(request)),
  },
  {
    id: 'head-refused-405',
    does: 'HEAD has no route of its own: it is answered 405 with Allow: GET and an Error body, after auth (a hand-rolled router)',
    source: { rfc: 'RFC 9110 §9.1' },
    allowedBy: 'no policy row: HEAD answered as GET is a SHOULD of the suite (responses/head-as-get), whose departure warns',
    layer: 'router',
    group: 'HEAD',
    warns: ['responses/head-as-get'],
    wrap:
      (inner, { apiKey }) =>
      async (request) =>
        request.method === 'HEAD' && !request.outside && bearerToken(request.headers.authorization) === apiKey
          ? errorResponse(405, 'method_not_allowed', 'HEAD is not allowed here', {
              allow: methodsOf(request)
                .filter((method) => method !== 'HEAD')
                .join(', '),
            })
          : inner(request),
  },
  {
    id: 'unknown-methods-refused-by-the-http-layer',
    does: "a method token the HTTP parser does not know (FETCH, XGET, MKREDIRECTREF) is answered 400 with no body and the connection closed, before any handler runs (Node's llhttp)",
    source: { rfc: 'RFC 9110 §9.1' },
    allowedBy: 'a method the spec does not name is held to the invariants: 400, 404, 405 or 501 answer it, in the HTTP layer’s own words',
    layer: 'router',
    wrap: (inner) => async (request) => (PARSED_METHODS.has(request.method) ? inner(request) : { status: 400, headers: {}, body: '', delivery: { closeConnection: true } }),
  },
  {
    id: 'lower-case-methods-served',
    does: 'a method in another letter case (get, Post) is served as the method it spells',
    source: UNNAMED,
    allowedBy: 'RFC 9110 §9.1 makes methods case-sensitive; the policy only holds such a request to the invariants',
    layer: 'router',
    wrap: (inner) => async (request) => inner(/^(get|post)$/i.test(request.method) ? { ...request, method: request.method.toUpperCase() } : request),
  },
]
