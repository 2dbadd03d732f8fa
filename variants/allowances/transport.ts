/** How a conformant service's HTTP server may deliver its answers (RFC 9110, RFC 9112), and how it may ask a client to slow down. */
import { errorResponse } from '../../reference/handler.js'
import type { Handler, ServiceRequest, ServiceResponse } from '../../reference/http-types.js'
import { fieldValuesAsSent, mapAnswers } from '../variant.js'
import type { Allowance } from './allowance.js'

/** Every answer delivered another way. */
function delivered(delivery: NonNullable<ServiceResponse['delivery']>): Allowance['wrap'] {
  return mapAnswers((answer) => ({ ...answer, delivery: { ...answer.delivery, ...delivery } }))
}

function encodedWith(codings: NonNullable<NonNullable<ServiceResponse['delivery']>['codings']>): Allowance {
  const names = codings.join(', ')
  return {
    id: `${codings.join('-then-')}-encoded-answers`,
    does: `every answer is sent with Content-Encoding: ${names}, asked for or not`,
    source: { rfc: 'RFC 9110 §12.5.3' },
    allowedBy: 'If no Accept-Encoding header field is in the request, any content coding is considered acceptable by the user agent',
    layer: 'transport',
    group: 'coding',
    wrap: delivered({ codings }),
  }
}

const RATE_LIMITS = { policy: 'rate limits' } as const
const RATE_LIMITS_WORDS = 'a 429 or 503 with `Retry-After` is honoured and retried a bounded number of times … it is not a conformance failure unless retries run out'

/** Every `period`-th request is turned away with `status` and Retry-After: 1, before the service sees it. */
function turnsAwayEvery(period: number, status: 429 | 503): (inner: Handler) => Handler {
  return (inner) => {
    let requests = 0
    return async (request) => {
      requests += 1
      if (requests % period !== 0) return inner(request)
      return errorResponse(status, status === 429 ? 'rate_limited' : 'unavailable', 'try again shortly', { 'retry-after': '1' })
    }
  }
}

/**
 * A limit on the requests handled at once, as chi's Throttle and nginx's limit_conn keep: past `limit` in flight, a
 * request is turned away at once with 429, Retry-After: 1 and the middleware's own text. Each request is held `holdMs`
 * (a database's round trip), so that a client's concurrent requests are in flight together, as they are at a real service.
 */
function admitsAtMost(limit: number, holdMs: number): (inner: Handler) => Handler {
  return (inner) => {
    let inFlight = 0
    return async (request) => {
      if (inFlight >= limit) {
        return { status: 429, headers: { 'content-type': 'text/plain; charset=utf-8', 'retry-after': '1' }, body: 'Timed out while waiting for a pending request to complete.' }
      }
      inFlight += 1
      try {
        await new Promise((resolve) => setTimeout(resolve, holdMs))
        return await inner(request)
      } finally {
        inFlight -= 1
      }
    }
  }
}

/** How long the HTTP-date rate limiter stays open after it reopens: longer than a retry that waited as told (its wait plus a second) takes to come. */
const OPEN_AT_LEAST_MS = 3_000

/**
 * A rate limiter that answers in HTTP dates, on a clock `skewMs` off from this machine's: after every `period`
 * requests it served, it closes until the start of the second after next (its clock), and answers every request
 * until then 429 with `Retry-After: <that second, as an HTTP date>` and `Date: <its now>`. Once open again it stays
 * open for at least OPEN_AT_LEAST_MS, so a client that waits as long as it is told gets through at its first retry.
 */
function rateLimitedInHttpDates(period: number, skewMs: number): (inner: Handler) => Handler {
  return (inner) => {
    let served = 0
    let closedUntil = 0
    return async (request) => {
      const now = Date.now() + skewMs
      if (now < closedUntil) {
        return errorResponse(429, 'rate_limited', 'try again at the time given', { 'retry-after': new Date(closedUntil).toUTCString(), date: new Date(now).toUTCString() })
      }
      served += 1
      if (served % period === 0 && now >= closedUntil + OPEN_AT_LEAST_MS) closedUntil = Math.ceil(now / 1000) * 1000 + 1000
      return inner(request)
    }
  }
}

/**
 * A rate limiter that closes for a second or two after every `period`-th GET it served: until the start of the second
 * after next, every request is answered 429 with `Retry-After: <that second, as an HTTP date>` and `Date`. It promises
 * nothing once open again: only a client that pauses every request (RFC 9110 §10.2.3) gets through.
 */
function closesAfterEveryGets(period: number): (inner: Handler) => Handler {
  return (inner) => {
    let gets = 0
    let closedUntil = 0
    return async (request) => {
      const now = Date.now()
      if (now < closedUntil) {
        return errorResponse(429, 'rate_limited', 'try again at the time given', { 'retry-after': new Date(closedUntil).toUTCString(), date: new Date(now).toUTCString() })
      }
      if (request.method === 'GET') {
        gets += 1
        if (gets % period === 0) closedUntil = Math.ceil(now / 1000) * 1000 + 1000
      }
      return inner(request)
    }
  }
}

/** The octets Go's net/http takes in a Host field (httpguts.ValidHostHeader): letters, digits and `!$%&'()*+,-.:;=[]_~`. */
const GO_HOST_OCTETS = /^[A-Za-z0-9!$%&'()*+,\-.:;=[\]_~]*$/

/** The HTTP layer's own 400, in its own words, and the connection closed, before any handler runs: for a request it `refuses`. */
function refusedByTheHttpLayer(refuses: (request: ServiceRequest) => boolean, contentType: string, body: string): Allowance['wrap'] {
  return (inner) => async (request) => (refuses(request) ? { status: 400, headers: { 'content-type': contentType }, body, delivery: { closeConnection: true } } : inner(request))
}

export const transportAllowances: Allowance[] = [
  {
    id: 'request-line-limit-4094',
    does: "the HTTP server refuses a request line over 4,094 octets with its own 400 in HTML and closes, before any handler runs (gunicorn's limit_request_line)",
    source: { rfc: 'RFC 9112 §3' },
    allowedBy:
      'A server that receives a request-target longer than any URI it wishes to parse MUST respond with a 414 (URI Too Long) status code; 8,000 octets is only RECOMMENDED',
    layer: 'edge',
    wrap: refusedByTheHttpLayer(
      (request) => `${request.method} ${request.rawTarget ?? ''} HTTP/${request.httpVersion ?? '1.1'}`.length > 4_094,
      'text/html',
      '<html><head><title>Bad Request</title></head><body><h1><p>Bad Request</p></h1>Request Line is too large</body></html>',
    ),
  },
  {
    id: 'http-layer-refuses-malformed-host',
    does: 'the HTTP server answers a request whose Host holds an octet no host has with its own 400 in plain text and closes, before any handler runs (as Go net/http does)',
    source: { rfc: 'RFC 9112 §3.2' },
    allowedBy: 'A server MUST respond with a 400 (Bad Request) status code to any request message that contains … a Host header field with an invalid field value',
    layer: 'edge',
    wrap: refusedByTheHttpLayer((request) => !GO_HOST_OCTETS.test(request.headers.host ?? ''), 'text/plain; charset=utf-8', '400 Bad Request: malformed Host header'),
  },
  {
    id: 'http-layer-refuses-doubled-content-type',
    does: 'the HTTP server answers a request that gives Content-Type twice with its own 400 page in HTML and closes, before any handler reads the key (as lighttpd does)',
    source: { rfc: 'RFC 9110 §5.3, §2.2' },
    allowedBy:
      "A sender MUST NOT generate multiple field lines with the same name in a message … unless … the field's definition allows multiple field line values; Unless noted otherwise, a recipient MAY attempt to recover a usable protocol element from an invalid construct",
    layer: 'edge',
    wrap: refusedByTheHttpLayer(
      (request) => fieldValuesAsSent(request, 'content-type').length > 1,
      'text/html',
      '<?xml version="1.0" encoding="iso-8859-1"?>\n<!DOCTYPE html>\n<html><head><title>400 Bad Request</title></head><body><h1>400 Bad Request</h1></body></html>\n',
    ),
  },
  {
    id: 'connection-close',
    does: 'every answer closes the connection (no keep-alive)',
    source: { rfc: 'RFC 9112 §9.6' },
    allowedBy: 'A server that does not support persistent connections MUST send the "close" connection option in every response',
    layer: 'transport',
    group: 'connection',
    wrap: delivered({ closeConnection: true }),
  },
  {
    id: 'idle-connections-closed-after-900ms',
    does: "a connection idle for 0.9 s is closed without a word (no Keep-Alive hint): Starman's default keep-alive timeout of 1 s, whose closes a run saw 915 ms to 1 s after an answer (gunicorn's is 2 s)",
    source: { rfc: 'RFC 9112 §9.5' },
    allowedBy: 'A client, server, or proxy MAY close the transport connection at any time',
    layer: 'transport',
    group: 'connection',
    server: { idleCloseMs: 900 },
  },
  {
    id: 'idle-connections-closed-after-500ms',
    does: "a connection idle for 0.5 s is closed without a word (no Keep-Alive hint): civetweb's default keep_alive_timeout_ms of 500",
    source: { rfc: 'RFC 9112 §9.5' },
    allowedBy: 'A client, server, or proxy MAY close the transport connection at any time',
    layer: 'transport',
    group: 'connection',
    server: { idleCloseMs: 500 },
  },
  {
    id: 'chunked-bodies',
    does: 'every body is sent chunked, in two chunks, without Content-Length',
    source: { rfc: 'RFC 9112 §7.1' },
    allowedBy: 'The chunked transfer coding wraps content in order to transfer it as a series of chunks',
    layer: 'transport',
    group: 'framing',
    wrap: delivered({ chunked: true }),
  },
  {
    id: 'many-small-chunks',
    does: 'every body is sent chunked in 16 chunks, each written on its own turn of the event loop',
    source: { rfc: 'RFC 9112 §7.1' },
    allowedBy: 'a series of chunks, each with its own size indicator',
    layer: 'transport',
    group: 'framing',
    wrap: delivered({ chunks: 16 }),
  },
  {
    id: 'chunked-with-trailers',
    does: 'every body is sent chunked and followed by trailer fields (a checksum, a timing)',
    source: { rfc: 'RFC 9112 §7.1.2' },
    allowedBy: 'A trailer section allows the sender to include additional fields at the end of a chunked message',
    layer: 'transport',
    group: 'framing',
    wrap: delivered({ trailers: { 'x-checksum': 'sha256-abc', 'server-timing': 'db;dur=1' } }),
  },
  {
    id: 'chunked-requests-refused-411',
    does: 'a proxy in front takes request bodies by Content-Length only: a chunked request body is answered 411 Length Required with its own HTML page',
    source: { rfc: 'RFC 9110 §15.5.12' },
    allowedBy: 'no policy row: a chunked request answered as the plain one is a SHOULD of the suite (responses/message-forms), whose departure warns',
    layer: 'edge',
    warns: ['responses/message-forms'],
    wrap: (inner) => async (request) =>
      request.headers['transfer-encoding'] !== undefined
        ? { status: 411, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>411 Length Required</h1></body></html>' }
        : inner(request),
  },
  {
    id: 'absolute-form-routed-as-written',
    does: 'the router matches the request-target as written, so an absolute-form target (http://host/v1/pets) is no route: 404 with an Error body, before auth',
    source: { rfc: 'RFC 9112 §3.2.2' },
    allowedBy: 'no policy row: an absolute-form target answered as the origin-form one is a SHOULD of the suite (responses/message-forms), whose departure warns',
    layer: 'router',
    warns: ['responses/message-forms'],
    wrap: (inner) => async (request) => (/^https?:/i.test(request.rawTarget ?? '') ? errorResponse(404, 'not_found', 'no such path') : inner(request)),
  },
  encodedWith(['gzip']),
  encodedWith(['deflate']),
  encodedWith(['br']),
  encodedWith(['zstd']),
  encodedWith(['deflate', 'gzip']),
  {
    id: 'slow-answers',
    does: 'every answer takes 30 ms',
    source: { spec: 'Limits: "Rate limits, quotas and size limits of bodies: not shown."' },
    allowedBy: 'nothing in the spec bounds how long an answer takes (the suite waits its timeout)',
    layer: 'transport',
    wrap: delivered({ delayMs: 30 }),
  },
  {
    id: 'early-hints-103',
    does: 'a 103 Early Hints comes before every final answer',
    source: { rfc: 'RFC 9110 §15.2' },
    allowedBy: 'A client MUST be able to parse one or more 1xx responses received prior to a final response',
    layer: 'transport',
    wrap: delivered({ earlyHints: true }),
  },
  {
    id: 'two-100-continues',
    does: "a request with Expect: 100-continue gets two 100 (Continue) answers before its final one (Werkzeug's threaded server: one from Python's http.server, one of its own)",
    source: { rfc: 'RFC 9110 §15.2' },
    allowedBy: 'A client MUST be able to parse one or more 1xx responses received prior to a final response',
    layer: 'transport',
    server: { continuesPerExpect: 2 },
  },
  {
    id: 'reason-phrases-of-its-own',
    does: 'every status line carries a reason phrase of its own ("200 Here you are", "401 Who goes there")',
    source: { rfc: 'RFC 9112 §4' },
    allowedBy: 'A client SHOULD ignore the reason-phrase content',
    layer: 'transport',
    wrap: mapAnswers((answer) => ({ ...answer, delivery: { ...answer.delivery, reasonPhrase: answer.status < 400 ? 'Here you are' : 'Who goes there' } })),
  },
  {
    id: 'occasional-429',
    does: 'every 40th request is answered 429 with Retry-After: 1',
    source: RATE_LIMITS,
    allowedBy: RATE_LIMITS_WORDS,
    layer: 'edge',
    group: 'rate limit',
    wrap: turnsAwayEvery(40, 429),
  },
  {
    id: 'occasional-503',
    does: 'every 60th request is answered 503 with Retry-After: 1',
    source: RATE_LIMITS,
    allowedBy: RATE_LIMITS_WORDS,
    layer: 'edge',
    group: 'rate limit',
    wrap: turnsAwayEvery(60, 503),
  },
  {
    id: 'every-seventh-request-429',
    does: 'every seventh request is answered 429 with Retry-After: 1',
    source: RATE_LIMITS,
    allowedBy: 'A rate limit changes how fast the run goes, never its verdicts, and never how long it may take',
    layer: 'edge',
    group: 'rate limit',
    wrap: turnsAwayEvery(7, 429),
  },
  {
    id: 'at-most-4-in-flight-429',
    does: "at most 4 requests are handled at once, each for 5 ms: past that a request is answered 429 with Retry-After: 1 in plain text, at once (chi's Throttle with a limit of 4)",
    source: RATE_LIMITS,
    allowedBy: 'A rate limit changes how fast the run goes, never its verdicts, and never how long it may take',
    layer: 'edge',
    group: 'rate limit',
    wrap: admitsAtMost(4, 5),
  },
  {
    id: 'retry-after-http-date-clock-behind',
    does: 'after every 150 requests it served it closes until the second after next, answering 429 with Retry-After as an HTTP date and a Date, on a clock 30 s behind this machine',
    source: RATE_LIMITS,
    allowedBy: '`Retry-After` is either delta-seconds or an HTTP-date (RFC 9110 §10.2.3); both are honoured',
    layer: 'edge',
    group: 'rate limit',
    wrap: rateLimitedInHttpDates(150, -30_000),
  },
  {
    id: 'rate-limit-windows-after-every-50-gets',
    does: 'after every 50th GET it closes for a second or two, answering every request 429 with Retry-After as an HTTP date until then',
    source: RATE_LIMITS,
    allowedBy: 'both are honoured, by every request of the run (fixed checks, generated bodies, sequences)',
    layer: 'edge',
    group: 'rate limit',
    wrap: closesAfterEveryGets(50),
  },
]
