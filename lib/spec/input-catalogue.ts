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

export type SpellingClass = 'same meaning' | 'not the value' | 'hazardous data' | 'lenient reading'

export interface Spelling {
  label: string
  /** The spelling of a value, given the plain text of it (an id's digits, a query value, a header value, a JSON text, a name). */
  spell: (plain: string) => string
  /** The spelling is octets, one per character, sent as written (a byte that is not UTF-8), not text. */
  octets?: true
}

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

const hex = (code: number) => code.toString(16).toUpperCase().padStart(2, '0')

/** Each character as %XX (RFC 3986 §2.1): for unreserved characters, a spelling with the same meaning (§2.3, §6.2.2.2). */
export function percentEncodeAll(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => `%${hex(byte)}`).join('')
}

/** The decimal digits of `digits` in another script: its zero's code point plus each digit. */
function inScript(zero: number): (digits: string) => string {
  return (digits) => digits.replace(/\d/g, (digit) => String.fromCodePoint(zero + Number(digit)))
}

/** The zeros of the runs of ten decimal digits parsers read (ASCII, Arabic-Indic, Extended Arabic-Indic, Devanagari, Bengali, fullwidth, the five mathematical sets). */
const DIGIT_ZEROS = [0x30, 0x0660, 0x06f0, 0x0966, 0x09e6, 0xff10, 0x1d7ce, 0x1d7d8, 0x1d7e2, 0x1d7ec, 0x1d7f6]

/** A decimal digit's value, whatever its script; NaN for anything else. */
export function decimalDigitValue(code: number): number {
  const zero = DIGIT_ZEROS.find((start) => code >= start && code < start + 10)
  return zero === undefined ? Number.NaN : code - zero
}

const asBigInt = (digits: string) => BigInt(digits)

/** Digits with a separator after the first: `30` → `3_0`, `7` → `0_7`. */
const withSeparator = (digits: string) => (digits.length > 1 ? `${digits[0]}_${digits.slice(1)}` : `0_${digits}`)

const RFC3986 = 'RFC 3986 §2.3, §6.2.2.2; policy §2 (equivalent spellings)'

/** Other notations of a non-negative integer: none is a decimal integer in any reading of the spec (policy §2, other notations). */
export const OTHER_NOTATIONS: readonly Spelling[] = [
  { label: 'hexadecimal, 0x', spell: (digits) => `0x${asBigInt(digits).toString(16)}` },
  { label: 'hexadecimal, 0X, upper case', spell: (digits) => `0X${asBigInt(digits).toString(16).toUpperCase()}` },
  { label: 'hexadecimal with a sign, +0x', spell: (digits) => `+0x${asBigInt(digits).toString(16)}` },
  { label: 'octal, 0o', spell: (digits) => `0o${asBigInt(digits).toString(8)}` },
  { label: 'binary, 0b', spell: (digits) => `0b${asBigInt(digits).toString(2)}` },
  { label: 'a digit separator, 1_0', spell: withSeparator },
  { label: 'Arabic-Indic digits (U+0660…)', spell: inScript(0x0660) },
  { label: 'Devanagari digits (U+0966…)', spell: inScript(0x0966) },
  { label: 'fullwidth digits (U+FF10…)', spell: inScript(0xff10) },
  { label: 'mathematical bold digits (U+1D7CE…)', spell: inScript(0x1d7ce) },
  // Not an integer in any reading either (the non-integer petId row): whitespace around the digits, which
  // JavaScript's Number() and many routers' parsers drop, and a point that no JSON number allows where it stands.
  { label: 'a space before, " 30"', spell: (digits) => ` ${digits}` },
  { label: 'a tab before', spell: (digits) => `\t${digits}` },
  { label: 'a line feed after', spell: (digits) => `${digits}\n` },
  { label: 'a no-break space after (U+00A0)', spell: (digits) => `${digits}\u00a0` },
  { label: 'an em space before (U+2003)', spell: (digits) => `\u2003${digits}` },
  { label: 'a trailing point, 30.', spell: (digits) => `${digits}.` },
  { label: 'a leading point and an exponent, .30e2', spell: (digits) => `.${digits}e${digits.length}` },
]

/** Readings that differ between a decimal and a JSON-number reading: recorded, never failed. */
export const LENIENT_NOTATIONS: readonly Spelling[] = [
  { label: 'a plus sign, +5', spell: (digits) => `+${digits}` },
  { label: 'a leading zero, 05', spell: (digits) => `0${digits}` },
  { label: 'a fraction of zero, 5.0', spell: (digits) => `${digits}.0` },
  { label: 'an exponent, 5e0', spell: (digits) => `${digits}e0` },
]

/** Names whose characters storage, escaping and rendering layers change (policy §2, characters storage changes). */
export const HAZARDOUS_NAME_PARTS: readonly Spelling[] = [
  { label: 'NUL', spell: (prefix) => `${prefix}a\u0000b` },
  { label: 'every other C0 control (U+0001 to U+001F)', spell: (prefix) => `${prefix}${String.fromCharCode(...Array.from({ length: 31 }, (_, index) => index + 1))}` },
  { label: 'DEL and every C1 control (U+007F to U+009F)', spell: (prefix) => `${prefix}${String.fromCharCode(...Array.from({ length: 33 }, (_, index) => index + 0x7f))}` },
  { label: 'a backslash before n, as text (not a line break)', spell: (prefix) => `${prefix}a\\nb` },
  { label: 'a backslash before u0041, as text', spell: (prefix) => `${prefix}\\u0041` },
  { label: 'a lone backslash, and one at the end', spell: (prefix) => `${prefix}a\\b\\` },
  { label: 'a backslash before a quote, as text', spell: (prefix) => `${prefix}say \\"hi\\"` },
  { label: 'markup and entities', spell: (prefix) => `${prefix}<b>bold</b> &amp; <script>x</script>` },
  { label: 'quotes, \' and "', spell: (prefix) => `${prefix}it's "quoted"` },
  { label: 'a percent sign and a plus, as URL-encoding would read them', spell: (prefix) => `${prefix}50%25 + 1` },
]

/** A JSON text respelled with the same meaning (RFC 8259): what the JSON reader must see through. */
export const JSON_RESPELLINGS: readonly Spelling[] = [
  { label: 'each ASCII letter of the strings as a \\u escape', spell: (json) => escapeLetters(json) },
  { label: 'whitespace around every token', spell: (json) => json.replace(/([{}[\],:])/g, ' \n\t$1 \r\n ') },
  { label: 'the members in reverse order', spell: (json) => reverseMembers(json) },
]

/** Every ASCII letter inside JSON strings as \uXXXX (member names included). */
function escapeLetters(json: string): string {
  return json.replace(/"((?:[^"\\]|\\.)*)"/g, (_whole, inner: string) => `"${inner.replace(/[A-Za-z]/g, (letter) => `\\u${letter.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`)
}

/** A flat JSON object's members in reverse order (the texts of its values kept as written). */
function reverseMembers(json: string): string {
  const inner = json.trim().replace(/^\{|\}$/g, '')
  const members = inner.match(/"(?:[^"\\]|\\.)*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[^,}]+)/g) ?? []
  return `{${[...members].reverse().join(',')}}`
}

/** The same integer as a JSON number spelled otherwise (RFC 8259 §6: a number is its decimal value). */
export const INTEGER_RESPELLINGS: readonly Spelling[] = [
  { label: 'with a fraction of zero, 1.0', spell: (digits) => `${digits}.0` },
  { label: 'with an exponent, 1e0', spell: (digits) => `${digits}e0` },
  { label: 'as a fraction times a power of ten, 0.1e1', spell: (digits) => `${digits.startsWith('-') ? '-' : ''}0.${digits.replace(/^-/, '')}e${digits.replace(/^-/, '').length}` },
  { label: 'as ten times with a negative exponent, 10e-1', spell: (digits) => (/^-?0$/.test(digits) ? `${digits}e-1` : `${digits}0e-1`) },
]

/** Whitespace HTTP does not strip around a field value (only SP and HTAB are, RFC 9110 §5.5), but a service that trims Unicode whitespace would. */
const UNSTRIPPED_WHITESPACE = [
  ['U+00A0 (no-break space)', '\u00a0'],
  ['U+2007 (figure space)', '\u2007'],
  ['U+200B (zero-width space)', '\u200b'],
  ['U+FEFF (zero-width no-break space)', '\ufeff'],
] as const

/** A header value as its UTF-8 octets: the client writes each character of a value as one octet. */
const utf8Octets = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

/** Tokens that merely look like the key, given the key (policy §2, auth precedence; header octets). */
export const KEY_LOOKALIKES: readonly Spelling[] = [
  { label: 'the key with a character appended', spell: (key) => `Bearer ${key}x` },
  { label: 'the key with a character prepended', spell: (key) => `Bearer x${key}` },
  { label: 'the key without its last character', spell: (key) => `Bearer ${key.slice(0, -1)}` },
  { label: 'the key followed by a space and more text', spell: (key) => `Bearer ${key} extra` },
  ...UNSTRIPPED_WHITESPACE.flatMap(([name, space]) => [
    { label: `${name} before the key`, spell: (key: string) => utf8Octets(`Bearer ${space}${key}`) },
    { label: `${name} after the key`, spell: (key: string) => utf8Octets(`Bearer ${key}${space}`) },
  ]),
  // Header values are octets (RFC 9110 §5.5), read as ISO-8859-1 by some servers: a character that has one
  // octet there is tried as that octet too (0xA0 for U+00A0), which such a server may trim as whitespace.
  ...UNSTRIPPED_WHITESPACE.filter(([, space]) => space.charCodeAt(0) <= 0xff).flatMap(([name, space]) => [
    { label: `${name} before the key, as its ISO-8859-1 octet`, spell: (key: string) => `Bearer ${space}${key}` },
    { label: `${name} after the key, as its ISO-8859-1 octet`, spell: (key: string) => `Bearer ${key}${space}` },
  ]),
]

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
    expected: 'recorded (INFO): a JSON-number reading takes 5.0 and 5e0 as 5, a decimal one +5 and 05',
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
      // The plain create's body is ASCII: labelled US-ASCII it is the same octets, and RFC 8259 §11 says a charset has no effect.
      { label: 'application/json; charset=us-ascii', spell: () => 'application/json; charset=us-ascii' },
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
