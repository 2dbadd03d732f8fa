/**
 * The seed's choice of one value among many, by name: the same seed and the same name always choose the same,
 * whatever else the run chooses and in whatever order (FNV-1a of the two, then a mixing step).
 */
export function seededIndex(seed: number, name: string, count: number): number {
  if (count <= 0) throw new Error('nothing to choose from')
  let hash = 0x811c9dc5 ^ seed
  for (let index = 0; index < name.length; index++) {
    hash ^= name.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  hash ^= hash >>> 15
  hash = Math.imul(hash, 0x2c1b3c6d)
  hash ^= hash >>> 12
  return (hash >>> 0) % count
}

export function seededPick<T>(seed: number, name: string, items: readonly T[]): T {
  return items[seededIndex(seed, name, items.length)] as T
}
