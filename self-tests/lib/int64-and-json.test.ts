import { describe, expect, test } from 'vitest'
import { exactInteger, INT64_MAX, INT64_MIN, isInt64 } from '../../lib/http/int64.js'
import { JsonNumber, nestingDepth, parseJson, stringifyJson, toPlain } from '../../lib/http/json.js'

describe('exactInteger reads JSON number text exactly', () => {
  test.for([
    ['0', 0n],
    ['-0', 0n],
    ['5.0', 5n],
    ['5e0', 5n],
    ['50e-1', 5n],
    ['1E2', 100n],
    ['9223372036854775807', INT64_MAX],
    ['9223372036854775808', INT64_MAX + 1n],
    ['-9223372036854775808', INT64_MIN],
  ] as const)('%s is the integer %s', ([text, value]) => {
    expect(exactInteger(text)).toBe(value)
  })

  test.for(['1.5', '5e-1', '0.1e1x', 'abc', '', '--1', '01'])('%s is not an integer', (text) => {
    expect(exactInteger(text)).toBeUndefined()
  })

  test('int64 bounds are inclusive and exact', () => {
    expect(isInt64(INT64_MAX)).toBe(true)
    expect(isInt64(INT64_MAX + 1n)).toBe(false)
    expect(isInt64(INT64_MIN)).toBe(true)
    expect(isInt64(INT64_MIN - 1n)).toBe(false)
  })
})

describe('lossless JSON', () => {
  test('an id above 2^53 keeps every digit through parse and stringify', () => {
    const parsed = parseJson('{"id":9007199254740993,"n":1.50}')
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    const value = parsed.value as Record<string, JsonNumber>
    expect(value.id?.integer).toBe(9007199254740993n)
    expect(stringifyJson(parsed.value)).toBe('{"id":9007199254740993,"n":1.50}')
  })

  test('bigint values are written digit for digit', () => {
    expect(stringifyJson({ categoryId: 2n ** 63n - 1n })).toBe('{"categoryId":9223372036854775807}')
  })

  test('malformed and truncated JSON is reported, not thrown', () => {
    expect(parseJson('{"a":').ok).toBe(false)
    expect(parseJson('').ok).toBe(false)
    expect(parseJson('<html>').ok).toBe(false)
  })

  test('the plain view turns numbers into JS numbers for schema validation', () => {
    expect(toPlain([new JsonNumber('1'), { a: new JsonNumber('2.5') }])).toEqual([1, { a: 2.5 }])
  })
})

describe('parsing stays bounded and linear, whatever the target sends (policy §5)', () => {
  test('nesting is counted in one pass, brackets inside strings and escaped quotes left out', () => {
    expect(nestingDepth('[{"a":[1]}]', 64)).toBe(3)
    expect(nestingDepth('["[[[[", "\\"[[["]', 64)).toBe(1)
    expect(nestingDepth(`${'['.repeat(65)}${']'.repeat(65)}`, 64)).toBe(65)
    expect(parseJson(`${'['.repeat(64)}${']'.repeat(64)}`).ok).toBe(true)
    expect(parseJson(`${'['.repeat(65)}${']'.repeat(65)}`)).toEqual({ ok: false, error: 'JSON nested deeper than 64 levels' })
  })

  test('an integer of more digits than any int64 is judged without being converted: outside int64, sign kept, fractions still refused', () => {
    const huge = exactInteger('9'.repeat(1_000_000))
    expect(huge !== undefined && !isInt64(huge) && huge > 0n).toBe(true)
    const negative = exactInteger(`-${'9'.repeat(100)}`)
    expect(negative !== undefined && negative < INT64_MIN).toBe(true)
    expect(exactInteger(`${'1'.repeat(60)}.5`)).toBeUndefined()
    expect(exactInteger(`${'1'.repeat(60)}.000`)).toBe(10n ** 40n)
    expect(exactInteger('9223372036854775807')).toBe(INT64_MAX)
    expect(new JsonNumber('123456789012345678901234567890123456789012345').integer).toBe(10n ** 40n)
  })
})
