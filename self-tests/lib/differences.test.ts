import { describe, expect, test } from 'vitest'
import { nameDifference, petDifferences } from '../../lib/checks/differences.js'
import { JsonNumber } from '../../lib/http/json.js'

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
