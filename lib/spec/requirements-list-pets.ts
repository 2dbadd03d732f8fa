/** The requirements of GET /pets. */
import { info, LIST, must, POLICY, type RequirementDefinition, should } from './requirement-definition.js'

export const listPetsRequirements = {
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
  'listPets/limit-other-notations': should({
    title: 'a limit in another notation is not read as the number a lenient parser makes of it: the list is never exactly that long where the store holds more',
    specText: 'limit: integer, minimum 1, maximum 100.',
    source: `${POLICY} (other notations); ${POLICY}b (an edit that makes a value invalid never gets the plain request's answer)`,
    decision:
      "Judged on every edited list request whose limit is no decimal integer: the numbers lenient parsers read in it (parseInt, Number, a radix prefix, separators dropped, digits of other scripts) are worked out, and an answer of exactly one of those lengths fails when the store holds more pets of the list's status, and that length is neither the default page nor the full page of limit=100 (so a service that ignores the limit, or caps it, passes). Only evidence where the store holds more pets than the number. SHOULD only (policy, other notations): listPets lists no 400, a list of at most 100 valid pets is an allowed answer to any limit, and no reading of a limit reaches a pet; what must hold of such a list is judged by listPets/limit-out-of-range and the list rules.",
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
  'listPets/status-spelled-otherwise': must({
    title:
      "a status outside the enum that a lenient reader takes for one of it (another case; whitespace or a control octet around it; an escape of an escape, an escaped NUL then text, as the neighbourhood's edits write it) does not get that status's list",
    specText: 'status: PetStatus, one of `available`, `pending`, `sold`.',
    source: `${POLICY}b (an edit that makes a value invalid: never the plain request's answer), row "invalid \`status\` filter value"`,
    decision:
      "MUST, by §2b: an edit that makes a value invalid never gets the plain request's answer, and the row's one exception is a limit (row \"other notations\"); the invalid status row takes the out-of-range limit's answers (a 4xx, or a 200 list), not the limit's notations. The enum is case-sensitive and has no whitespace: `SOLD`, `sold` with an escaped space or tab, U+00A0 or U+3000 around it, is a status outside it, which gets what an invalid status gets (a 4xx, or a 200 list), not the list of `sold`. The answer is that list when it lists pets of status `sold` alone while the unfiltered list, read right after it, shows a pet of another status among as many first pets (a filter ignored would list it). Frameworks that strip query values (Tornado's get_query_argument) or match case-insensitively serve it. The neighbourhood's edits of the plain list's status value that make it none of the enum are held to it too: an answer that names the plain answer's very pets, where the unfiltered list read right after shows among as many first pets one the survey also saw of another status (a layer that decodes the query twice reads `pen%2564ing` as pending; one that cuts a value at NUL reads `pending%00x` so).",
  }),
  'listPets/parameters-past-a-cap': should({
    title:
      'the limit and the filter hold after as many parameters the spec does not name as a parser caps (100, 1,000): a list of at most the limit, of the status asked for, or a 4xx with an Error body',
    specText: 'The list holds at most `limit` items. If `status` is given, only animals with that status are returned.',
    source: `${POLICY}b (every answer holds to the rules of the request it answers); no policy row names how many parameters a service reads (docs/decisions.md proposes one): SHOULD at most`,
    decision:
      'GET /pets with 100, then 1,000 parameters the spec does not name (`x=`), then `status=S&limit=3`, S the status with the most known pets. Query parsers cap how many parameters they read and drop the rest without a word (nginx-lua ngx.req.get_uri_args: 100; Node querystring, qs, Express: 1,000; PHP max_input_vars: 1,000): the default page comes back, of every status. A 4xx with an Error body refuses the request, and passes. SHOULD only: no row says how many parameters a service must read, and a list of at most 100 valid pets holds every rule §2b names for a request the spec does not define; evidence only when more than 3 pets of S and a pet of another status are known.',
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
} satisfies Record<string, RequirementDefinition>
