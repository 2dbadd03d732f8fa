/**
 * Every place a request carries input, and the ways the same input can be spelled (policy §2: equivalent
 * spellings, other notations, numbers a double misreads, JSON text, text that is not Unicode, header octets,
 * characters storage changes, request media types). A row is a class of spellings: what it is, what the answer
 * must be, where that is written, and the spellings themselves as functions of the plain text of a value. The
 * checks and the generated bodies read these rows; `docs/inputs.md` is rendered from them. Adding a spelling is
 * one line of a row.
 *
 * Classes: `same meaning`: the answer must be the one the plain spelling gets (compared); `not the value`: the
 * policy's refusal; `hazardous data`: stored and shown exactly, or the policy's refusal; `lenient reading`: INFO,
 * recorded, since readings of the spec differ.
 */
import type { Level, RequirementId } from './catalogue.js'
import {
  HAZARDOUS_NAME_PARTS,
  INTEGER_RESPELLINGS,
  JSON_RESPELLINGS,
  KEY_LOOKALIKES,
  LENIENT_NOTATIONS,
  OTHER_NOTATIONS,
  percentEncodeAll,
  RFC3986,
  type Spelling,
} from './spellings.js'

export type InputPlace =
  | 'path petId'
  | 'path fixed segment'
  | 'query limit'
  | 'query status'
  | 'Authorization'
  | 'Content-Type'
  | 'Accept'
  | 'body text'
  | 'NewPet name'
  | 'NewPet categoryId'

export type SpellingClass = 'same meaning' | 'not the value' | 'hazardous data' | 'lenient reading' | 'refusable'

export interface InputClass {
  place: InputPlace
  class: SpellingClass
  /** The class in words: "percent-encoded unreserved characters". */
  title: string
  expected: string
  /** The RFC or policy line it comes from. */
  source: string
  level: Level
  requirement: RequirementId
  spellings: readonly Spelling[]
}

/**
 * The Accept a browser sends: HTML first, JSON admitted only by `*\/*`. A service whose framework renders HTML to
 * browsers (a browsable API) answers it in HTML; the policy asks for JSON to every Accept that admits it.
 */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

export const INPUT_CATALOGUE: readonly InputClass[] = [
  {
    place: 'Authorization',
    class: 'not the value',
    title: 'a token that merely looks like the key',
    expected: '401 with an Error body, on every operation',
    source: 'RFC 6750 §2.1; policy §2 (auth precedence: an invalid key; header octets)',
    level: 'MUST',
    requirement: 'auth/key-lookalike-401',
    spellings: KEY_LOOKALIKES,
  },
  {
    place: 'path petId',
    class: 'same meaning',
    title: 'percent-encoded digits',
    expected: 'the answer GET /pets/{id} gets with the plain digits (status and pet)',
    source: RFC3986,
    level: 'MUST',
    requirement: 'getPet/equivalent-spellings',
    spellings: [
      { label: 'every digit percent-encoded, %33%30', spell: percentEncodeAll },
      { label: 'the first digit percent-encoded', spell: (digits) => `${percentEncodeAll(digits.slice(0, 1))}${digits.slice(1)}` },
    ],
  },
  {
    place: 'path petId',
    class: 'not the value',
    title: 'other notations of an existing id',
    expected: '400 or 404 with an Error body (the non-integer petId row), never the pet',
    source: 'policy §2 (other notations)',
    level: 'MUST',
    requirement: 'getPet/other-notations',
    spellings: OTHER_NOTATIONS,
  },
  {
    place: 'path petId',
    class: 'lenient reading',
    title: 'notations a reading may take for the integer',
    expected: 'recorded (INFO): a JSON-number reading takes 5.0 and 5e0 as 5, a decimal one +5 and 05, a servlet container 5; (the segment’s parameters taken off)',
    source: 'policy §2 (other notations, INFO)',
    level: 'INFO',
    requirement: 'getPet/lenient-notations',
    spellings: LENIENT_NOTATIONS,
  },
  {
    place: 'path fixed segment',
    class: 'same meaning',
    title: 'percent-encoded letters of /pets',
    expected: 'the answer the plain path gets (SHOULD: many routers match the path undecoded)',
    source: 'RFC 3986 §2.3; policy §2 (equivalent spellings, SHOULD)',
    level: 'SHOULD',
    requirement: 'listPets/path-spelling-equivalent',
    spellings: [
      { label: '/v1/%70ets', spell: (segment) => `${percentEncodeAll(segment.slice(0, 1))}${segment.slice(1)}` },
      { label: '/v1/%70%65%74%73', spell: percentEncodeAll },
    ],
  },
  {
    place: 'query status',
    class: 'same meaning',
    title: 'percent-encoded letters of the status',
    expected: 'the answer the plain query gets (status and pets)',
    source: RFC3986,
    level: 'MUST',
    requirement: 'listPets/equivalent-spellings',
    spellings: [
      { label: 'the first letter percent-encoded, %61vailable', spell: (value) => `${percentEncodeAll(value.slice(0, 1))}${value.slice(1)}` },
      { label: 'every letter percent-encoded', spell: percentEncodeAll },
    ],
  },
  {
    place: 'query limit',
    class: 'same meaning',
    title: 'percent-encoded digits of the limit',
    expected: 'the answer the plain query gets (status and pets)',
    source: RFC3986,
    level: 'MUST',
    requirement: 'listPets/equivalent-spellings',
    spellings: [{ label: 'every digit percent-encoded', spell: percentEncodeAll }],
  },
  {
    place: 'query limit',
    class: 'not the value',
    title: 'other notations of a limit',
    expected: 'the out-of-range limit row: no 5xx, at most 100 pets, and a 4xx with a valid Error body or 200 with a valid Pets body',
    source: 'policy §2 (other notations; out-of-range limit)',
    level: 'MUST',
    requirement: 'listPets/limit-out-of-range',
    spellings: OTHER_NOTATIONS,
  },
  {
    place: 'Accept',
    class: 'same meaning',
    title: 'an Accept that admits JSON in other words',
    expected: 'the answer a request with Accept: application/json gets (status and pets), labelled application/json',
    source: 'RFC 9110 §12.5.1; policy §2 (equivalent spellings)',
    level: 'MUST',
    requirement: 'listPets/equivalent-spellings',
    spellings: [
      { label: '*/*', spell: () => '*/*' },
      { label: 'application/*', spell: () => 'application/*' },
      { label: 'q-values: text/html;q=0.9, application/json;q=0.8', spell: () => 'text/html;q=0.9, application/json;q=0.8' },
      { label: `a browser's: ${BROWSER_ACCEPT}`, spell: () => BROWSER_ACCEPT },
      { label: 'a parameter whose quoted value holds a comma: text/plain;x="a,b", application/json', spell: () => 'text/plain;x="a,b", application/json' },
      { label: 'another letter case, Application/JSON', spell: () => 'Application/JSON' },
      { label: 'no Accept header at all', spell: () => '' },
    ],
  },
  {
    place: 'Content-Type',
    class: 'same meaning',
    title: 'application/json with parameters (a charset has no effect on JSON, whatever it names) or in another letter case',
    expected: 'the answer the plain label gets (status, and the pet but its id)',
    source: 'RFC 9110 §8.3.1; RFC 8259 §11; policy §2 (equivalent spellings)',
    level: 'MUST',
    requirement: 'createPet/equivalent-spellings',
    spellings: [
      { label: 'application/json; charset=utf-8', spell: () => 'application/json; charset=utf-8' },
      { label: 'application/json;charset=UTF-8', spell: () => 'application/json;charset=UTF-8' },
      { label: 'Application/JSON', spell: () => 'Application/JSON' },
      { label: 'APPLICATION/JSON; CHARSET="utf-8"', spell: () => 'APPLICATION/JSON; CHARSET="utf-8"' },
      // Whitespace before the `;` (RFC 9110 §5.6.6: parameters = *( OWS ";" OWS [ parameter ] )): Bottle's request.json
      // compares the label split at `;` without trimming it, and read such a body as no JSON (red team).
      { label: 'application/json ; charset=utf-8 (a space before the semicolon)', spell: () => 'application/json ; charset=utf-8' },
      { label: 'application/json<HTAB>;charset=utf-8 (a tab before the semicolon)', spell: () => 'application/json\t;charset=utf-8' },
      // A parameter other than charset: application/json defines none (RFC 8259 §11), and a label's parameters are the
      // label's own (RFC 9110 §8.3.1). `q` weighs a media range in Accept only: Falcon picks a body's handler as it
      // reads Accept, and refused `q=0` with 415 (red team).
      { label: 'application/json; version=1 (a parameter application/json does not define)', spell: () => 'application/json; version=1' },
      { label: 'application/json; q=0 (a parameter only Accept reads as a weight)', spell: () => 'application/json; q=0' },
    ],
  },
  {
    place: 'Content-Type',
    class: 'refusable',
    title: 'application/json with a charset that names another encoding than the UTF-8 the body is in',
    expected:
      'the answer the plain label gets (SHOULD: RFC 8259 §11 gives a charset no effect on JSON); a refusal, 415 or 400 with an Error body and nothing created, warns (the label says the octets are in an encoding they are not in, RFC 9110 §8.3.1); a pet whose name was read in that encoding fails createPet/equivalent-spellings',
    source: 'RFC 8259 §11; RFC 9110 §8.3.1; policy §2 (equivalent spellings, request media types)',
    level: 'SHOULD',
    requirement: 'createPet/charset-label-ignored',
    // The name holds characters outside ASCII, written in UTF-8 as JSON must be (RFC 8259 §8.1).
    spellings: [
      { label: 'application/json; charset=us-ascii', spell: () => 'application/json; charset=us-ascii' },
      { label: 'application/json; charset=iso-8859-1', spell: () => 'application/json; charset=iso-8859-1' },
      { label: 'application/json; charset=windows-1252', spell: () => 'application/json; charset=windows-1252' },
      // A name no registry has: WebOb's json_body decodes in it and raised LookupError, which a vendor's `except ValueError` let through as a 500.
      { label: 'application/json; charset=x-unknown (a charset no registry names)', spell: () => 'application/json; charset=x-unknown' },
    ],
  },
  {
    place: 'Content-Type',
    class: 'not the value',
    title: 'a body labelled with another media type, or with none',
    expected: '415 or 400 with an Error body, or 201 when the body is a valid NewPet (INFO: which); never a 5xx',
    source: 'policy §2 (request media types)',
    level: 'MUST',
    requirement: 'createPet/request-media-types',
    spellings: [
      { label: 'text/plain', spell: () => 'text/plain' },
      { label: 'application/x-www-form-urlencoded', spell: () => 'application/x-www-form-urlencoded' },
      { label: 'application/xml', spell: () => 'application/xml' },
      // multipart/form-data needs its boundary (RFC 7578 §4.1): Twisted's HTTP layer parses such a body before any resource
      // and answered a bare 400 without one, before the key was read (red team).
      { label: 'multipart/form-data without its boundary', spell: () => 'multipart/form-data' },
      { label: 'no Content-Type at all', spell: () => '' },
    ],
  },
  {
    place: 'body text',
    class: 'same meaning',
    title: 'the same JSON document spelled otherwise',
    expected: 'the answer the plain text gets (status, and the pet but its id)',
    source: 'RFC 8259; policy §2 (equivalent spellings)',
    level: 'MUST',
    requirement: 'createPet/equivalent-spellings',
    spellings: JSON_RESPELLINGS,
  },
  {
    place: 'NewPet categoryId',
    class: 'same meaning',
    title: 'an integer spelled as a JSON number with a fraction or an exponent',
    expected: '201, categoryId echoed as the integer, as the plain spelling is',
    source: 'policy §2 (numbers a double misreads; what counts as valid: 5.0 is an integer)',
    level: 'MUST',
    requirement: 'createPet/equivalent-spellings',
    spellings: INTEGER_RESPELLINGS,
  },
  {
    place: 'body text',
    class: 'not the value',
    title: 'a body that is not exactly one JSON value, or whose required members are in another letter case',
    expected: 'exactly 400 with an Error body, and nothing created (an invalid NewPet)',
    source: 'RFC 8259 §2, §8.3; policy §2 (JSON text)',
    level: 'MUST',
    requirement: 'createPet/invalid-body-400',
    spellings: [
      { label: 'text after the JSON value, {…} xyz', spell: (json) => `${json} xyz` },
      { label: 'a second JSON value after the first, {…}{…}', spell: (json) => `${json}${json}` },
      { label: 'a stray bracket after the object, {…}]', spell: (json) => `${json}]` },
      { label: 'name only as "Name"', spell: (json) => json.replace('"name"', '"Name"') },
      { label: 'categoryId only as "CATEGORYID"', spell: (json) => json.replace('"categoryId"', '"CATEGORYID"') },
      { label: 'both required members in lower case, "categoryid"', spell: (json) => json.replace('"categoryId"', '"categoryid"') },
    ],
  },
  {
    place: 'NewPet categoryId',
    class: 'not the value',
    title: 'a number a double reads as an int64 that is none',
    expected: 'exactly 400 with an Error body, and nothing created: judged on the exact decimal value, never through a double',
    source: 'policy §2 (numbers a double misreads)',
    level: 'MUST',
    requirement: 'createPet/invalid-body-400',
    spellings: [
      { label: '1.0000000000000001 (a double rounds it to 1)', spell: () => '1.0000000000000001' },
      { label: '1e-400 (a double rounds it to 0)', spell: () => '1e-400' },
      { label: '1e400 (a double makes it Infinity)', spell: () => '1e400' },
      { label: '9223372036854775808 as written (2^63, one past int64)', spell: () => '9223372036854775808' },
      // An exponent kept in 64 bits wraps (aeson's scientific, Servant's: 1e18446744073709551617 was stored as 10).
      { label: '1e18446744073709551617 (an exponent past 2^64, which a 64-bit exponent wraps to 1)', spell: () => '1e18446744073709551617' },
      { label: '1e-18446744073709551615 (an exponent past -2^64, which a 64-bit exponent wraps to 1)', spell: () => '1e-18446744073709551615' },
    ],
  },
  {
    place: 'NewPet name',
    class: 'not the value',
    title: 'text that is not well-formed Unicode, or bytes that are not UTF-8',
    expected: '400 with an Error body and nothing created, or 201 with the name read back the same in every view (INFO: which); never a 5xx, never a pet that breaks a later read',
    source: 'RFC 8259 §8.2; policy §2 (text that is not Unicode)',
    level: 'MUST',
    requirement: 'createPet/ill-formed-text',
    spellings: [
      { label: 'a lone high surrogate escape, \\ud800', spell: (prefix) => `${JSON.stringify(prefix).slice(1, -1)}\\ud800` },
      { label: 'a lone low surrogate escape, \\udc00', spell: (prefix) => `${JSON.stringify(prefix).slice(1, -1)}\\udc00` },
      { label: 'the octet 0xFF, which UTF-8 never holds', spell: (prefix) => `${JSON.stringify(prefix).slice(1, -1)}\u00ff`, octets: true },
      { label: 'a UTF-8 sequence cut short (0xC3 alone)', spell: (prefix) => `${JSON.stringify(prefix).slice(1, -1)}\u00c3`, octets: true },
    ],
  },
  {
    place: 'NewPet name',
    class: 'hazardous data',
    title: 'characters storage, escaping and rendering layers change',
    expected: '201, and the name read back exactly (after JSON decoding) in the 201, GET /pets/{id} and the list of its status',
    source: 'policy §2 (characters storage changes)',
    level: 'MUST',
    requirement: 'createPet/hazardous-names',
    spellings: HAZARDOUS_NAME_PARTS,
  },
]

/** The rows of one place and class. */
export function inputClass(place: InputPlace, spellingClass: SpellingClass): InputClass {
  const row = INPUT_CATALOGUE.find((candidate) => candidate.place === place && candidate.class === spellingClass)
  if (!row) throw new Error(`no input class for ${place}, ${spellingClass}`)
  return row
}

/** Text as a path segment that means it: every character outside RFC 3986's unreserved and sub-delims, as UTF-8 %XX (ASCII that may stand in a segment is sent as written). */
export function asPathSegment(text: string): string {
  return [...text].map((character) => (/^[A-Za-z0-9\-._~!$&'()*+,;=:@%]$/.test(character) ? character : percentEncodeAll(character))).join('')
}
