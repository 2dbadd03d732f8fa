/**
 * fast-check arbitraries for createPet request bodies: valid NewPets across full Unicode and the whole
 * int64 range, and invalid ones that break exactly one labelled rule. Every arbitrary shrinks towards the
 * simplest case (a short ASCII name, categoryId 0, no status), so a reported counterexample is minimal.
 */
import fc from 'fast-check'
import { INT64_MAX, INT64_MIN } from '../http/int64.js'
import { JsonNumber, stringifyJson } from '../http/json.js'
import type { RequestBody } from '../spec/operation-requests.js'
import { isPetStatus, PET_STATUSES, type PetStatus } from '../spec/operations.js'
import { HAZARDOUS_NAME_PARTS, INTEGER_RESPELLINGS, type Spelling } from '../spec/spellings.js'
import type { NewPetRule } from './new-pet-oracle.js'

export interface ValidNewPet {
  name: string
  categoryId: bigint
  /**
   * How categoryId is written: plain digits, or respelled as one of the input catalogue's integer respellings
   * (`5.0`, `5e0`, `0.5e1`, `50e-1`), each the integer 5 (policy §2); which one follows from the value.
   */
  categoryIdSpelling: 'integer' | 'respelled'
  status?: PetStatus
  /** Unknown properties: the schema is open, so they are allowed. */
  extra: Record<string, string | number | boolean | null>
}

export interface InvalidNewPet {
  rule: NewPetRule
  /** What exactly is wrong, for the report (e.g. "name is a boolean"). */
  detail: string
  body: RequestBody
}

export interface NewPetArbitraryOptions {
  /** Category ids the target knows (exact digits); empty draws from the whole int64 range. */
  categoryIds: readonly string[]
}

/** Pieces that break naive string handling: JSON escapes, control characters, combining marks, astral and right-to-left text. */
/** The input catalogue's hazardous names, as pieces a generated name is made of (each spelled without a prefix). */
const HAZARDOUS_PIECES = HAZARDOUS_NAME_PARTS.map((spelling) => spelling.spell(''))

const TRICKY_PIECES = [
  '"',
  '\\',
  '/',
  '\u0000',
  '\u0001',
  '\u001f',
  '\u007f',
  '\b',
  '\f',
  '\n',
  '\r',
  '\t',
  'e\u0301',
  '\u0301',
  '\u00e9',
  '\u2126',
  '\ufb03',
  '\u0130',
  'ß',
  '🐶',
  '👩‍👩‍👧',
  '🇫🇷',
  '𝄞',
  '\u{10fffd}',
  'עברית',
  'مرحبا',
  '\u202e',
  '\u200b',
  '\u200d',
  '\ufeff',
  '\u2028',
  '\u2029',
  '\ufffd',
  '\uffff',
  ' ',
  '  ',
  '<script>',
  "'",
  '%00',
  '$' + '{x}',
  '{{x}}',
  'a',
]

/**
 * One Unicode scalar value (any code point but a surrogate), shrinking towards "a". Built from an integer
 * rather than fast-check's 'binary' unit, whose full-alphabet table costs most of a second to build.
 */
const SCALAR_VALUES = 0x110000 - 0x800
const codePoint: fc.Arbitrary<string> = fc.oneof(fc.integer({ min: 0, max: 0xffff - 0x800 }), fc.integer({ min: 0, max: SCALAR_VALUES - 1 })).map((index) => {
  const shifted = (index + 0x61) % SCALAR_VALUES
  return String.fromCodePoint(shifted >= 0xd800 ? shifted + 0x800 : shifted)
})

const WHITESPACE = fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2003', '\u3000')

let names: fc.Arbitrary<string> | undefined

/**
 * Names across full Unicode; every branch can shrink to the empty string. Built once and shared: an arbitrary
 * holds no state between draws (the run's random source is passed to each), and building the grapheme strings'
 * tables took 8 ms of every run.
 */
export function nameArbitrary(): fc.Arbitrary<string> {
  names ??= buildNameArbitrary()
  return names
}

function buildNameArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.string({ unit: codePoint, maxLength: 24 }), weight: 4 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 12 }), weight: 2 },
    { arbitrary: fc.array(fc.constantFrom(...TRICKY_PIECES, ...HAZARDOUS_PIECES), { maxLength: 8 }).map((pieces) => pieces.join('')), weight: 3 },
    { arbitrary: fc.string({ unit: WHITESPACE, maxLength: 6 }), weight: 1 },
    {
      arbitrary: fc
        .tuple(fc.string({ unit: WHITESPACE, maxLength: 3 }), fc.string({ unit: 'grapheme', maxLength: 10 }), fc.string({ unit: WHITESPACE, maxLength: 3 }))
        .map((parts) => parts.join('')),
      weight: 2,
    },
    { arbitrary: fc.string({ unit: codePoint, maxLength: 3000, size: 'max' }), weight: 2 },
  )
}

/**
 * The int64 values at the edges of the narrower types a service may wrongly store an int64 in (policy §2,
 * integer edges): int32, uint32, a double's exact integers, and int64's own ends. Every full run sends each
 * (createPet/integer-edges-round-trip); the generators draw them too.
 */
export const INT64_EDGES: readonly bigint[] = [
  0n,
  1n,
  -1n,
  2n ** 31n - 1n,
  -(2n ** 31n - 1n),
  2n ** 31n,
  -(2n ** 31n),
  2n ** 32n - 1n,
  2n ** 32n,
  2n ** 53n - 1n,
  -(2n ** 53n - 1n),
  2n ** 53n,
  -(2n ** 53n),
  2n ** 53n + 1n,
  -(2n ** 53n + 1n),
  INT64_MAX,
  INT64_MIN + 1n,
  INT64_MIN,
]

/** Category ids: the configured ones, or any int64 with its edges (INT64_EDGES). */
export function categoryIdArbitrary(options: NewPetArbitraryOptions): fc.Arbitrary<bigint> {
  if (options.categoryIds.length > 0) return fc.constantFrom(...options.categoryIds.map((id) => BigInt(id)))
  return fc.oneof(
    { withCrossShrink: true },
    { arbitrary: fc.bigInt({ min: -1000n, max: 1000n }), weight: 2 },
    { arbitrary: fc.bigInt({ min: INT64_MIN, max: INT64_MAX }), weight: 3 },
    { arbitrary: fc.constantFrom(...INT64_EDGES), weight: 2 },
  )
}

const extraValue = fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null))
const extraKey = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 10 }).filter((key) => !['name', 'categoryId', 'status', 'id', '__proto__'].includes(key))

export function validNewPetArbitrary(options: NewPetArbitraryOptions): fc.Arbitrary<ValidNewPet> {
  return fc.record(
    {
      name: nameArbitrary(),
      categoryId: categoryIdArbitrary(options),
      // Two constants, as ever: a wider choice here changes fast-check's shrink tree, and a replay of a shrunk
      // sequence then walked it for minutes at one seed. The respelling is picked from the value instead.
      categoryIdSpelling: fc.oneof({ arbitrary: fc.constant('integer' as const), weight: 7 }, { arbitrary: fc.constant('respelled' as const), weight: 2 }),
      status: fc.option(fc.constantFrom(...PET_STATUSES), { nil: undefined, freq: 4 }),
      extra: fc.oneof({ arbitrary: fc.constant({}), weight: 4 }, { arbitrary: fc.dictionary(extraKey, extraValue, { minKeys: 1, maxKeys: 3 }), weight: 1 }),
    },
    { requiredKeys: ['name', 'categoryId', 'categoryIdSpelling', 'extra'] },
  )
}

/** The integer respelling a respelled categoryId is written in: one of the catalogue's, by the value, so every run mixes them all. */
export function categoryIdRespelling(pet: ValidNewPet): Spelling | undefined {
  if (pet.categoryIdSpelling === 'integer') return undefined
  const magnitude = pet.categoryId < 0n ? -pet.categoryId : pet.categoryId
  return INTEGER_RESPELLINGS[Number(magnitude % BigInt(INTEGER_RESPELLINGS.length))]
}

/** The JSON text sent for a valid NewPet (categoryId written digit for digit). */
export function renderValidNewPet(pet: ValidNewPet): string {
  const respelling = categoryIdRespelling(pet)
  const categoryId = new JsonNumber(respelling ? respelling.spell(String(pet.categoryId)) : String(pet.categoryId))
  return stringifyJson({ ...pet.extra, name: pet.name, categoryId, ...(pet.status !== undefined ? { status: pet.status } : {}) })
}

type Wrong = { type: string; value: unknown }

const wrongNumber: fc.Arbitrary<Wrong> = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((value) => ({ type: 'a number', value }))
const wrongBoolean: fc.Arbitrary<Wrong> = fc.boolean().map((value) => ({ type: 'a boolean', value }))
const wrongNull: fc.Arbitrary<Wrong> = fc.constant({ type: 'null', value: null })
const wrongArray: fc.Arbitrary<Wrong> = fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), { maxLength: 3 }).map((value) => ({ type: 'an array', value }))
const wrongObject: fc.Arbitrary<Wrong> = fc.dictionary(fc.string({ maxLength: 4 }), fc.integer(), { maxKeys: 2 }).map((value) => ({ type: 'an object', value }))
const wrongString: fc.Arbitrary<Wrong> = fc.string({ maxLength: 8 }).map((value) => ({ type: `the string ${JSON.stringify(value)}`, value }))
/** A number written as a string, the wrong type an implementation most often lets through. */
const numericString: fc.Arbitrary<Wrong> = fc.bigInt({ min: INT64_MIN, max: INT64_MAX }).map((value) => ({ type: `the string "${value}"`, value: String(value) }))

/** Digits of a number with a non-zero fraction, some of which a double would round to an integer. */
const fractionalText: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }), fc.integer({ min: 1, max: 999 })).map(([whole, fraction]) => `${whole}.${String(fraction).padStart(3, '0')}`),
  fc.constantFrom('0.5', '1.00000000000000001', '9223372036854775807.5', '-9223372036854775808.1', '2.5e-1', '1e-400'),
)

const outsideInt64: fc.Arbitrary<bigint> = fc.oneof(
  { withCrossShrink: true },
  fc.constantFrom(INT64_MAX + 1n, INT64_MIN - 1n),
  fc.bigInt({ min: INT64_MAX + 1n, max: 2n ** 80n }),
  fc.bigInt({ min: -(2n ** 80n), max: INT64_MIN - 1n }),
)

const statusOutsideEnum: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('Available', 'PENDING', 'Sold', '', ' available', 'sold ', 'adopted', 'deleted'),
  fc.string({ maxLength: 10 }).filter((text) => !isPetStatus(text)),
)

/** The valid fields an invalid body keeps around its one violation: a plain name, a category id, usually a status. */
function validParts(options: NewPetArbitraryOptions) {
  return fc.record(
    {
      name: fc.string({ maxLength: 12 }),
      categoryId: categoryIdArbitrary(options),
      status: fc.option(fc.constantFrom(...PET_STATUSES), { nil: undefined, freq: 5 }),
    },
    { requiredKeys: ['name', 'categoryId'] },
  )
}

type Parts = { name: string; categoryId: bigint; status?: PetStatus }

function jsonBody(parts: Parts, override: Record<string, unknown> = {}, without?: 'name' | 'categoryId'): RequestBody {
  const body: Record<string, unknown> = { name: parts.name, categoryId: parts.categoryId, ...(parts.status !== undefined ? { status: parts.status } : {}), ...override }
  if (without) delete body[without]
  return { json: body }
}

/** For each rule, the invalid NewPet bodies that break it and nothing else. */
export function invalidNewPetArbitraries(options: NewPetArbitraryOptions): Record<NewPetRule, fc.Arbitrary<InvalidNewPet>> {
  const parts = validParts(options)
  const oneViolation = <T>(rule: NewPetRule, violation: fc.Arbitrary<T>, build: (parts: Parts, violation: T) => { detail: string; body: RequestBody }) =>
    fc.tuple(parts, violation).map(([valid, broken]): InvalidNewPet => ({ rule, ...build(valid, broken) }))
  const anyWrongType = fc.oneof(wrongNumber, wrongBoolean, wrongNull, wrongArray, wrongObject)

  return {
    'body-empty': oneViolation('body-empty', fc.constantFrom('', ' ', '\n', '\r\n\t '), (_p, raw) => ({ detail: `the body is empty (${JSON.stringify(raw)})`, body: { raw } })),
    'body-malformed-json': oneViolation(
      'body-malformed-json',
      fc.tuple(fc.constantFrom('cut', 'trailing-comma', 'single-quotes', 'NaN', 'comment'), fc.nat()),
      (p, [kind, cut]) => {
        const text = stringifyJson({ name: p.name, categoryId: p.categoryId })
        const malformed = {
          cut: text.slice(0, 1 + (cut % (text.length - 1))),
          'trailing-comma': `${text.slice(0, -1)},}`,
          'single-quotes': text.replaceAll('"', "'"),
          NaN: `{"name":${JSON.stringify(p.name)},"categoryId":NaN}`,
          comment: `{/* pet */"name":${JSON.stringify(p.name)},"categoryId":${p.categoryId}}`,
        }[kind]
        return { detail: `the body is malformed JSON (${kind})`, body: { raw: malformed } }
      },
    ),
    'body-not-object': oneViolation(
      'body-not-object',
      fc.oneof(
        wrongString,
        numericString,
        wrongNumber,
        wrongBoolean,
        wrongNull,
        fc.constant({ type: 'an array of one NewPet', value: 'array-of-pet' }),
        fc.constant({ type: 'an array of name and value pairs', value: 'pairs' }),
      ),
      (p, wrong) => ({
        detail: `the body is ${wrong.type}`,
        body: {
          json:
            wrong.value === 'array-of-pet'
              ? [{ name: p.name, categoryId: p.categoryId }]
              : wrong.value === 'pairs'
                ? [
                    ['name', p.name],
                    ['categoryId', p.categoryId],
                  ]
                : wrong.value,
        },
      }),
    ),
    'name-missing': oneViolation('name-missing', fc.constant(null), (p) => ({ detail: 'name is missing', body: jsonBody(p, {}, 'name') })),
    'name-wrong-type': oneViolation('name-wrong-type', anyWrongType, (p, wrong) => ({ detail: `name is ${wrong.type}`, body: jsonBody(p, { name: wrong.value }) })),
    'categoryId-missing': oneViolation('categoryId-missing', fc.constant(null), (p) => ({ detail: 'categoryId is missing', body: jsonBody(p, {}, 'categoryId') })),
    'categoryId-wrong-type': oneViolation(
      'categoryId-wrong-type',
      fc.oneof({ arbitrary: numericString, weight: 3 }, wrongString, wrongBoolean, wrongNull, wrongArray, wrongObject),
      (p, wrong) => ({ detail: `categoryId is ${wrong.type}`, body: jsonBody(p, { categoryId: wrong.value }) }),
    ),
    'categoryId-fractional': oneViolation('categoryId-fractional', fractionalText, (p, text) => ({
      detail: `categoryId is ${text}`,
      body: jsonBody(p, { categoryId: new JsonNumber(text) }),
    })),
    'categoryId-outside-int64': oneViolation('categoryId-outside-int64', outsideInt64, (p, value) => ({
      detail: `categoryId is ${value}, outside int64`,
      body: jsonBody(p, { categoryId: value }),
    })),
    'status-wrong-type': oneViolation('status-wrong-type', anyWrongType, (p, wrong) => ({ detail: `status is ${wrong.type}`, body: jsonBody(p, { status: wrong.value }) })),
    'status-outside-enum': oneViolation('status-outside-enum', statusOutsideEnum, (p, status) => ({
      detail: `status is ${JSON.stringify(status)}`,
      body: jsonBody(p, { status }),
    })),
  }
}

/** Invalid NewPet bodies of any rule, each breaking exactly the one it is labelled with. */
export function invalidNewPetArbitrary(options: NewPetArbitraryOptions): fc.Arbitrary<InvalidNewPet> {
  return fc.oneof(...Object.values(invalidNewPetArbitraries(options)))
}
