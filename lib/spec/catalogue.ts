/**
 * The requirement catalogue: every statement of spec/petstore-v1.md the suite turns into a verdict,
 * and every statement it cannot test. Ids are behaviours, never section numbers, and are never reused.
 * Decisions on the spec's gaps come from CONFORMANCE-POLICY.md §2 and are quoted in `decision`.
 */

export type Level = 'MUST' | 'SHOULD' | 'INFO'

export type Area = 'listPets' | 'createPet' | 'getPet' | 'views' | 'auth' | 'errors' | 'responses' | 'limits' | 'versioning' | 'scope'

export interface RequirementDefinition {
  level: Level
  title: string
  /** The spec's own words (or the policy's, for a settled gap). */
  specText: string
  /** Where the words stand: spec heading path, or the policy section. */
  source: string
  /** How the policy settles a gap, when it does. */
  decision?: string
  /** False for statements the suite lists but cannot test (store orders, events, key issuing, …). */
  testable: boolean
  /** Requirements of the deprecated getPet operation drop to INFO on its removal date. */
  deprecatedOperation?: boolean
  /** True when a check needs to create pets: such a check is inconclusive in the smoke profile. */
  needsWrites?: boolean
  /** Judged by the run from what all checks saw, not by a check of its own (the lag of created pets). */
  reportedByRun?: boolean
}

const must = (d: Omit<RequirementDefinition, 'level' | 'testable'>) => ({ ...d, level: 'MUST' as const, testable: true })
const should = (d: Omit<RequirementDefinition, 'level' | 'testable'>) => ({ ...d, level: 'SHOULD' as const, testable: true })
const info = (d: Omit<RequirementDefinition, 'level' | 'testable'>) => ({ ...d, level: 'INFO' as const, testable: true })
const untestable = (d: Omit<RequirementDefinition, 'level' | 'testable'>) => ({ ...d, level: 'INFO' as const, testable: false })

const LIST = 'Endpoints › List animals'
const CREATE = 'Endpoints › Add an animal'
const GET = 'Endpoints › Get an animal (deprecated)'
const AUTH = 'Authentication'
const ERRORS = 'Errors'
const POLICY = 'CONFORMANCE-POLICY §2'

export const catalogue = {
  // ── listPets ────────────────────────────────────────────────────────────────
  'listPets/returns-pets': must({
    title: 'GET /pets is answered 200 with a Pets body',
    specText: 'Success: `200`, body is `Pets` (a JSON array of Animal objects).',
    source: LIST,
  }),
  'listPets/body-schema': must({
    title: 'every 2xx answer of GET /pets is a valid Pets array (ids and category ids within int64)',
    specText: 'Pets: An array of Animal objects. This is the body of a list response (a bare JSON array).',
    source: 'Resources and their fields › Pets',
  }),
  'listPets/limit-default-20': must({
    title: 'without limit, at most 20 pets are returned',
    specText: 'When `limit` is omitted, at most 20 animals are returned.',
    source: `${LIST} › Rules 2`,
    decision: 'Only evidence when the store is known to hold 21 pets or more; otherwise inconclusive.',
  }),
  'listPets/limit-caps-size': must({
    title: 'limit=N (1 ≤ N < 100) is answered 200 with at most N pets',
    specText: 'The list holds at most `limit` items. (limit: minimum 1)',
    source: `${LIST} › Rules 3`,
    decision:
      'Rows 1, 2, 50 and the largest N below the known store size. A row is only evidence when the store is known to hold more than N pets; it is inconclusive otherwise, and the requirement passes when at least one row was evidence and all held.',
  }),
  'listPets/limit-max-100': must({
    title: 'limit=100 (the maximum) is answered 200 with at most 100 pets',
    specText: 'The list holds at most `limit` items. (limit: maximum 100)',
    source: `${LIST} › Rules 3`,
    decision: 'Only evidence when the store is known to hold 101 pets or more; otherwise inconclusive. Kept apart from smaller limits so that a small store shows it undecided.',
  }),
  'listPets/limit-fills-page': should({
    title: 'limit=N returns N pets when the store holds at least N (20 when limit is omitted)',
    specText: 'limit: Maximum number of animals returned; described as a paginated list.',
    source: LIST,
    decision: 'The usual reading of a page size; the spec only states "at most", so a short page is a warning.',
  }),
  'listPets/limit-out-of-range': must({
    title: 'limit outside 1..100 or not an integer: no 5xx, no more than 100 pets, a 4xx Error or a 200 Pets answer',
    specText: 'limit: integer, minimum 1, maximum 100. listPets lists no 400.',
    source: POLICY,
    decision: 'MUST: no 5xx, no more than 100 items, and the answer is either a 4xx with a valid Error body (its status equal to the HTTP status) or 200 with a valid Pets body.',
  }),
  'listPets/limit-other-notations': must({
    title: 'a limit in another notation is not read as the number it spells: the list is never exactly that long where the store holds more',
    specText: 'limit: integer, minimum 1, maximum 100.',
    source: `${POLICY} (other notations); ${POLICY}b (an edit that makes a value invalid never gets the plain request's answer)`,
    decision:
      "Judged on every edited list request whose limit is no decimal integer: the numbers lenient parsers read in it (parseInt, Number, a radix prefix, separators dropped, digits of other scripts) are worked out, and an answer of exactly one of those lengths fails when the store holds more pets of the list's status, and that length is neither the default page nor the full page of limit=100 (so a service that ignores the limit, or caps it, passes). Only evidence where the store holds more pets than the number.",
    reportedByRun: true,
  }),
  'listPets/limit-out-of-range-400': should({
    title: 'limit outside 1..100 or not an integer is answered 400 with an Error body',
    specText: 'limit: integer, minimum 1, maximum 100.',
    source: POLICY,
    decision: 'SHOULD: 400 with an Error body.',
  }),
  'listPets/status-filter-matches': must({
    title: 'status=S lists only pets whose status is S, with or without limit',
    specText: 'When `status` is given, the list contains animals filtered by that availability.',
    source: `${LIST} › Rules 1`,
    decision:
      'Judged on status=S alone, with limit=100, and on every status=S&limit=N the suite sends (policy: parameters together). Only evidence when the store is known to hold pets of another status; otherwise inconclusive.',
  }),
  'listPets/status-filter-complete': must({
    title: 'a pet of status S that exists is listed by status=S&limit=100 when that list holds fewer than 100 pets',
    specText: 'When `status` is given, the list contains animals filtered by that availability.',
    source: `${LIST} › Rules 1`,
    decision: 'A list holding fewer than 100 pets under limit=100 is taken as complete.',
  }),
  'listPets/filter-and-default-limit': must({
    title: 'status=S without limit returns at most 20 pets, all of status S',
    specText: 'When `status` is given, the list contains animals filtered by that availability. When `limit` is omitted, at most 20 animals are returned.',
    source: `${LIST} › Rules 1 and 2; ${POLICY} (parameters together)`,
    decision:
      'Every list rule holds for every combination the suite sends. "At most 20" with a filter is only evidence when more than 20 pets of S are known (full seeding makes sure of that for one status); otherwise inconclusive. That the pets are all of S is judged by listPets/status-filter-matches on the same answer.',
  }),
  'listPets/filter-and-limit': must({
    title: 'status=S&limit=N returns at most N pets, all of status S (N = 1, 100, and the largest N below the known count of S)',
    specText: 'When `status` is given, the list contains animals filtered by that availability. The list holds at most `limit` items.',
    source: `${LIST} › Rules 1 and 3; ${POLICY} (parameters together)`,
    decision:
      'A row is only evidence when more than N pets of S are known; otherwise inconclusive. S is the status with the most known pets. That the pets are all of S is judged by listPets/status-filter-matches on the same answers.',
  }),
  'listPets/status-invalid': must({
    title: 'a status filter outside the enum: no 5xx, no more than 100 pets, a 4xx Error or a 200 Pets answer',
    specText: 'status: PetStatus, one of `available`, `pending`, `sold`.',
    source: POLICY,
    decision: 'Same rule as out-of-range limit.',
  }),
  'listPets/status-invalid-400': should({
    title: 'a status filter outside the enum is answered 400 with an Error body',
    specText: 'status: PetStatus, one of `available`, `pending`, `sold`.',
    source: POLICY,
    decision: 'SHOULD: 400 with an Error body.',
  }),
  'listPets/equivalent-spellings': must({
    title: 'a list request spelled another way with the same meaning gets the answer the plain spelling gets',
    specText: 'Query parameters: `limit` (integer), `status` (PetStatus). Request and response bodies are JSON (`application/json`).',
    source: `${POLICY} (equivalent spellings)`,
    decision:
      'Percent-encoded unreserved characters in a query value (RFC 3986 §2.3, §6.2.2.2: `%61vailable` is `available`) and an `Accept` that admits JSON in other words (`*/*`, `application/*`, q-values, another letter case, none): compared with the plain request on status and on the ids of the pets listed; a difference fails, with both exchanges.',
  }),
  'listPets/path-spelling-equivalent': should({
    title: 'GET /v1/%70ets gets the answer GET /v1/pets gets',
    specText: 'Paths are relative to {base_url}.',
    source: `${POLICY} (equivalent spellings, SHOULD)`,
    decision:
      'SHOULD only: percent-encoded unreserved characters in the fixed segments of the path mean the same (RFC 3986 §2.3), but many routers match the path undecoded and URI producers should not create such spellings.',
  }),
  'listPets/further-pages': info({
    title: 'how further pages are offered (Link, X-Total-Count and similar headers) is recorded',
    specText: 'How to request further pages (cursor, offset, page number, total count, paging headers): not shown.',
    source: LIST,
  }),

  // ── createPet ───────────────────────────────────────────────────────────────
  'createPet/returns-201-pet': must({
    title: 'a valid NewPet is answered 201 with a Pet body that includes the assigned id',
    specText: 'Success: `201`, body is Animal (includes the assigned `id`).',
    source: CREATE,
    needsWrites: true,
  }),
  'createPet/body-schema': must({
    title: 'every 2xx answer of POST /pets is a valid Pet (id and categoryId within int64)',
    specText: 'An animal is all fields of NewPet plus `id`.',
    source: 'Resources and their fields › Animal',
    needsWrites: true,
  }),
  'createPet/echoes-fields': must({
    title: 'the created pet echoes name exactly, categoryId digit for digit and status when sent',
    specText: 'An animal is all fields of NewPet plus `id`.',
    source: POLICY,
    decision:
      'the body echoes `name`, `categoryId` (losslessly) and, when sent, `status`. Names are compared code point for code point, with no Unicode normalisation (a target that stores NFC fails); categoryId by exact value, so `5.0` sent and `5` returned are equal. Checked on fixed cases and on generated valid bodies.',
    needsWrites: true,
  }),
  'createPet/ids-unique': must({
    title: 'ids of created pets are distinct, compared digit for digit',
    specText: 'id: Unique identifier assigned by the service on creation.',
    source: 'Resources and their fields › Animal',
    needsWrites: true,
  }),
  'createPet/round-trip-get': must({
    title: 'GET /pets/{id} returns the pet just created',
    specText: '`GET /pets/{id}` then returns the same pet.',
    source: POLICY,
    decision:
      'Within the consistency window (default 5 s, --consistency-window-ms; 0 means at once): the GET is repeated with backoff, a bounded number of times, until the pet shows. For generated bodies the GET is compared with the 201 answer (id, name, categoryId, and status when sent), so a wrong echo is blamed once, on echoes-fields.',
    needsWrites: true,
  }),
  'createPet/created-pet-listed': must({
    title: 'a created pet appears in GET /pets?status=S&limit=100 when that list holds fewer than 100 pets',
    specText: 'a created pet appears in `GET /pets?status=S&limit=100` when that list holds fewer than 100 pets.',
    source: POLICY,
    decision: 'Within the consistency window, as for createPet/round-trip-get: a list that lags behind the write is read again until the pet shows or the window closes.',
    needsWrites: true,
  }),
  'createPet/invalid-body-400': must({
    title: 'an invalid NewPet body is answered exactly 400 (not 422) with an Error body',
    specText: 'Errors: `400` (Error body; body is missing required fields or contains invalid values).',
    source: CREATE,
    decision:
      'Exactly 400. Covers missing or wrongly typed name/categoryId, categoryId not an integer or outside int64, status outside the enum, a body that is not a JSON object, malformed JSON, an empty body.',
    needsWrites: true,
  }),
  'createPet/invalid-body-not-created': must({
    title: 'an invalid NewPet body creates nothing',
    specText: 'Errors: `400` (… body is missing required fields or contains invalid values).',
    source: POLICY,
    decision:
      'Nothing created: a 2xx answer means it was; otherwise the refused body carries a run-unique marker (its name, else its categoryId) that must not appear in the list it would show in, when that list is complete (fewer than 100 items).',
    needsWrites: true,
  }),
  'createPet/content-encoding': must({
    title: 'a body with a Content-Encoding is decoded, refused with 400 or 415, or read as sent: never a 5xx, and a pet only from a valid NewPet',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `${POLICY}b (Content-Encoding), RFC 9110 §8.4`,
    decision:
      'Sent with Content-Encoding gzip on a body that has that coding and on one that lacks it, an unknown coding, and identity. 201 passes when the pet is the NewPet as sent or as decoded; 400 or 415 pass with an Error body (INFO: which). RFC 9110 §8.4 makes 415 a MAY.',
    needsWrites: true,
    reportedByRun: true,
  }),
  'createPet/json-implementation-limits': info({
    title: 'what the service answers to JSON texts RFC 8259 leaves to the parser, and to NewPets nested deep, is recorded',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `${POLICY}b (JSON text), RFC 8259 §9`,
    decision:
      'INFO: the i_ texts of JSONTestSuite as the body, its y_ texts as a member more, and members nested 512 and 10,000 arrays deep. Never a 5xx (responses/no-server-error).',
    needsWrites: true,
    reportedByRun: true,
  }),
  'createPet/invalid-body-edges': must({
    title: 'the edges of the body space are invalid bodies: {}, unknown properties only, name alone, categoryId alone: exactly 400, nothing created',
    specText: 'Request body (required), `application/json`: NewPet. `name` and `categoryId` are required.',
    source: `${POLICY} (the edges of the body space)`,
    decision:
      'Exactly 400 with an Error body. Nothing created: name alone and categoryId alone carry a marker the refused-pet search looks for; {} and a body of unknown properties only carry none a pet would show, so for them a 2xx answer is what shows a creation.',
    needsWrites: true,
  }),
  'createPet/client-id-not-honoured': must({
    title: 'an id sent in the body is never honoured: the service chooses the id, or refuses the body, and a pet that holds the sent id is left unchanged',
    specText: 'The client does not send `id`; the service assigns it.',
    source: `Resources and their fields › NewPet; ${POLICY} (a client-sent id)`,
    decision:
      'Sent twice: with an id no pet holds and with the id of an existing pet. Passes: 201 with an id the service chose, or 400 with an Error body; and the existing pet reads back unchanged. Fails: a 201 carrying the sent id, a pet then found under the sent id, or the existing pet changed.',
    needsWrites: true,
  }),
  'createPet/client-id-accepted': should({
    title: 'a NewPet that also carries an id is answered 201 (the schemas are open)',
    specText: 'The client does not send `id`; the service assigns it.',
    source: `${POLICY} (a client-sent id)`,
    decision: 'SHOULD: 201, since the schemas are open; a 400 with an Error body is allowed and only warned.',
    needsWrites: true,
  }),
  'createPet/concurrent-creates': must({
    title: 'creates that overlap in time each get their own id, and each pet reads back as sent',
    specText: 'id: Unique identifier assigned by the service on creation.',
    source: `${POLICY} (concurrent creates)`,
    decision:
      'Eight creates are sent at once (within --concurrency); every one acknowledged with 201 must carry a distinct id and read back by GET /pets/{id}, within the consistency window, with the name, categoryId and status sent.',
    needsWrites: true,
  }),
  'createPet/repeated-creates': must({
    title: 'the same NewPet body sent twice, one after the other or at once, creates two pets with distinct ids',
    specText: 'Add an animal: POST /pets. Success: 201, body is Animal (includes the assigned id). id: Unique identifier assigned by the service on creation.',
    source: `${POLICY} (repeated creates)`,
    decision:
      'POST is not idempotent (RFC 9110 §9.2.2): the same body, byte for byte, is sent twice one after the other and twice at once; each POST must be answered 201 with its own id, and each pet must read back by GET /pets/{id}, within the consistency window, as sent. A service that answers a repeated body with the pet it already made (a cache keyed by the body, double-submit protection) fails.',
    needsWrites: true,
  }),
  'createPet/integer-edges-round-trip': must({
    title: 'a categoryId at each edge of the narrower integer types reads back digit for digit in every view',
    specText: 'categoryId: integer, format int64, required.',
    source: `${POLICY} (integer edges)`,
    decision:
      'Every full run creates a pet with each of 0, ±1, ±(2^31 − 1), ±2^31, 2^32 − 1, 2^32, ±(2^53 − 1), ±2^53, ±(2^53 + 1), ±(2^63 − 1) and −2^63 as categoryId, whatever the seed, and compares it digit for digit in the 201 answer, GET /pets/{id} and the list of its status (when that list holds fewer than 100 pets). Inconclusive when --category-ids restricts the category ids. The generated bodies and the sequences draw the same edges too.',
    needsWrites: true,
  }),
  'createPet/long-names-kept': must({
    title: 'names of 255, 256, 1,024 and 4,096 code points, and of as many UTF-8 bytes, are stored and shown whole',
    specText: "name: string, required. The animal's name.",
    source: `${POLICY} (name lengths)`,
    decision:
      'The spec sets no maximum length, so a valid name of any length is stored whole. Every full run creates pets whose names are 255, 256, 1,024 and 4,096 code points long, and 255, 256, 1,024 and 4,096 UTF-8 bytes long made mostly of characters outside the BMP, and compares each name code point for code point in the 201 answer, GET /pets/{id} and the list of its status (when that list holds fewer than 100 pets).',
    needsWrites: true,
  }),
  'createPet/equivalent-spellings': must({
    title: 'a create spelled another way with the same meaning gets the answer the plain spelling gets',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `${POLICY} (equivalent spellings; numbers a double misreads)`,
    decision:
      'A request `Content-Type` of `application/json` with parameters or in another letter case (RFC 9110 §8.3.1), the same JSON document spelled differently (`\\u0061` escapes, whitespace, member order), and an integer categoryId spelled `1.0`, `1e0`, `0.1e1` or `10e-1`: compared with the plain create on status and on the pet, its id aside; an integer spelling must be answered 201 and echoed as the integer.',
    needsWrites: true,
  }),
  'createPet/hazardous-names': must({
    title: 'names holding control characters, escape look-alikes, markup and quotes are stored and shown exactly',
    specText: 'name: string, required.',
    source: `${POLICY} (characters storage changes)`,
    decision:
      'Every full run, whatever the seed, creates names holding NUL and each other C0 and C1 control character, text that looks like a JSON escape (a backslash before `n`, `u0041`, `\\`, `"`), markup and quote characters, and reads each back exactly (after JSON decoding) in the 201, GET /pets/{id} and the list of its status.',
    needsWrites: true,
  }),
  'createPet/ill-formed-text': must({
    title: 'a name holding a lone surrogate is refused with 400, or stored and read back the same in every view; never a 5xx',
    specText: 'name: string, required.',
    source: `${POLICY} (text that is not Unicode)`,
    decision:
      'A name holding a lone surrogate escape (`\\ud800`): 400 with an Error body and nothing created, or 201 with the name read back the same in the 201, GET /pets/{id} and the list of its status (INFO: which is recorded); never a 5xx, and never a stored pet that makes a later read fail.',
    needsWrites: true,
  }),
  'createPet/request-media-types': must({
    title: 'a body labelled with another media type, or none, is answered 415 or 400 with an Error body, or 201 when it is a valid NewPet; never a 5xx',
    specText: 'Request body (required), `application/json`: NewPet.',
    source: `${POLICY} (request media types)`,
    decision: 'A valid NewPet labelled `text/plain`, a form type, `application/xml` or nothing: 415 or 400 with an Error body, or 201 (INFO: which is recorded); never a 5xx.',
    needsWrites: true,
  }),
  'createPet/read-your-writes-lag': info({
    title: 'how long created pets took to show in GET /pets/{id} and in the lists is recorded',
    specText: 'Consistency between a write and later reads: not shown.',
    source: `${POLICY} (consistency)`,
    decision: 'INFO: the longest lag any read of a created pet saw, and how many reads had to wait; a pet still missing when the window closes fails the requirement that read it.',
    needsWrites: true,
    reportedByRun: true,
  }),
  'createPet/status-omitted': info({
    title: 'the status stored when status is omitted at creation is recorded',
    specText: 'Value of `status` when it is omitted at creation: not shown.',
    source: 'Resources and their fields › Gaps',
    decision: 'INFO: any value of the enum, or no field, passes.',
    needsWrites: true,
  }),

  // ── getPet ──────────────────────────────────────────────────────────────────
  'getPet/returns-pet': must({
    title: 'GET /pets/{id} of an existing pet is answered 200 with that Pet',
    specText: 'Success: `200`, body is Animal.',
    source: GET,
    deprecatedOperation: true,
  }),
  'getPet/body-schema': must({
    title: 'every 2xx answer of GET /pets/{id} is a valid Pet',
    specText: 'Success: `200`, body is Animal.',
    source: GET,
    deprecatedOperation: true,
  }),
  'getPet/matches-listed-pet': must({
    title: 'GET /pets/{id} and GET /pets show the same name and categoryId for a pet',
    specText: 'Success: `200`, body is Animal.',
    source: GET,
    decision: 'status is not compared: transitions are not shown, another area may change it between two reads.',
    deprecatedOperation: true,
  }),
  'getPet/unknown-id-404': must({
    title: 'GET /pets/{id} of an id that does not exist is answered 404 with an Error body',
    specText: 'Errors: `404` (Error body; the animal could not be found).',
    source: GET,
    deprecatedOperation: true,
  }),
  'getPet/invalid-id': must({
    title: 'a petId that is not an integer or is outside int64 is answered 400 or 404 with an Error body',
    specText: 'Path parameter: `petId`, integer, format int64, required.',
    source: POLICY,
    decision: 'MUST: 400 or 404 with a valid Error body, never 2xx or 5xx.',
    deprecatedOperation: true,
  }),
  'getPet/int64-edge-ids': must({
    title: 'GET /pets/{id} for ids at the edges of int64 (0, ±1, -2^63, 2^63-1 and neighbours) answers the pet the lists show, else 404 (or 400) with an Error body',
    specText: 'Path parameter: `petId`, integer, format int64, required.',
    source: `${POLICY} (ids at the edges of int64)`,
    decision:
      'Never 2xx for an id no pet holds, never 5xx; an id of 0 is a real id when a list shows it. A 200 for an id the lists do not show is only judged when the lists show the whole store (fewer than 100 pets); otherwise that row is inconclusive unless the answer names another id.',
    deprecatedOperation: true,
  }),
  'getPet/equivalent-spellings': must({
    title: "GET /pets/{id} with the id's digits percent-encoded gets the answer the plain digits get",
    specText: 'Path parameter: `petId`, integer, format int64, required.',
    source: `${POLICY} (equivalent spellings)`,
    decision:
      'Percent-encoded unreserved characters in the `petId` segment mean the same (RFC 3986 §2.3, §6.2.2.2: `%33%30` is `30`): compared with the plain request on status and on the pet.',
    deprecatedOperation: true,
  }),
  'getPet/other-notations': must({
    title: "an existing pet's id in another notation (0x, 0o, 0b, a digit separator, digits of another script) never reaches the pet",
    specText: 'Path parameter: `petId`, integer, format int64, required.',
    source: `${POLICY} (other notations)`,
    decision:
      'A radix prefix (with or without a sign), digit separators, or Unicode decimal digits other than ASCII are not a decimal integer in any reading: 400 or 404 with a valid Error body (the non-integer petId row), never the pet. Built from ids that exist, so that a lenient parser shows.',
    deprecatedOperation: true,
  }),
  'getPet/lenient-notations': info({
    title: 'what GET /pets/{id} answers to +N, 0N, N.0 and Ne0 for an existing id is recorded',
    specText: 'Path parameter: `petId`, integer, format int64, required.',
    source: `${POLICY} (other notations, INFO)`,
    decision: 'INFO only: a JSON-number reading makes 5.0 and 5e0 integers, a decimal reading allows a sign and leading zeros.',
    deprecatedOperation: true,
  }),
  'getPet/deprecation-headers': info({
    title: 'Deprecation and Sunset headers of GET /pets/{id} are recorded',
    specText: 'The operation is marked deprecated. It is to be removed on 5 December 2030.',
    source: GET,
    decision: '`Deprecation`/`Sunset` headers: INFO.',
  }),

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
      'An invalid key includes a token that merely starts or ends with the key: with a letter added or left out, and with whitespace HTTP does not strip (only SP and HTAB are, RFC 9110 §5.5) before or after it: U+00A0, U+2007, U+200B and U+FEFF, sent as their UTF-8 bytes (policy §2, auth precedence).',
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
      'Sent without a Bearer header: the key as api_key and access_token query parameters, in a cookie, in X-API-Key, as Authorization without a scheme, and as Basic credentials. Any answer but a 2xx passes when it holds no pet data. Read-only. A key in a query string is masked in every report like the header.',
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
      'Judged by the run on every connection: the target closing one within 1 s of an answer that did not say Connection: close warns, with that answer. A request already sent on such a connection gets no answer; its check is inconclusive, and a POST is never sent again (RFC 9112 §9.3.1: it may have been processed). A later close is an idle timeout, which HTTP allows unannounced.',
    reportedByRun: true,
  }),
  'responses/meaningless-fields-ignored': should({
    title: 'a header field that carries no meaning for this API does not change the answer',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: `${POLICY}b; RFC 9110 §10.1.3`,
    decision:
      "Referer, Origin, Via, Forwarded and its X-Forwarded-*/X-Real-IP forebears, an unknown Cookie, a browser's User-Agent and the other fields the field dictionary marks as carrying no meaning, added to a read, get the plain request's answer; so does the Host in another letter case. RFC 9110 §10.1.3 lets servers refuse on Referer, so a refusal warns, and must still be a 4xx with an Error body (errors/body-schema, a MUST).",
    reportedByRun: true,
  }),
  'responses/edits-answered': should({
    title: 'every one-element edit of a request the suite sends is answered in time',
    specText: 'Every operation lists its answers: 200/201, 400, 401, 404.',
    source: `${POLICY}b (the neighbourhood of a request)`,
    decision:
      'Each request the neighbourhood sends (the plain requests and each edit of one part: drop, duplicate, case, percent-coding, an octet of every class, other notations, a field or member from a dictionary, deep nesting, JSONTestSuite texts) gets an answer; for a message HTTP refuses as written, a closed connection is an answer too. A full run applies every operator to every part it edits; the edits it made are listed in results.json (neighbourhood). Every invariant of every answer is charged to its own requirement.',
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

export type RequirementId = keyof typeof catalogue

export interface Requirement extends RequirementDefinition {
  id: RequirementId
  area: Area
}

export const requirements: readonly Requirement[] = Object.entries(catalogue).map(([id, definition]) => ({
  ...(definition as RequirementDefinition),
  id: id as RequirementId,
  area: id.split('/')[0] as Area,
}))

export function isRequirementId(value: string): value is RequirementId {
  return Object.hasOwn(catalogue, value)
}

/** Whether a requirement filter entry selects an id: `area/` selects the area, anything else an id (or the ids below it). */
export function filterEntrySelects(entry: string, id: string): boolean {
  return entry.endsWith('/') ? id.startsWith(entry) : id === entry || id.startsWith(`${entry}/`)
}

/** An empty filter selects everything. */
export function isSelected(id: string, filter: readonly string[]): boolean {
  return filter.length === 0 || filter.some((entry) => filterEntrySelects(entry, id))
}

export function requirement(id: RequirementId): Requirement {
  const found = requirements.find((candidate) => candidate.id === id)
  if (!found) throw new Error(`unknown requirement ${id}`)
  return found
}

/** Removal date of the deprecated getPet operation (spec: "to be removed on 5 December 2030"). */
export const GET_PET_REMOVAL = new Date('2030-12-05T00:00:00Z')

/** The level in force on a given day: getPet requirements drop to INFO from the removal date on. */
export function effectiveLevel(req: Requirement, now: Date): Level {
  if (req.deprecatedOperation && now.getTime() >= GET_PET_REMOVAL.getTime()) return 'INFO'
  return req.level
}
