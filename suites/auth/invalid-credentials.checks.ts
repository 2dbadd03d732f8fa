import { describe, test } from '../../lib/checks/registry.js'
import { inputClass } from '../../lib/spec/input-catalogue.js'
import { everyOperation, OPERATIONS, WRONG_KEY, withWrongKey } from './operations.js'

const MISSING = everyOperation([{ label: 'no Authorization header', authorization: null }])
const WRONG = everyOperation([{ label: 'a wrong key', authorization: WRONG_KEY }])
const EMPTY = everyOperation([
  { label: '"Bearer " with an empty token', authorization: () => 'Bearer ' },
  { label: '"Bearer" alone', authorization: () => 'Bearer' },
])
const OTHER_SCHEME = everyOperation([
  { label: 'the key under Basic', authorization: (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
  { label: 'the key under Token', authorization: (key: string) => `Token ${key}` },
  { label: 'the bare key without a scheme', authorization: (key: string) => key },
])
/** The input catalogue's tokens that merely look like the key (lib/spec/input-catalogue.ts). */
const LOOKALIKE = everyOperation(inputClass('Authorization', 'not the value').spellings.map((spelling) => ({ label: spelling.label, authorization: spelling.spell })))

/**
 * Whether a WWW-Authenticate value offers a Bearer challenge among its challenges (RFC 9110 §11.6.1: one field may
 * hold several, `Basic realm="x", Bearer realm="y"`): an element of the list, split outside quoted strings, that
 * starts with the scheme.
 */
const offersBearer = (value: string) => (value.match(/(?:[^,"]|"(?:[^"\\]|\\.)*")+/g) ?? []).some((element) => /^\s*bearer(\s|$)/i.test(element))

describe('auth: a missing or invalid key is answered 401 on every operation', () => {
  test.for(MISSING)('[auth/missing-key-401] $operation with $label is answered 401', async ({ operation, authorization }, { check }) => {
    const exchange = await check.shared(`auth:missing:${operation}`, () => OPERATIONS[operation](check, authorization))
    check.expect.status(exchange, 401, operation)
  })

  test.for(WRONG)('[auth/wrong-key-401] $operation with $label is answered 401', async ({ operation }, { check }) => {
    check.expect.status(await withWrongKey(check, operation), 401, operation)
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

  // Refused for a missing key and for a wrong one: a challenge set only where no credentials came shows on the second.
  test.for([...MISSING, ...WRONG])('[auth/www-authenticate] a 401 of $operation to $label carries a Bearer challenge', async ({ operation, authorization }, { check }) => {
    const exchange =
      authorization === null ? await check.shared(`auth:missing:${operation}`, () => OPERATIONS[operation](check, authorization)) : await withWrongKey(check, operation)
    const response = check.expect.status(exchange, 401, `${operation} with ${authorization === null ? 'no key' : 'a wrong key'}`)
    const challenge = response.headers['www-authenticate']
    check.expect.that(challenge !== undefined && offersBearer(challenge), `the 401 of ${operation} has WWW-Authenticate ${challenge ?? '(absent)'}`, {
      exchange,
      expected: 'WWW-Authenticate: Bearer …',
      actual: challenge ?? '(absent)',
    })
  })
})
