import { describe, expect, test } from 'vitest'
import { RecentlyUsed } from '../../lib/http/recently-used.js'

describe('what a run remembers stays within its bounds, the least recently used going first', () => {
  test('past the number of entries, the least recent goes; a hit makes an entry the most recent', () => {
    const remembered = new RecentlyUsed<string, number>({ maxEntries: 2 })
    remembered.set('a', 1)
    remembered.set('b', 2)
    expect(remembered.get('a')).toBe(1)
    remembered.set('c', 3)
    expect([remembered.get('a'), remembered.get('b'), remembered.get('c')]).toEqual([1, undefined, 3])
    expect(remembered.size).toBe(2)
  })

  test('past the total weight, the least recent go until the rest fit; setting a key again replaces its weight', () => {
    const remembered = new RecentlyUsed<string, string>({ maxWeight: 10, weigh: (key, value) => key.length + value.length })
    remembered.set('aa', 'aa')
    remembered.set('bb', 'bb')
    remembered.set('aa', 'a')
    expect(remembered.size).toBe(2)
    remembered.set('cc', 'cc')
    expect([remembered.get('bb'), remembered.get('aa'), remembered.get('cc')]).toEqual([undefined, 'a', 'cc'])
    remembered.set('x', 'y'.repeat(20))
    expect(remembered.size).toBe(0)
  })
})
