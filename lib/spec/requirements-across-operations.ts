/** The requirements of every operation and every answer: one pet in every view, auth, errors, responses, limits, versioning, and what the spec leaves out of scope. */
import { AUTH, ERRORS, info, must, POLICY, type RequirementDefinition, should, untestable } from './requirement-definition.js'

export const acrossOperationRequirements = {
  // ── views ───────────────────────────────────────────────────────────────────
  'views/one-pet-reads-the-same': must({
    title:
      'one pet reads the same everywhere: the 201 answer, GET /pets/{id} and every list item with its id agree on every field, and the pet is in the list of the status it shows',
    specText: 'An animal is all fields of NewPet plus `id`. (Animal: the body of the 201 answer, of GET /pets/{id}, and each item of a Pets list.)',
    source: `${POLICY} (views of one pet)`,
    decision:
      'Judged by random sequences of creates (one pet or several at once, with and without status, category ids across int64), lists (every status and limit combination, out-of-range limits too) and gets (of created, listed and unknown ids), checked against a model of what the store holds (fast-check commands; --sequences, --sequence-length). The fields of the Animal schema are compared exactly: integers digit for digit, names code point for code point, and a field present in one view but absent in another is a difference; properties outside the schema are not compared (the schemas are open). A status the service filled in must be the same in every view, and a pet is in status=S&limit=100 for the status S it shows, while that list holds fewer than 100 pets. A difference counts only if it outlasts the consistency window (the view is read again until it agrees). A pet the run did not create may change status between reads (transitions are not shown): two views that agree on the new status are recorded, not failed. A pet the run created is not expected to change. In smoke the sequences only read: lists and GETs of existing pets.',
  }),

  // ── auth ────────────────────────────────────────────────────────────────────
  'auth/missing-key-401': must({
    title: 'a request without Authorization is answered 401 on every operation',
    specText: 'When the key is missing or invalid, the service answers `401` with an Error body.',
    source: `${AUTH} 3`,
  }),
  'auth/wrong-key-401': must({
    title: 'a wrong key is answered 401 on every operation',
    specText: 'When the key is missing or invalid, the service answers `401` with an Error body.',
    source: `${AUTH} 3`,
  }),
  'auth/empty-token-401': must({
    title: 'an empty Bearer token is answered 401 on every operation',
    specText: 'When the key is missing or invalid, the service answers `401` with an Error body.',
    source: `${AUTH} 3`,
    decision: 'An invalid key includes an empty token.',
  }),
  'auth/other-scheme-401': must({
    title: 'the key under a scheme other than Bearer is answered 401 on every operation',
    specText: 'Every operation requires HTTP Bearer authentication (scheme `bearer`).',
    source: `${AUTH} 1`,
    decision: 'An invalid key includes a scheme other than Bearer.',
  }),
  'auth/key-lookalike-401': must({
    title: 'a token that merely starts or ends with the key is answered 401 on every operation',
    specText: 'The client passes its API key as the Bearer token in the `Authorization` header.',
    source: `${AUTH} 2`,
    decision:
      'An invalid key includes a token that merely starts or ends with the key: with a letter added or left out, with a second Bearer credential beside it on the same line (`Bearer other, Bearer <key>`: Authorization holds one credentials, not a list, RFC 9110 §11.6.2, so a service that splits it at commas and reads one part is wrong), and with whitespace HTTP does not strip (only SP and HTAB are, RFC 9110 §5.5) before or after it: U+00A0, U+2007, U+200B and U+FEFF, sent as their UTF-8 bytes (policy §2, auth precedence).',
  }),
  'auth/401-before-404': must({
    title: 'without a valid key, GET /pets/{id} of an unknown id is answered 401, not 404',
    specText: 'Every operation requires the Bearer credential.',
    source: POLICY,
    decision: '401 comes before every other answer (404, 400, validation).',
  }),
  'auth/401-before-400': must({
    title: 'without a valid key, an invalid request is answered 401, not 400',
    specText: 'Every operation requires the Bearer credential.',
    source: POLICY,
    decision: '401 comes before every other answer (404, 400, validation).',
  }),
  'auth/key-elsewhere-refused': must({
    title: 'the right key anywhere but an Authorization: Bearer header gets no 2xx and no pet data',
    specText: 'The client passes its API key as the Bearer token in the `Authorization` header, in the form `Authorization: Bearer <API_KEY>`.',
    source: `${AUTH} 2; ${POLICY} (the key in other places)`,
    decision:
      'Sent without a Bearer header: the key as api_key and access_token query parameters, in a cookie (beside every cookie the keyed answers of the survey set, so a session a keyed request opened is no key), in X-API-Key, in the fields other auth layers read (X-Auth-Token, X-Access-Token, Api-Key, Token, Proxy-Authorization: Bearer, in one request), as Authorization without a scheme, and as Basic credentials. Any answer but a 2xx passes when it holds no pet data. Read-only. A key in a query string is masked in every report like the header.',
  }),
  'auth/path-spelling-refused': must({
    title: 'no spelling of a path (trailing slash, doubled slash, dot segments, percent-encoded letters, other letter case) gets a 2xx or pet data without the key',
    specText: 'Every operation requires HTTP Bearer authentication (scheme `bearer`).',
    source: `${AUTH} 1; ${POLICY} (the key in other places)`,
    decision:
      'Sent without any key. Any answer but a 2xx passes when it holds no pet data: 401, 404 or 405 for a path the service does not serve, or a redirect (never followed). The rules of every answer (JSON, Error body) do not apply to paths the spec does not name.',
  }),
  'auth/no-access-without-key': must({
    title: 'no request without a valid Bearer key gets a 2xx or pet data, whatever else it carries and however its path is spelled',
    specText: 'Every operation requires HTTP Bearer authentication (scheme `bearer`). When the key is missing or invalid, the service answers `401` with an Error body.',
    source: `${AUTH} 1, 3; ${POLICY}b`,
    decision:
      'Judged on every exchange of the run: the survey, the checks, the sequences and every edited request. A request carries the key when one of its Authorization fields is Bearer, one or more spaces, and the key (the scheme in any case, whitespace around the value stripped, RFC 9110 §5.5, RFC 6750 §2.1). A field a lenient reader could take for the key (a tab as the separator, CR, LF or NUL read as a space, a bare LF as a line end) is judged by nothing but the other invariants. Without the key, any answer but a 2xx passes when it holds no pet data.',
    reportedByRun: true,
  }),
  'auth/scheme-case-insensitive': should({
    title: 'the scheme name is accepted in any letter case (bearer, BEARER)',
    specText: 'Every operation requires HTTP Bearer authentication (scheme `bearer`).',
    source: POLICY,
    decision: 'SHOULD: accept `bearer` in any letter case (RFC 9110 §11.1). An acceptance is evidence only from a target that refuses a wrong key; otherwise inconclusive.',
  }),
  'auth/bearer-spacing': should({
    title: 'the key is accepted after more than one space (Bearer, two spaces, the key)',
    specText: 'The client passes its API key as the Bearer token in the `Authorization` header, in the form `Authorization: Bearer <API_KEY>`.',
    source: `${POLICY} (Bearer spacing)`,
    decision:
      "SHOULD: accept one or more spaces between the scheme and the token (RFC 6750 §2.1 and RFC 9110 §11.4 allow `1*SP`). A service that refuses two spaces with 401 and an Error body gets a warning, never a failure: the spec's own form has one space, and clients send one. An acceptance is evidence only from a target that refuses a wrong key; otherwise inconclusive.",
  }),
  'auth/www-authenticate': should({
    title: 'a 401 carries a WWW-Authenticate: Bearer challenge',
    specText: 'When the key is missing or invalid, the service answers `401` with an Error body.',
    source: POLICY,
    decision: 'SHOULD: `WWW-Authenticate: Bearer …` on 401 (RFC 9110 §11.6.1, RFC 6750 §3).',
  }),
  'auth/key-issuing': untestable({
    title: 'key issuing, lifetime and permission levels',
    specText: 'How a key is issued, its lifetime, and any permission levels per key: not shown.',
    source: `${AUTH} 4`,
  }),

  // ── errors and responses (every exchange) ──────────────────────────────────
  'errors/body-schema': must({
    title: 'every 4xx answer has an Error body (code, message, status)',
    specText: 'An error response has the Error body (`code`, `message`, `status`; all required).',
    source: ERRORS,
  }),
  'errors/status-matches-http': must({
    title: 'the Error body status equals the HTTP status code',
    specText: 'The `status` field repeats the HTTP status code.',
    source: ERRORS,
  }),
  'errors/code-values': untestable({
    title: 'the set of error codes and the text of messages',
    specText: 'The set of values of `code` and the exact text of `message`: not shown.',
    source: ERRORS,
  }),
  'responses/json-content-type': must({
    title: 'every JSON answer is labelled application/json (parameters such as charset allowed)',
    specText: 'Request and response bodies are JSON (`application/json`).',
    source: 'What the service does',
    decision: 'MUST: media type `application/json`; parameters such as `charset=utf-8` are allowed.',
  }),
  'responses/close-announced': should({
    title: 'a connection the target closes right after an answer is announced by Connection: close in that answer',
    specText: 'A sender SHOULD send a Connection header field containing the "close" connection option when it intends to close a connection (RFC 9112 §9.6).',
    source: 'HTTP/1.1 (RFC 9112 §9.6), which the interface builds on',
    decision:
      "Judged by the run on every connection: the target closing one within 250 ms of an answer that did not say Connection: close warns, with that answer. A request already sent on such a connection gets no answer; its check is inconclusive, and a POST is never sent again (RFC 9112 §9.3.1: it may have been processed). A later close is an idle timeout, which HTTP allows unannounced (civetweb's default is 500 ms, Starman's 1 s).",
    reportedByRun: true,
  }),
  'responses/meaningless-fields-ignored': should({
    title: 'a header field that carries no meaning for this API does not change the answer',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: `${POLICY}b; RFC 9110 §10.1.3`,
    decision:
      "Referer, Origin, Via, Forwarded and its X-Forwarded-*/X-Real-IP forebears, an unknown Cookie, a browser's User-Agent and the other fields the field dictionary marks as carrying no meaning, added to a read, get the plain request's answer; so does the Host in another letter case. A create carrying the fields a proxy adds (Forwarded, X-Forwarded-Host, -Proto, -Port, -Prefix) gets the plain create's answer, and its Location, when it has one, names the same URL but for the id: a service that writes a client's proxy fields into the URLs it answers with trusts them from anyone. RFC 9110 §10.1.3 lets servers refuse on Referer, so a refusal warns, and must still be a 4xx with an Error body (errors/body-schema, a MUST).",
  }),
  'responses/message-forms': should({
    title: 'a request in another form HTTP/1.1 defines gets the answer the plain request gets',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: 'RFC 9112 §2.3, §3.2.2, §7.1; RFC 9110 §10.1.1 (no policy row: docs/decisions.md proposes one)',
    decision:
      'The plain requests sent as HTTP/1.0, with an absolute-form target, with the body chunked (in one chunk, in many, with a chunk extension, with a trailer) or after Expect: 100-continue mean what they mean plainly, and get the plain answer: a different answer, or the HTTP layer refusing the form in its own words, warns. Every invariant still holds at MUST (no 5xx, no 2xx without the key, nothing created by a refused create).',
    reportedByRun: true,
  }),
  'responses/differing-lengths-refused': should({
    title: 'a request whose Content-Length fields differ is refused, never served',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: 'RFC 9112 §6.3 (no policy row: docs/decisions.md proposes one)',
    decision:
      "The plain creates sent with Content-Length twice, the body's length and half of it, in either order: a server that serves one (2xx) read a body another reader would read otherwise, the request smuggling RFC 9112 §6.3 has a server refuse with 400 and a closed connection. A 2xx warns; any refusal, or a close, passes. Every invariant still holds at MUST.",
    reportedByRun: true,
  }),
  'responses/405-allow': should({
    title: 'a 405 answer says which methods the resource has, in Allow',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: 'RFC 9110 §15.5.6 (no policy row: docs/decisions.md proposes one)',
    decision:
      'Judged on every answer of the run, whichever request got it: a 405 without an Allow field warns (RFC 9110 §15.5.6: the origin server MUST send one), except where an HTTP layer may refuse the request in its own words. A run that gets no 405 leaves it inconclusive.',
    reportedByRun: true,
  }),
  'responses/head-as-get': should({
    title: 'HEAD is answered as GET is, without content',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: 'RFC 9110 §9.1, §9.3.2 (no policy row: docs/decisions.md proposes one)',
    decision:
      'HEAD in place of the plain list and get requests gets the status GET gets (RFC 9110 §9.1: every general-purpose server MUST support HEAD); a 405 or any other status warns, and so does an answer to HEAD, with the key or without, that carries content after its head (RFC 9110 §9.3.2), which a kept-alive connection would read as the next answer. Without the key, a 2xx to HEAD is a failure of auth/no-access-without-key (MUST), like any request.',
    reportedByRun: true,
  }),
  'auth/options-without-key': must({
    title: 'OPTIONS without the key gets no 2xx and no pet data',
    specText: 'The client passes its API key as the Bearer token in the `Authorization` header, in the form `Authorization: Bearer <API_KEY>`.',
    source: `${POLICY}b (no 2xx and no pet data without a valid Bearer key); ${POLICY} (the key in other places)`,
    decision:
      'The policy holds every request without a valid key to no 2xx, OPTIONS included: a CORS preflight answered 204 before auth runs fails, as an Allow list answered 200 does. Charged here rather than to auth/no-access-without-key, so the report names the method a middleware answers before auth. The policy may grant preflights a row (docs/decisions.md proposes one); until it does, the level is its MUST.',
    reportedByRun: true,
  }),
  'responses/edits-answered': should({
    title: 'every one-element edit of a request the suite sends is answered in time',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: `${POLICY}b (the neighbourhood of a request); RFC 9112 §3, §5.1, §6.3`,
    decision:
      'Each request the neighbourhood sends (the plain requests and each edit of one part: drop, duplicate, case, percent-coding, an octet of every class, other notations, a field or member from a dictionary, deep nesting, JSONTestSuite texts) gets an answer. A message HTTP refuses as written is answered 400 (RFC 9112 §3, §5.1, §6.3): a reset counts as an answer (it may have discarded a 400 written before the server read the rest), a close without a word does not. A full run applies every operator to every part it edits; the edits it made are listed in results.json (neighbourhood). Every invariant of every answer is charged to its own requirement.',
  }),
  'responses/no-server-error': must({
    title: 'no request the suite sends is answered with a 5xx',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: 'Endpoints',
    decision: 'No documented answer is a 5xx; a target that fails a request is not conformant.',
  }),

  // ── limits, versioning, scope ──────────────────────────────────────────────
  'limits/rate-limits': info({
    title: 'rate limiting (429/503 with Retry-After) seen during the run is recorded',
    specText: 'Rate limits, quotas and size limits of bodies: not shown.',
    source: 'Limits',
    decision: 'Honoured and retried a bounded number of times, and reported; not a failure unless retries run out.',
  }),
  'versioning/base-url-v1': info({
    title: 'the base URL ends with the version segment /v1',
    specText: 'The version is carried in the path of the base address as the segment `/v1`.',
    source: 'Versioning 2',
    decision: 'The suite warns at start when the configured base URL does not end with `/v1`.',
  }),
  'versioning/future-versions': untestable({
    title: 'rules for future versions and breaking changes',
    specText: 'Rules for introducing future versions and for changes that break compatibility: not shown.',
    source: 'Versioning 4',
  }),
  'scope/categories': untestable({
    title: 'the category resource and its operations',
    specText: 'Category resource and its fields, and any operation on categories: not shown beyond the `categoryId` field.',
    source: 'Resources and their fields › Gaps',
  }),
  'scope/status-transitions': untestable({
    title: 'transitions between pet statuses',
    specText: 'Transitions: not shown.',
    source: 'States and transitions',
  }),
  'scope/store-orders': untestable({
    title: 'operations of further areas such as store orders',
    specText: 'The service is described as having further areas, such as store orders. Operations of those areas: not shown.',
    source: 'What the service does',
  }),
  'scope/events': untestable({
    title: 'events, webhooks and notifications',
    specText: 'Events (webhooks, notifications or any pushed messages): not shown.',
    source: 'Events',
  }),
} satisfies Record<string, RequirementDefinition>
