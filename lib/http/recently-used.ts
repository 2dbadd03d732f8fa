/**
 * A map that keeps the entries used most recently, within a number of entries and a total weight: what a run (or
 * a process running many) remembers to save work stays bounded, whatever the target sends. A hit makes an entry
 * the most recent; past a bound, the least recent go first.
 */
export interface RecentlyUsedBounds<K, V> {
  maxEntries?: number
  /** The most the entries may weigh together, by `weigh`. */
  maxWeight?: number
  weigh?: (key: K, value: V) => number
}

export class RecentlyUsed<K, V> {
  private readonly entries = new Map<K, V>()
  private weight = 0

  constructor(private readonly bounds: RecentlyUsedBounds<K, V>) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key)
    if (value !== undefined) {
      // Map keeps insertion order: taken out and put back, the entry is the most recent.
      this.entries.delete(key)
      this.entries.set(key, value)
    }
    return value
  }

  /** The value of an entry whose key `matches` (for keys compared by content, not identity); a hit, as with get. */
  find(matches: (key: K) => boolean): V | undefined {
    for (const key of this.entries.keys()) if (matches(key)) return this.get(key)
    return undefined
  }

  set(key: K, value: V): void {
    const { maxEntries = Number.POSITIVE_INFINITY, maxWeight = Number.POSITIVE_INFINITY, weigh = () => 0 } = this.bounds
    const previous = this.entries.get(key)
    if (previous !== undefined) {
      this.entries.delete(key)
      this.weight -= weigh(key, previous)
    }
    this.entries.set(key, value)
    this.weight += weigh(key, value)
    for (const [oldest, oldestValue] of this.entries) {
      if (this.entries.size <= maxEntries && this.weight <= maxWeight) break
      this.entries.delete(oldest)
      this.weight -= weigh(oldest, oldestValue)
    }
  }

  get size(): number {
    return this.entries.size
  }
}
