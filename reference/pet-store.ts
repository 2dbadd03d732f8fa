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

export class PetStore {
  private readonly pets = new Map<bigint, StoredPet>()
  private nextId: bigint

  constructor(
    firstId = 1n,
    /** How far apart the ids it assigns are (1: consecutive). */
    private readonly idStep = 1n,
  ) {
    this.nextId = firstId
  }

  add(pet: Omit<StoredPet, 'id'>): StoredPet {
    const stored = { ...pet, id: this.nextId }
    this.nextId += this.idStep
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
    const matching: StoredPet[] = []
    for (const pet of this.pets.values()) {
      if (filter.status !== undefined && pet.status !== filter.status) continue
      if (filter.visible && !filter.visible(pet)) continue
      matching.push(pet)
      if (matching.length >= filter.limit) break
    }
    return matching
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
