import { execFileSync } from 'node:child_process'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createRunRedactor, curlLine, toEvidence } from '../../lib/checks/evidence.js'
import type { Exchange } from '../../lib/http/exchange.js'
import { JsonNumber, parseJson, stringifyJson } from '../../lib/http/json.js'
import { createRedactor, KEY_PLACEHOLDER, redactDeep } from '../../lib/http/redaction.js'
import { keyPiecesIn } from '../helpers/secret-pieces.js'

const KEY = 'live/9f8e+7d6c=5b4a'

describe('the API key never reaches output', () => {
  const redact = createRedactor(KEY)

  test.for([
    ['plain', `Authorization: Bearer ${KEY}`],
    ['URL-encoded', `?token=${encodeURIComponent(KEY)}&next=1`],
    ['base64', Buffer.from(KEY).toString('base64')],
    ['base64url', Buffer.from(KEY).toString('base64url')],
    ['basic-auth user', Buffer.from(`${KEY}:`).toString('base64')],
    ['basic-auth password', Buffer.from(`:${KEY}`).toString('base64')],
  ])('its %s form is replaced by the placeholder', ([, text]) => {
    const redacted = redact(text as string)
    expect(redacted).toContain(KEY_PLACEHOLDER)
    expect(redacted).not.toContain(KEY)
    expect(redacted).not.toContain(encodeURIComponent(KEY))
    expect(redacted).not.toContain(Buffer.from(KEY).toString('base64'))
  })

  test('a key with characters special to regular expressions is matched literally', () => {
    const special = createRedactor('a.b*c')
    expect(special('xa.b*cx axbbc')).toBe('x${PETSTORE_API_KEY}x axbbc')
  })

  test('a text asked again gives the same answer, short or as long as an evidence body, and a piece cut from a long body too', () => {
    const redact = createRedactor(KEY)
    const body = `${'x'.repeat(3000)} Bearer ${KEY} ${'y'.repeat(2000)} ${KEY.slice(2, 12)}`
    const texts = [`Bearer ${KEY}`, body, body.slice(1000, 4500), `${'z'.repeat(20_000)} ${KEY}`]
    for (const text of texts) {
      const first = redact(text)
      expect(keyPiecesIn(first, KEY), first.slice(-80)).toEqual([])
      // A copy of the same text, as a report quotes it again.
      expect(redact(`${text} `.slice(0, -1))).toBe(first)
    }
  })

  test('no key given: text passes unchanged', () => {
    expect(createRedactor(undefined)('Bearer anything')).toBe('Bearer anything')
  })

  test('a report is redacted value by value: strings lose the key, property names and numbers stay intact', () => {
    const shortKey = createRedactor('k')
    const report = { skipped: 0, verdict: 'skipped', id: new JsonNumber('9223372036854775807'), nested: [{ body: 'token k' }] }
    const redacted = redactDeep(report, shortKey)
    expect(Object.keys(redacted)).toEqual(['skipped', 'verdict', 'id', 'nested'])
    expect(redacted.verdict).toBe('s${PETSTORE_API_KEY}ipped')
    expect(redacted.nested[0]?.body).toBe(`to\${PETSTORE_API_KEY}en ${KEY_PLACEHOLDER}`)
    const reparsed = parseJson(stringifyJson(redacted))
    expect(reparsed.ok && stringifyJson(reparsed.value)).toContain('"id":9223372036854775807')
    // A member a target named __proto__ stays a member of its own, redacted like any other; the copy's prototype is untouched.
    const odd = redactDeep(JSON.parse('{"__proto__": {"polluted": "k"}, "name": "k"}') as Record<string, unknown>, shortKey)
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype)
    expect(Object.keys(odd)).toEqual(['__proto__', 'name'])
    expect(JSON.stringify(odd)).toBe('{"__proto__":{"polluted":"$PETSTORE_API_KEY"},"name":"$PETSTORE_API_KEY"}')
  })
})

describe('the extra headers and the passphrase never reach output either', () => {
  const redact = createRedactor(KEY, [
    { value: 'gw-secret/0a1b', placeholder: '${GATEWAY_SECRET}' },
    { value: 'tenant-42', placeholder: '[value of X-Tenant]' },
  ])

  test('each value, as written and URL-encoded, becomes its own placeholder; the key keeps its own', () => {
    expect(redact(`x-gateway-secret: gw-secret/0a1b; ?s=${encodeURIComponent('gw-secret/0a1b')}; x-tenant: tenant-42; Bearer ${KEY}`)).toBe(
      `x-gateway-secret: \${GATEWAY_SECRET}; ?s=\${GATEWAY_SECRET}; x-tenant: [value of X-Tenant]; Bearer ${KEY_PLACEHOLDER}`,
    )
  })

  test('a curl line reads a value written as ${VAR} from the same variable, and leaves the run own trace and User-Agent out', () => {
    const curl = curlLine(
      {
        id: 1,
        request: {
          method: 'GET',
          url: 'https://staging.example/v1/pets',
          headers: {
            'user-agent': 'petstore-conformance/0.1.0 run/abcd',
            'x-gateway-secret': 'gw-secret/0a1b',
            authorization: `Bearer ${KEY}`,
            traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
          },
          timeoutMs: 1000,
        },
        retries: [],
        durationMs: 1,
      },
      redact,
    )
    expect(curl).toBe(`curl -sS -i --max-time 1 -X GET 'https://staging.example/v1/pets' -H "x-gateway-secret: \${GATEWAY_SECRET}" -H "Authorization: Bearer ${KEY_PLACEHOLDER}"`)
  })
})

describe('a token derived from the key is masked as what was done to it, and its curl line sends the same bytes', () => {
  const key = 'Zq7-wX3_pL9.vB2~nM5+tR8/kC4'
  const redact = createRedactor(key)
  const exchangeWith = (authorization: string, body?: string): Exchange => ({
    id: 1,
    request: { method: 'POST', url: 'http://127.0.0.1:9/v1/pets', headers: { authorization }, ...(body !== undefined ? { body } : {}), timeoutMs: 1000 },
    retries: [],
    durationMs: 1,
  })
  /** The bytes of each argument bash hands curl for a curl line, with the key in the environment: what a replay sends. */
  const curlArguments = (line: string): Buffer[] => {
    const stub = `curl() { printf '%s\\0' "$@"; }; ${line}`
    const out = execFileSync('bash', ['--norc', '--noprofile', '-c', stub], { env: { PATH: process.env.PATH ?? '', PETSTORE_API_KEY: key } })
    const args: Buffer[] = []
    for (let from = 0, nul = out.indexOf(0); nul >= 0; from = nul + 1, nul = out.indexOf(0, from)) args.push(out.subarray(from, nul))
    return args
  }

  test.for([
    ['the key without its last character', `Bearer ${key.slice(0, -1)}`, 'Bearer ${PETSTORE_API_KEY%?}'],
    ['the key without its first character', `Bearer ${key.slice(1)}`, 'Bearer ${PETSTORE_API_KEY#?}'],
    ['the key with a character appended', `Bearer ${key}x`, 'Bearer ${PETSTORE_API_KEY}x'],
    ['the key with a character prepended', `Bearer x${key}`, 'Bearer x$PETSTORE_API_KEY'],
    ['the key followed by a space and more text', `Bearer ${key} extra`, 'Bearer $PETSTORE_API_KEY extra'],
    ['the first 12 characters', `Bearer ${key.slice(0, 12)}`, 'Bearer ${PETSTORE_API_KEY:0:12}'],
    ['a piece from the middle', `Bearer ${key.slice(5, 15)}`, 'Bearer ${PETSTORE_API_KEY:5:10}'],
    ['the key upper-cased', `Bearer ${key.toUpperCase()}`, 'Bearer ${PETSTORE_API_KEY^^}'],
    ['the key lower-cased', `Bearer ${key.toLowerCase()}`, 'Bearer ${PETSTORE_API_KEY,,}'],
    ['the key as Basic credentials (user)', `Basic ${Buffer.from(`${key}:`).toString('base64')}`, `Basic $(printf %s: "$PETSTORE_API_KEY" | base64 | tr -d '\\n')`],
    ['the key as Basic credentials (password)', `Basic ${Buffer.from(`:${key}`).toString('base64')}`, `Basic $(printf :%s "$PETSTORE_API_KEY" | base64 | tr -d '\\n')`],
    ['the key after U+00A0 as UTF-8 octets', `Bearer \u00c2\u00a0${key}`, 'Bearer \u00c2\u00a0$PETSTORE_API_KEY'],
    ['the key before U+00A0 as its ISO-8859-1 octet', `Bearer ${key}\u00a0`, 'Bearer $PETSTORE_API_KEY\u00a0'],
  ])('%s', ([, token, masked]) => {
    expect(redact(token as string)).toBe(masked)
    const args = curlArguments(curlLine(exchangeWith(token as string), redact))
    expect(args).toContainEqual(Buffer.from(`Authorization: ${token}`, 'latin1'))
  })

  test("evidence shows a header's octets outside printable ASCII as octets, and a body as its UTF-8 octets", () => {
    const evidence = toEvidence(exchangeWith(`Bearer ${key}\u00c2\u00a0`, '{"name":"caf\u00e9\u0001"}'), redact)
    expect(evidence.request.headers.authorization).toBe('Bearer $PETSTORE_API_KEY<C2 A0>')
    expect(evidence.request.body).toBe('{"name":"caf<C3 A9 01>"}')
    expect(evidence.curl).toContain(`-H "Authorization: Bearer $PETSTORE_API_KEY"$'\\xc2\\xa0'`)
    expect(curlArguments(evidence.curl)).toContainEqual(Buffer.from('{"name":"caf\u00e9\u0001"}', 'utf8'))
  })

  test('a body sent as octets (bytes that are not UTF-8) is shown as those octets, and its curl line sends exactly them', () => {
    const exchange: Exchange = {
      ...exchangeWith(`Bearer ${key}`, '{"name":"a\u00ff\u00c3"}'),
      request: { ...exchangeWith(`Bearer ${key}`, '{"name":"a\u00ff\u00c3"}').request, bodyIsOctets: true },
    }
    const evidence = toEvidence(exchange, redact)
    expect(evidence.request.body).toBe('{"name":"a<FF C3>"}')
    expect(curlArguments(evidence.curl)).toContainEqual(Buffer.from([...Buffer.from('{"name":"a'), 0xff, 0xc3, ...Buffer.from('"}')]))
  })

  test('a long body with octets outside printable ASCII inside it is shown as those octets, and its curl line sends exactly it', () => {
    const padding = 'x'.repeat(2 ** 14)
    const body = `{"name":"${padding}\u00e9\t${padding}"}`
    const evidence = toEvidence(exchangeWith(`Bearer ${key}`, body), redact)
    expect(evidence.curl).toContain(`${padding}'$'\\xc3\\xa9\\x09''${padding}`)
    expect(curlArguments(evidence.curl)).toContainEqual(Buffer.from(body, 'utf8'))
  })

  test('any 6 characters of the key are masked wherever they stand, in any case, URL-encoded or inside base64; 5 are not', () => {
    const pieces = [key.slice(3, 9), key.slice(10, 16).toUpperCase(), encodeURIComponent(key.slice(17)), Buffer.from(`user:${key.slice(2, 14)}`).toString('base64')]
    const masked = redact(`a ${pieces.join(' b ')} c ${key.slice(0, 5)}`)
    expect(keyPiecesIn(masked, key)).toEqual([])
    expect(masked).toContain('a ${PETSTORE_API_KEY:3:6} b [6 characters of the API key, re-cased] b ')
    expect(masked).toContain('[URL-encoded piece of the API key]')
    expect(masked).toContain('[base64 of a piece of the API key]')
    expect(masked.endsWith(` c ${key.slice(0, 5)}`)).toBe(true)
  })

  test('generated texts: no piece of the key survives, however the pieces are cut, cased and surrounded; a text with no piece passes unchanged', () => {
    const keyPiece = fc
      .tuple(fc.nat({ max: key.length - 6 }), fc.integer({ min: 6, max: key.length }), fc.constantFrom('as is', 'upper', 'lower', 'url', 'base64'))
      .map(([at, length, form]) => {
        const piece = key.slice(at, Math.min(key.length, at + length))
        if (form === 'upper') return piece.toUpperCase()
        if (form === 'lower') return piece.toLowerCase()
        if (form === 'url') return encodeURIComponent(piece)
        return form === 'base64' ? Buffer.from(`x:${piece}`).toString('base64') : piece
      })
    // Text drawn from the key's own characters, so that near-misses (runs of 5, pieces out of order) are common.
    const filler = fc.string({ unit: fc.constantFrom(...new Set(`${key} /:=%`)), maxLength: 12 })
    fc.assert(
      fc.property(fc.array(fc.tuple(filler, keyPiece), { maxLength: 4 }), filler, (parts, last) => {
        const text = parts.map(([before, piece]) => `${before}${piece}`).join('') + last
        const masked = redact(text)
        expect(keyPiecesIn(masked, key)).toEqual([])
        if (keyPiecesIn(text, key).length === 0) expect(masked).toBe(text)
      }),
      { seed: 20261125, numRuns: 400 },
    )
  })

  test('the masks themselves are never masked again, even when the key holds a piece of their words', () => {
    const awkward = createRedactor('PETSTORE_API_KEY_2')
    expect(awkward('Bearer PETSTORE_API_KEY_2 and PETSTORE_API_KEY_')).toBe('Bearer $PETSTORE_API_KEY and ${PETSTORE_API_KEY%?}')
  })
})

describe("the run's own words stay whole", () => {
  test('a key that shares six characters with an edit operator (mutation-… and notation) leaves the operator named in results.json', () => {
    const redact = createRunRedactor('mutation-score-key-8c3e1f')
    expect(redact('{"operator":"notation"}')).toBe('{"operator":"notation"}')
    expect(redact('mutation-score-key-8c3e1f')).not.toContain('mutation')
  })
})
