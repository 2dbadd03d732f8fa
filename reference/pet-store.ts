/** The reference's in-memory store: pets in creation order, ids assigned by the service, int64 kept exact. */

export type PetStatus = 'available' | 'pending' | 'sold'

export interface StoredPet {
  id: bigint
  name: string
  categoryId: bigint
  status?: PetStatus
  /** Extra properties sent at creation; the schemas are open, so the reference keeps them. */
  extra: Record<string, unknown>
}

/** The order a store lists its pets in: as they were created, newest first, or shuffled anew for every list. */
export type ListOrder = 'oldest first' | 'newest first' | 'shuffled'

export class PetStore {
  private readonly pets = new Map<bigint, StoredPet>()
  private nextId: bigint
  /** How lists are ordered (the spec shows no order; the policy never assumes one). */
  order: ListOrder = 'oldest first'

  constructor(
    firstId = 1n,
    /** How far apart the ids it assigns are (1: consecutive), or the id that follows each. */
    private readonly idStep: bigint | ((last: bigint) => bigint) = 1n,
  ) {
    this.nextId = firstId
  }

  add(pet: Omit<StoredPet, 'id'>): StoredPet {
    const stored = { ...pet, id: this.nextId }
    this.nextId = typeof this.idStep === 'bigint' ? this.nextId + this.idStep : this.idStep(this.nextId)
    this.pets.set(stored.id, stored)
    return stored
  }

  /** Moves a pet to another id, replacing any pet there (faulty variants use it to honour or race ids). */
  rekey(from: bigint, to: bigint): StoredPet | undefined {
    const pet = this.pets.get(from)
    if (!pet) return undefined
    this.pets.delete(from)
    const moved = { ...pet, id: to }
    this.pets.set(to, moved)
    return moved
  }

  /** Replaces the fields of a stored pet, keeping its id. */
  update(id: bigint, fields: Omit<StoredPet, 'id'>): void {
    if (this.pets.has(id)) this.pets.set(id, { ...fields, id })
  }

  get(id: bigint): StoredPet | undefined {
    return this.pets.get(id)
  }

  list(filter: { status?: PetStatus; limit: number; visible?: (pet: StoredPet) => boolean }): StoredPet[] {
    const matches = (pet: StoredPet) => (filter.status === undefined || pet.status === filter.status) && (!filter.visible || filter.visible(pet))
    if (this.order !== 'oldest first') {
      const all = [...this.pets.values()].filter(matches)
      return (this.order === 'newest first' ? all.reverse() : this.shuffled(all)).slice(0, filter.limit)
    }
    const matching: StoredPet[] = []
    for (const pet of this.pets.values()) {
      if (!matches(pet)) continue
      matching.push(pet)
      if (matching.length >= filter.limit) break
    }
    return matching
  }

  /** The state of the shuffle's generator (mulberry32): a fixed start, so a store shuffles the same way in every process. */
  private shuffleState = 0x9e3779b9

  /** The pets in a fresh order (Fisher–Yates), from a generator of the store's own. */
  private shuffled(pets: StoredPet[]): StoredPet[] {
    const next = () => {
      this.shuffleState = (this.shuffleState + 0x6d2b79f5) | 0
      let t = Math.imul(this.shuffleState ^ (this.shuffleState >>> 15), 1 | this.shuffleState)
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296
    }
    for (let index = pets.length - 1; index > 0; index--) {
      const other = Math.floor(next() * (index + 1))
      ;[pets[index], pets[other]] = [pets[other] as StoredPet, pets[index] as StoredPet]
    }
    return pets
  }

  get size(): number {
    return this.pets.size
  }
}

/** A store holding `count` pets with statuses in turn (and every seventh without one), for smoke runs. */
export function populatedStore(count: number, firstId = 1n): PetStore {
  return withPets(new PetStore(firstId), count)
}

/** The store with `count` more pets: the three statuses in turn, every seventh without one. */
export function withPets(store: PetStore, count: number): PetStore {
  const statuses: Array<PetStatus | undefined> = ['available', 'pending', 'sold']
  for (let index = 0; index < count; index++) {
    const status = index % 7 === 6 ? undefined : statuses[index % 3]
    store.add({ name: `pet ${index + 1}`, categoryId: BigInt(index % 5), ...(status ? { status } : {}), extra: {} })
  }
  return store
}
