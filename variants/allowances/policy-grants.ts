/**
 * Every allowance the policy grants (each "or", "may", INFO and SHOULD of its rows, and what HTTP lets a server or an
 * intermediary do), each with the operators that apply it to the reference; a grant without one is a listed gap, with
 * the reason. docs/allowances.md is rendered from this table and the allowances; a self-test holds both to each other.
 */

export interface PolicyGrant {
  /** The policy row (as its §2 or §2b names it), or the RFC behind a thing HTTP lets a server do. */
  row: string
  /** What it allows, in its words. */
  grants: string
  /** The allowances that apply it; empty for a gap. */
  operators: readonly string[]
  /** Why no operator applies it, for a gap. */
  gap?: string
}

export const POLICY_GRANTS: readonly PolicyGrant[] = [
  { row: 'out-of-range `limit`', grants: 'a 4xx with a valid Error body (400 is the SHOULD)', operators: ['limit-refused-422'] },
  { row: 'out-of-range `limit`', grants: 'or 200 with a valid Pets body', operators: ['limit-clamped', 'limit-out-of-range-ignored', 'repeated-limit-read-as-invalid'] },
  { row: 'invalid `status` filter value', grants: 'same rule as out-of-range `limit`: a 4xx with an Error body', operators: ['status-refused-422'] },
  { row: 'invalid `status` filter value', grants: 'or 200 with a valid Pets body', operators: ['status-invalid-ignored', 'status-invalid-lists-nothing'] },
  { row: 'non-integer or out-of-int64 `petId`', grants: '400 or 404 with a valid Error body', operators: ['invalid-id-404'] },
  {
    row: 'invalid NewPet body',
    grants: 'an Error body whose `code` and `message` the spec does not show',
    operators: ['error-words-terse', 'error-messages-with-markup', 'error-message-echoes-the-parser-at-length'],
  },
  {
    row: '§2b invariants (list answers)',
    grants: 'never longer than a `limit` the service applied: a limit past the parameters a parser reads may go unread (listPets/parameters-past-a-cap warns)',
    operators: ['query-read-up-to-1000-parameters'],
  },
  { row: 'what counts as valid', grants: '`""` is a valid name', operators: ['odd-names-in-store'] },
  {
    row: 'what counts as valid',
    grants: 'unknown extra properties are allowed (the schemas are open)',
    operators: ['unknown-members-dropped', 'unknown-members-kept', 'extra-properties'],
  },
  {
    row: '`status` omitted at creation',
    grants: 'any value of the enum, or no field',
    operators: ['status-defaulted-available', 'status-defaulted-pending', 'status-defaulted-sold'],
  },
  { row: 'auth precedence', grants: 'a 413 for a body over a size limit may come first (INFO)', operators: ['body-limit-64kib-413-at-the-edge', 'keyless-body-limit-16kib-413'] },
  { row: 'Bearer scheme case', grants: 'SHOULD: accept `bearer` in any letter case (a departure warns)', operators: ['bearer-scheme-case-sensitive'] },
  { row: 'Bearer spacing', grants: 'SHOULD: accept one or more spaces (two refused with 401 warns)', operators: ['bearer-one-space-only'] },
  {
    row: '401 challenge',
    grants: 'SHOULD: `WWW-Authenticate: Bearer …` (none warns; several challenges are one field)',
    operators: ['www-authenticate-left-out', 'www-authenticate-several-challenges'],
  },
  { row: 'Content-Type of JSON answers', grants: 'parameters such as `charset=utf-8` are allowed', operators: ['charset-utf-8', 'content-type-in-other-case'] },
  { row: 'ids', grants: 'any integer within int64, distinct; ids above 2^53 are legal', operators: ['ids-above-2^53', 'ids-negative', 'ids-sparse', 'ids-scattered'] },
  { row: 'created pet', grants: '201 with the pet (a Location header, members beyond the schema)', operators: ['location-on-201', 'extra-properties'] },
  { row: 'order of list items', grants: 'never assumed', operators: ['list-newest-first', 'list-shuffled'] },
  { row: 'further pages', grants: 'INFO', operators: ['paging-headers'] },
  {
    row: 'rate limits',
    grants: 'a 429 or 503 with `Retry-After`, as delta-seconds or an HTTP-date, honoured by every request',
    operators: [
      'occasional-429',
      'occasional-503',
      'every-seventh-request-429',
      'at-most-4-in-flight-429',
      'retry-after-http-date-clock-behind',
      'rate-limit-windows-after-every-50-gets',
    ],
  },
  { row: 'deprecated `getPet`, removal on 2030-12-05', grants: '`Deprecation`/`Sunset` headers: INFO', operators: ['deprecation-announced'] },
  {
    row: 'deprecated `getPet`, removal on 2030-12-05',
    grants: 'from that date on the operation may be gone',
    operators: [],
    gap: 'a date, not a behaviour of today: self-tests/end-to-end/deprecation.test.ts runs the suite with its clock set past it',
  },
  {
    row: 'category ids',
    grants: 'an implementation that only knows some categories',
    operators: [],
    gap: 'allowed only once the user names the categories (--category-ids): at the defaults any int64 is a category; the configuration self-tests hold the setting',
  },
  { row: 'a client-sent `id`', grants: '201 with an id the service chose, or 400 with an Error body (SHOULD 201)', operators: ['client-id-refused-400'] },
  { row: 'ids at the edges of int64 in the path', grants: '404 (400 accepted) with an Error body', operators: ['negative-ids-400', 'top-int64-ids-400'] },
  {
    row: 'ids at the edges of int64 in the path',
    grants: 'an id of 0 is a real id, and so is every edge of int64 a store assigns, at any point of a run',
    operators: ['ids-from-zero', 'ids-cross-zero', 'ids-count-down', 'ids-down-from-int64-max'],
  },
  {
    row: 'the key in other places',
    grants: '401, 404 or 405 for a path the service does not serve, or a redirect within the service, without the key',
    operators: ['unknown-paths-404-before-auth', 'other-methods-405-before-auth', 'other-methods-404-before-auth', 'trailing-slash-redirect'],
  },
  {
    row: 'consistency',
    grants: 'answers from a replica that lags, within the window',
    operators: ['replica-lags-2s', 'get-replica-lags-800ms', 'get-lags-1500ms-lists-lag-600ms'],
  },
  { row: 'views of one pet', grants: 'a pet the run did not create may change status between reads (transitions: not shown)', operators: ['pets-sold-while-read'] },
  { row: 'concurrent creates', grants: 'creates overlap in time: pets other clients create while the run reads and writes', operators: ['other-clients-create-pets'] },
  { row: 'name lengths', grants: 'beyond 64 KiB, a 413 with an Error body (INFO)', operators: ['body-limit-64kib-413', 'body-limit-64kib-413-then-reset'] },
  { row: 'name lengths', grants: 'a valid name of any length, stored whole', operators: ['long-names-in-store'] },
  {
    row: 'equivalent spellings',
    grants: 'SHOULD only in the fixed segments of the path, the base URL’s own included (routers and edges that match the path undecoded)',
    operators: ['fixed-segments-matched-undecoded', 'edge-html-404-outside-base'],
  },
  {
    row: 'equivalent spellings',
    grants: 'an escape in a header field value is three literal octets: `Accept: applicat%69on/json` may get 406',
    operators: ['accept-without-json-406'],
  },
  { row: 'other notations', grants: 'a `limit` read as a lenient parser reads it: a SHOULD warning', operators: ['limit-read-with-number', 'limit-read-with-python-int'] },
  { row: 'other notations', grants: 'INFO only: `+5`, `05`, `5.0`, `1e1`', operators: ['lenient-id-notations-read'] },
  {
    row: 'other notations',
    grants: 'a notation that is not a decimal integer in any reading: `30;` is 30 in the reading RFC 3986 §3.3 gives segment parameters (INFO)',
    operators: ['path-parameters-removed'],
  },
  { row: 'JSON text', grants: 'duplicate member names: INFO', operators: ['duplicate-members-first-wins', 'duplicate-members-last-wins'] },
  {
    row: 'text that is not Unicode',
    grants: '400 with an Error body, or 201 with the name read back the same (INFO: which)',
    operators: ['lone-surrogates-refused-400', 'lone-surrogates-stored-as-replacement', 'non-utf8-bodies-refused-400', 'non-utf8-bodies-read-as-latin1'],
  },
  { row: 'request media types', grants: '415 or 400 with an Error body, or 201 (INFO: which)', operators: ['other-media-types-415', 'other-media-types-400'] },
  {
    row: 'RFC 9110 §8.3.1, §15.5.16 (a charset names the encoding of the octets)',
    grants: 'a label whose charset names another encoding than the UTF-8 the body is in refused with 415 and an Error body (warns: RFC 8259 §11 gives it no effect)',
    operators: ['other-charsets-refused-415'],
  },
  { row: 'to an `Accept` that admits no JSON', grants: '406 with an Error body or the answer in JSON', operators: ['accept-without-json-406'] },
  {
    row: 'a header that carries no meaning for this API',
    grants: 'a refusal on `Referer` passes as a 4xx with an Error body (SHOULD)',
    operators: ['foreign-referer-refused-403', 'foreign-origin-refused-403'],
  },
  { row: 'RFC 8259 §9 lets parsers set limits', grants: 'JSONTestSuite `i_` cases and `y_` fragments: INFO', operators: ['deep-json-refused-400'] },
  {
    row: 'a request body with a `Content-Encoding`',
    grants: 'decoded, refused with 400 or 415, or read as sent (INFO: which)',
    operators: ['content-encoding-refused-415', 'content-encoding-gzip-decoded'],
  },
  {
    row: 'an edit that makes a value invalid gets what the rows above give invalid values',
    grants: 'a parameter the spec does not name, or one given twice: the invariants only',
    operators: ['unknown-query-parameters-refused-400', 'query-names-in-any-case', 'repeated-parameters-last-wins', 'repeated-parameters-refused-400'],
  },
  {
    row: 'no 2xx and no pet data without a valid Bearer key',
    grants: 'a path or method the spec does not name, with the key: the invariants only',
    operators: [
      'trailing-slash-served',
      'paths-case-insensitive',
      'slashes-merged',
      'head-served-as-get',
      'lower-case-methods-served',
      'unknown-methods-refused-by-the-http-layer',
    ],
  },
  {
    row: 'RFC 9110, RFC 9112 (what HTTP lets a server do)',
    grants:
      'close or keep connections, frame bodies chunked with trailers, code them, take its time, send 1xx first, word its reason phrases, add headers, refuse in its own words what HTTP refuses',
    operators: [
      'http-layer-refuses-malformed-host',
      'request-line-limit-4094',
      'connection-close',
      'idle-connections-closed-after-900ms',
      'idle-connections-closed-after-500ms',
      'chunked-bodies',
      'many-small-chunks',
      'chunked-with-trailers',
      'gzip-encoded-answers',
      'deflate-encoded-answers',
      'br-encoded-answers',
      'zstd-encoded-answers',
      'deflate-then-gzip-encoded-answers',
      'slow-answers',
      'early-hints-103',
      'two-100-continues',
      'reason-phrases-of-its-own',
      'cors-and-cache-headers',
    ],
  },
  {
    row: 'RFC 9110 §5.3, §2.2 (a field of one value given twice, which a sender must not send)',
    grants: 'a Content-Type given twice refused before the key is read, in the words of the HTTP layer that reads it',
    operators: ['http-layer-refuses-doubled-content-type'],
  },
  {
    row: 'RFC 9110 §7.4, §4.2.1 (a target authority the server does not serve)',
    grants: 'a Host it does not serve (empty, spelled with escapes, another name) refused before the key is read, in the words of whatever checks hosts',
    operators: ['hosts-not-served-refused-400'],
  },
  {
    row: 'RFC 9110 §14.2, RFC 7240 (what a request that asks for less lets a server do)',
    grants: 'a 206 with a part of the document to a Range; a 201 without content to Prefer: return=minimal, saying Preference-Applied',
    operators: ['range-requests-honoured', 'prefer-return-minimal-honoured'],
  },
  {
    row: 'HEAD as GET (proposed, docs/decisions.md)',
    grants: 'SHOULD: HEAD answered as GET; a 405 warns',
    operators: ['head-refused-405'],
  },
  {
    row: 'message forms (proposed, docs/decisions.md)',
    grants: 'SHOULD: HTTP/1.0, absolute-form, chunked and 100-continue answered as the plain forms; a refusal in the HTTP layer’s words warns',
    operators: ['chunked-requests-refused-411', 'absolute-form-routed-as-written'],
  },
  {
    row: 'RFC 8259 (what JSON lets a writer do)',
    grants: 'whitespace, member order, escapes of any character',
    operators: ['pretty-printed-json', 'members-in-another-order', 'non-ascii-escaped', 'slashes-escaped'],
  },
  {
    row: 'RFC 9110, RFC 9112 (what HTTP lets a server do)',
    grants: 'HTTP/2, or TLS only',
    operators: [],
    gap: 'the suite speaks HTTP/1.1 (undici); an https target is held by the TLS self-tests (hostile-targets.test.ts), an h2-only one is out of reach',
  },
  {
    row: 'RFC 9112 §9.6 (idle connections)',
    grants: 'a connection closed idle after less than 250 ms, unannounced',
    operators: [],
    gap: 'indistinguishable from a close right after an answer, which responses/close-announced warns on (SHOULD): docs/decisions.md',
  },
]
