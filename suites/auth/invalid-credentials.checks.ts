import { describe, test } from '../../lib/checks/registry.js'
import { everyOperation, OPERATIONS } from './operations.js'

const MISSING = everyOperation([{ label: 'no Authorization header', authorization: null }])
const WRONG = everyOperation([{ label: 'a wrong key', authorization: () => 'Bearer not-the-api-key-0123456789' }])
const EMPTY = everyOperation([
  { label: '"Bearer " with an empty token', authorization: () => 'Bearer ' },
  { label: '"Bearer" alone', authorization: () => 'Bearer' },
])
const OTHER_SCHEME = everyOperation([
  { label: 'the key under Basic', authorization: (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
  { label: 'the key under Token', authorization: (key: string) => `Token ${key}` },
  { label: 'the bare key without a scheme', authorization: (key: string) => key },
])
/** Whitespace HTTP does not strip around a field value (only SP and HTAB are, RFC 9110 §5.5), but a service that trims Unicode whitespace would. */
const UNSTRIPPED_WHITESPACE = [
  ['U+00A0 (no-break space)', '\u00a0'],
  ['U+2007 (figure space)', '\u2007'],
  ['U+200B (zero-width space)', '\u200b'],
  ['U+FEFF (zero-width no-break space)', '\ufeff'],
] as const

/** A header value as its UTF-8 bytes: HTTP carries bytes, and the client writes each character of a value as one byte. */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1')

const LOOKALIKE = everyOperation([
  { label: 'the key with a character appended', authorization: (key: string) => `Bearer ${key}x` },
  { label: 'the key with a character prepended', authorization: (key: string) => `Bearer x${key}` },
  { label: 'the key without its last character', authorization: (key: string) => `Bearer ${key.slice(0, -1)}` },
  { label: 'the key followed by a space and more text', authorization: (key: string) => `Bearer ${key} extra` },
  ...UNSTRIPPED_WHITESPACE.flatMap(([name, space]) => [
    { label: `${name} before the key`, authorization: (key: string) => utf8Bytes(`Bearer ${space}${key}`) },
    { label: `${name} after the key`, authorization: (key: string) => utf8Bytes(`Bearer ${key}${space}`) },
  ]),
  // Header values are octets (RFC 9110 §5.5), read as ISO-8859-1 by some servers: a character that has a single
  // octet there is tried as that octet too (0xA0 for U+00A0), which such a server may trim as Unicode whitespace.
  ...UNSTRIPPED_WHITESPACE.filter(([, space]) => space.charCodeAt(0) <= 0xff).flatMap(([name, space]) => [
    { label: `${name} before the key, as its ISO-8859-1 octet`, authorization: (key: string) => `Bearer ${space}${key}` },
    { label: `${name} after the key, as its ISO-8859-1 octet`, authorization: (key: string) => `Bearer ${key}${space}` },
  ]),
])

describe('auth: a missing or invalid key is answered 401 on every operation', () => {
  test.for(MISSING)('[auth/missing-key-401] $operation with $label is answered 401', async ({ operation, authorization }, { check }) => {
    const exchange = await check.shared(`auth:missing:${operation}`, () => OPERATIONS[operation](check, authorization))
    check.expect.status(exchange, 401, operation)
  })

  test.for(WRONG)('[auth/wrong-key-401] $operation with $label is answered 401', async ({ operation, authorization }, { check }) => {
    check.expect.status(await OPERATIONS[operation](check, authorization), 401, operation)
  })

  test.for(EMPTY)('[auth/empty-token-401] $operation with $label is answered 401', async ({ operation, authorization }, { check }) => {
    check.expect.status(await OPERATIONS[operation](check, authorization), 401, operation)
  })

  test.for(OTHER_SCHEME)('[auth/other-scheme-401] $operation with $label is answered 401', async ({ operation, authorization }, { check }) => {
    check.expect.status(await OPERATIONS[operation](check, authorization), 401, operation)
  })

  test.for(LOOKALIKE)('[auth/key-lookalike-401] $operation with $label is answered 401', async ({ operation, authorization }, { check }) => {
    check.expect.status(await OPERATIONS[operation](check, authorization), 401, operation)
  })

  test.for(MISSING)('[auth/www-authenticate] a 401 of $operation carries a Bearer challenge', async ({ operation, authorization }, { check }) => {
    const exchange = await check.shared(`auth:missing:${operation}`, () => OPERATIONS[operation](check, authorization))
    const response = check.expect.status(exchange, 401, operation)
    const challenge = response.headers['www-authenticate']
    check.expect.that(challenge !== undefined && /^bearer\b/i.test(challenge.trim()), `the 401 of ${operation} has WWW-Authenticate ${challenge ?? '(absent)'}`, {
      exchange,
      expected: 'WWW-Authenticate: Bearer …',
      actual: challenge ?? '(absent)',
    })
  })
})
