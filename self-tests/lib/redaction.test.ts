import { describe, expect, test } from 'vitest'
import { curlLine } from '../../lib/checks/evidence.js'
import { JsonNumber, parseJson, stringifyJson } from '../../lib/http/json.js'
import { createRedactor, KEY_PLACEHOLDER, redactDeep } from '../../lib/http/redaction.js'

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
    expect(special('xa.b*cx axbbc')).toBe(`x${KEY_PLACEHOLDER}x axbbc`)
  })

  test('no key given: text passes unchanged', () => {
    expect(createRedactor(undefined)('Bearer anything')).toBe('Bearer anything')
  })

  test('a report is redacted value by value: strings lose the key, property names and numbers stay intact', () => {
    const shortKey = createRedactor('k')
    const report = { skipped: 0, verdict: 'skipped', id: new JsonNumber('9223372036854775807'), nested: [{ body: 'token k' }] }
    const redacted = redactDeep(report, shortKey)
    expect(Object.keys(redacted)).toEqual(['skipped', 'verdict', 'id', 'nested'])
    expect(redacted.verdict).toBe(`s${KEY_PLACEHOLDER}ipped`)
    expect(redacted.nested[0]?.body).toBe(`to${KEY_PLACEHOLDER}en ${KEY_PLACEHOLDER}`)
    const reparsed = parseJson(stringifyJson(redacted))
    expect(reparsed.ok && stringifyJson(reparsed.value)).toContain('"id":9223372036854775807')
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
    expect(curl).toBe(`curl -sS -i --max-time 1 -X GET 'https://staging.example/v1/pets' -H "x-gateway-secret: \${GATEWAY_SECRET}" -H "authorization: Bearer ${KEY_PLACEHOLDER}"`)
  })
})
