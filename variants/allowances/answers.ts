/** How a conformant service may write its answers: labels, layout, escapes, members and headers the schemas and HTTP leave open. */
import { isJsonObject, parseJson, stringifyJson } from '../../lib/http/json.js'
import { errorResponse } from '../../reference/handler.js'
import type { ServiceResponse } from '../../reference/http-types.js'
import { isCreatePet, isGetPet, isListPets, mapAnswers, mapJsonBody, withHeader } from '../variant.js'
import type { Allowance } from './allowance.js'

const isJsonAnswer = (answer: ServiceResponse) => /^application\/json\b/i.test(answer.headers['content-type'] ?? '')

/** The answer's JSON text rewritten as text (so every number keeps its digits), for JSON answers only. */
function rewritesJsonText(rewrite: (text: string) => string): Allowance['wrap'] {
  return mapAnswers((answer) => (isJsonAnswer(answer) ? { ...answer, body: rewrite(answer.body) } : answer))
}

/** The same value's text with each object's members in the order `order` gives their names. */
function membersOrdered(order: (names: string[]) => string[]): Allowance['wrap'] {
  return mapAnswers((answer) =>
    mapJsonBody(answer, (body) => {
      const reorder = (value: unknown): unknown => {
        if (Array.isArray(value)) return value.map(reorder)
        if (!isJsonObject(value)) return value
        return Object.fromEntries(order(Object.keys(value)).map((name) => [name, reorder(value[name])]))
      }
      return reorder(body)
    }),
  )
}

/** The answer with more headers. */
function withHeaders(headers: (answer: ServiceResponse, request: Parameters<Parameters<typeof mapAnswers>[0]>[1]) => Record<string, string>): Allowance['wrap'] {
  return mapAnswers((answer, request) => ({ ...answer, headers: { ...answer.headers, ...headers(answer, request) } }))
}

const CONTENT_TYPE = { policy: 'Content-Type of JSON answers' } as const
const OPEN_SCHEMAS = { policy: 'what counts as valid' } as const

/** How deep a JSON text opens before its first value: the `[` and `{` it starts with (whitespace and member names aside). */
function openingDepth(text: string): number {
  return (/^(?:\s*(?:\[|\{\s*"[^"]*"\s*:))*/.exec(text)?.[0] ?? '').replace(/"[^"]*"/g, '').replace(/[^[{]/g, '').length
}

export const answerAllowances: Allowance[] = [
  {
    id: 'error-message-echoes-the-parser-at-length',
    does: "a body nested past 1,000 levels is refused with 400 and an Error body whose message is the parser's own, a line per level (Servant with aeson: `json list value > ` 18 bytes a level, 1.8 MB for 100,000), longer than the suite reads",
    source: { spec: 'An error response has the Error body' },
    allowedBy: 'An error response has the Error body (`code`, `message`, `status`; all required): the spec bounds no message',
    layer: 'answers',
    provenByEdits: ['json-text'],
    wrap: mapAnswers((answer, request) => {
      const depth = isCreatePet(request) && answer.status === 400 ? openingDepth(request.body) : 0
      return depth > 1_000 ? errorResponse(400, 'invalid_body', `Error in $: ${'json list value > '.repeat(depth)}`) : answer
    }),
  },
  {
    id: 'charset-utf-8',
    does: 'every JSON answer is labelled application/json; charset=utf-8',
    source: CONTENT_TYPE,
    allowedBy: 'MUST: media type `application/json`; parameters such as `charset=utf-8` are allowed',
    layer: 'answers',
    group: 'content type',
    wrap: mapAnswers((answer) => (answer.headers['content-type'] === 'application/json' ? withHeader(answer, 'content-type', 'application/json; charset=utf-8') : answer)),
  },
  {
    id: 'content-type-in-other-case',
    does: 'every JSON answer is labelled Application/JSON;Charset="UTF-8" (type, parameter name and value in other letter cases, the value quoted)',
    source: CONTENT_TYPE,
    allowedBy: 'media type `application/json`; parameters … are allowed (type, subtype and parameter names are case-insensitive, RFC 9110 §8.3.1, §5.6.6)',
    layer: 'answers',
    group: 'content type',
    wrap: mapAnswers((answer) => (answer.headers['content-type'] === 'application/json' ? withHeader(answer, 'content-type', 'Application/JSON;Charset="UTF-8"') : answer)),
  },
  {
    id: 'extra-properties',
    does: 'pets carry tags and createdAt; Error bodies carry details and a trace id',
    source: OPEN_SCHEMAS,
    allowedBy: 'unknown extra properties are allowed (the schemas are open)',
    layer: 'answers',
    wrap: mapAnswers((answer) =>
      mapJsonBody(answer, (body) => {
        const extend = (value: unknown) =>
          isJsonObject(value)
            ? { ...value, ...(answer.status >= 400 ? { details: [], traceId: '4bf92f3577b34da6' } : { tags: ['friendly'], createdAt: '2026-01-01T00:00:00Z' }) }
            : value
        return Array.isArray(body) ? body.map(extend) : extend(body)
      }),
    ),
  },
  {
    id: 'pretty-printed-json',
    does: 'JSON bodies are indented over several lines',
    source: { rfc: 'RFC 8259 §2' },
    allowedBy: 'Insignificant whitespace is allowed before or after any of the six structural characters',
    layer: 'answers',
    wrap: mapAnswers((answer) => {
      const parsed = parseJson(answer.body)
      return parsed.ok ? { ...answer, body: stringifyJson(parsed.value, 2) } : answer
    }),
  },
  {
    id: 'members-in-another-order',
    does: "every object's members come in reverse order (status, categoryId, name, id; message before code)",
    source: { rfc: 'RFC 8259 §4' },
    allowedBy: 'An object is an unordered collection of name/value pairs',
    layer: 'answers',
    wrap: membersOrdered((names) => [...names].reverse()),
  },
  {
    id: 'non-ascii-escaped',
    does: 'every character outside ASCII is written as a \\u escape (surrogate pairs for the astral ones), as Python json.dumps does by default',
    source: { rfc: 'RFC 8259 §7' },
    allowedBy: 'Any character may be escaped',
    layer: 'answers',
    group: 'escapes',
    wrap: rewritesJsonText((text) => text.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)),
  },
  {
    id: 'slashes-escaped',
    does: 'every / in a string is written \\/, as PHP json_encode does by default',
    source: { rfc: 'RFC 8259 §7' },
    allowedBy: 'Any character may be escaped (\\/ is solidus)',
    layer: 'answers',
    group: 'escapes',
    wrap: rewritesJsonText((text) => text.replace(/\//g, '\\/')),
  },
  {
    id: 'error-messages-with-markup',
    does: 'Error messages and codes hold <, >, & and quotes: "no pet <42> & \'none\' found"',
    source: { spec: 'Errors: "The set of values of `code` and the exact text of `message`: not shown."' },
    allowedBy: 'The set of values of `code` and the exact text of `message`: not shown',
    layer: 'answers',
    group: 'error words',
    wrap: mapAnswers((answer) =>
      answer.status >= 400
        ? mapJsonBody(answer, (body) => (isJsonObject(body) ? { ...body, code: `${String(body.code)}<&>`, message: `"${String(body.message)}" <b>&amp;</b> 'quoted'` } : body))
        : answer,
    ),
  },
  {
    id: 'error-words-terse',
    does: 'Error bodies say E400, E401, … as their code and an empty message',
    source: { spec: 'Errors: "The set of values of `code` and the exact text of `message`: not shown."' },
    allowedBy: 'code: string, required; message: string, required (no length); their values: not shown',
    layer: 'answers',
    group: 'error words',
    wrap: mapAnswers((answer) =>
      answer.status >= 400 ? mapJsonBody(answer, (body) => (isJsonObject(body) ? { ...body, code: `E${answer.status}`, message: '' } : body)) : answer,
    ),
  },
  {
    id: 'deprecation-announced',
    does: 'GET /pets/{petId} answers carry Deprecation and Sunset headers; every answer carries rate-limit headers',
    source: { policy: 'deprecated `getPet`, removal on 2030-12-05' },
    allowedBy: '`Deprecation`/`Sunset` headers: INFO',
    layer: 'answers',
    wrap: withHeaders((_answer, request) => ({
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '999',
      ...(isGetPet(request) ? { deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' } : {}),
    })),
  },
  {
    id: 'location-on-201',
    does: 'a 201 carries Location: /v1/pets/{id}',
    source: { rfc: 'RFC 9110 §15.3.2' },
    allowedBy: 'The 201 response … its location is either the Location header field or the target URI',
    layer: 'answers',
    wrap: mapAnswers((answer, request) => {
      if (!isCreatePet(request) || answer.status !== 201) return answer
      const id = /"id":(-?\d+)/.exec(answer.body)?.[1]
      return id ? withHeader(answer, 'location', `/v1/pets/${id}`) : answer
    }),
  },
  {
    id: 'paging-headers',
    does: 'list answers carry Link: <…>; rel="next" and X-Total-Count headers',
    source: { policy: 'further pages' },
    allowedBy: 'INFO',
    layer: 'answers',
    wrap: withHeaders(
      (answer, request): Record<string, string> =>
        isListPets(request) && answer.status === 200 ? { link: '</v1/pets?cursor=b3BhcXVl>; rel="next"', 'x-total-count': '1000000' } : {},
    ),
  },
  {
    id: 'range-requests-honoured',
    does: 'a GET with Range: bytes=a-b is answered 206 with those octets of the JSON document and Content-Range (Werkzeug make_conditional with accept_ranges)',
    source: { rfc: 'RFC 9110 §14.2' },
    allowedBy: 'a server MAY ignore the Range header field … a server that supports range requests … 206 (Partial Content) (RFC 9110 §14.2, §15.3.7); the spec names no Range',
    layer: 'answers',
    wrap: mapAnswers((answer, request) => {
      const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '')
      if (request.method !== 'GET' || answer.status !== 200 || !range || !isJsonAnswer(answer)) return answer
      const whole = Buffer.from(answer.body, 'utf8')
      const [first, last] = [Number(range[1]), Math.min(Number(range[2]), whole.length - 1)]
      if (first > last) return answer
      const part = whole.subarray(first, last + 1).toString('utf8')
      // A range that cuts a UTF-8 sequence is ignored (the whole document, as RFC 9110 §14.2 lets a server do): the body is written as UTF-8.
      if (Buffer.byteLength(part) !== last + 1 - first) return answer
      return { ...answer, status: 206, headers: { ...answer.headers, 'content-range': `bytes ${first}-${last}/${whole.length}`, 'accept-ranges': 'bytes' }, body: part }
    }),
  },
  {
    id: 'prefer-return-minimal-honoured',
    does: 'a create with Prefer: return=minimal is answered 201 without content, with Location and Preference-Applied: return=minimal',
    source: { rfc: 'RFC 7240 §4.2' },
    allowedBy:
      'return=minimal: the client wishes the server to return only a minimal response to a successful request (RFC 7240 §4.2), and Preference-Applied says it did (§3); the spec names no Prefer',
    layer: 'answers',
    wrap: mapAnswers((answer, request) => {
      if (!isCreatePet(request) || answer.status !== 201 || !/return\s*=\s*minimal/i.test(request.headers.prefer ?? '')) return answer
      const created = parseJson(answer.body)
      const id = created.ok && isJsonObject(created.value) ? stringifyJson(created.value.id) : ''
      const { 'content-type': _type, ...headers } = answer.headers
      return { ...answer, headers: { ...headers, location: `/v1/pets/${id}`, 'preference-applied': 'return=minimal' }, body: '' }
    }),
  },
  {
    id: 'cors-and-cache-headers',
    does: 'every answer carries Access-Control-Allow-Origin: *, Vary, Cache-Control: no-store, an ETag, Server, X-Request-Id and Strict-Transport-Security',
    source: { rfc: 'RFC 9110 §6.3' },
    allowedBy: 'a recipient ignores a header field it does not need (RFC 9110 §5.1); the spec names none of these',
    layer: 'answers',
    wrap: withHeaders(() => ({
      'access-control-allow-origin': '*',
      vary: 'Origin, Accept-Encoding',
      'cache-control': 'no-store',
      etag: 'W/"5f2-abc"',
      server: 'petstore/1.0',
      'x-request-id': '0f8e2d6c-1b7a-4c3e-9d5f-2a6b8c0e4f1a',
      'strict-transport-security': 'max-age=63072000',
    })),
  },
]
