import { describe, expect, test } from 'vitest'
import { nameDifference, petDifferences, viewDifferences } from '../../lib/checks/differences.js'
import { curlScript } from '../../lib/checks/evidence.js'
import type { Exchange } from '../../lib/http/exchange.js'
import { JsonNumber } from '../../lib/http/json.js'
import { createRedactor } from '../../lib/http/redaction.js'

describe('failure messages say exactly what differed', () => {
  test('two names: the first code point where they part, spelled so invisible ones show', () => {
    expect(nameDifference('café', 'cafe\u0301')).toBe('name differs at code point 3: expected U+00E9, got U+0065 (expected 4 code points, got 5)')
    expect(nameDifference('rex ', 'rex')).toBe('name differs at code point 3: expected U+0020, got (none) (expected 4 code points, got 3)')
  })

  test('a pet: every field that differs, integers compared digit for digit, nothing when they agree', () => {
    const read = { id: new JsonNumber('9007199254740993'), name: 'Rex', categoryId: new JsonNumber('9007199254740992'), status: 'sold' }
    expect(petDifferences({ id: 9007199254740993n, name: 'Rex', categoryId: 9007199254740992n, status: 'sold' }, read)).toEqual([])
    expect(petDifferences({ id: 9007199254740993n, name: 'Rex', categoryId: 9007199254740993n, status: 'pending' }, read)).toEqual([
      'categoryId: expected 9007199254740993, got 9007199254740992',
      'status: expected "pending", got "sold"',
    ])
  })
})

describe('two views of one pet', () => {
  const view = { id: new JsonNumber('7'), name: 'Rex', categoryId: new JsonNumber('9007199254740993'), status: 'available' }

  test('agree when the Animal fields are equal digit for digit, whatever else either carries', () => {
    expect(viewDifferences(view, { ...view, categoryId: new JsonNumber('9007199254740993'), nickname: 'extra' })).toEqual([])
    expect(viewDifferences({ ...view, categoryId: new JsonNumber('5') }, { ...view, categoryId: new JsonNumber('5.0') })).toEqual([])
  })

  test('differ on a rounded integer, a changed name, and a status present in one view only', () => {
    expect(viewDifferences(view, { ...view, categoryId: new JsonNumber('9007199254740992') })).toEqual(['categoryId: 9007199254740993 before, 9007199254740992 here'])
    expect(viewDifferences(view, { ...view, name: 'REX' })[0]).toMatch(/^name differs at code point 1/)
    const { status: _status, ...withoutStatus } = view
    expect(viewDifferences(withoutStatus, view)).toEqual(['status: (absent) before, "available" here'])
    expect(viewDifferences(view, withoutStatus)).toEqual(['status: "available" before, (absent) here'])
  })
})

describe('a sequence as a curl script', () => {
  const exchange = (method: string, url: string, status: number, body: string, requestBody?: string) =>
    ({
      request: { method, url, headers: { authorization: 'Bearer secret-key-123456' }, timeoutMs: 10_000, ...(requestBody ? { body: requestBody } : {}) },
      response: { status, headers: {}, body, bodyBytes: body.length },
      retries: [],
      durationMs: 1,
    }) as unknown as Exchange

  test('reads each assigned id into a variable, uses it for later requests of that pet, and keeps the key out', () => {
    const script = curlScript(
      [
        exchange('POST', 'http://h/v1/pets', 201, '{"id":9007199254740993,"name":"a","categoryId":1}', '{"name":"a","categoryId":1}'),
        exchange('GET', 'http://h/v1/pets/9007199254740993', 200, '{}'),
        exchange('GET', 'http://h/v1/pets?status=sold&limit=100', 200, '[]'),
      ],
      createRedactor('secret-key-123456'),
      'a test sequence',
    )
    expect(script).toMatch(/^#!\/usr\/bin\/env bash\n# a test sequence, replayed request by request/)
    expect(script).toContain(`PET_1=$(printf '%s' "$answer" | sed -n`)
    expect(script).toContain(`'http://h/v1/pets/'"$PET_1"`)
    expect(script).toContain(`'http://h/v1/pets?status=sold&limit=100'`)
    expect(script).toContain('"Authorization: Bearer $PETSTORE_API_KEY"')
    expect(script).not.toContain('secret-key-123456')
  })
})
