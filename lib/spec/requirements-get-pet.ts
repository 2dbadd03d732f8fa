/** The requirements of GET /pets/{petId} (deprecated: INFO from its removal date). */
import { GET, info, must, POLICY, type RequirementDefinition } from './requirement-definition.js'

export const getPetRequirements = {
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
      'Never 2xx for an id no pet holds, never 5xx; an id of 0 is a real id when a list shows it. A 200 for an id the lists do not show is judged when the lists show the whole store (fewer than 100 pets), or showed it before the run wrote and every request of the run that may create a pet, those under way included, was answered with the id of what it made, none this one (a fresh build seeded by the run); otherwise that row is inconclusive unless the answer names another id.',
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
} satisfies Record<string, RequirementDefinition>
