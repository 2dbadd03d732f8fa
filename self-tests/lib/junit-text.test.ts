import { describe, expect, test } from 'vitest'
import { xml } from '../../lib/reports/junit.js'

describe('junit.xml carries any text a target sent as well-formed XML 1.0', () => {
  test('markup characters are escaped, and control characters spelled out', () => {
    expect(xml(`a&b<c>"d'`)).toBe(`a&amp;b&lt;c&gt;&quot;d'`)
    expect(xml('bell\u0007 del\u007f cr\r')).toBe('bell\\u0007 del\\u007f cr\\u000d')
    expect(xml('tab\tand\nline')).toBe('tab\tand\nline')
  })

  test('what XML cannot carry is dropped: lone surrogates, U+FFFE and U+FFFF; every other character stays', () => {
    expect(xml('x\uD800y\uDC00z')).toBe('xyz')
    expect(xml('\uFFFEa\uFFFF')).toBe('a')
    expect(xml('😀 \uE000 \uFFFD é 名')).toBe('😀 \uE000 \uFFFD é 名')
  })
})
