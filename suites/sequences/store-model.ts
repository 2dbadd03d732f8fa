/**
 * The model of a sequence: the store as the sequence has seen it, and what each answer must therefore be.
 * It holds the pets the sequence created (as their 201 answers showed them, with the status sent) and the
 * pets it read but did not create (as first seen); every later view of a pet is judged against the view
 * held here. It says which rule bounds a list, how many pets the store is known to hold, which pet already
 * holds an id, and which pets a complete list of a status must show.
 */
import type { JsonValue } from '../../lib/http/json.js'
import type { OperationExchange, PetStatus } from '../../lib/spec/petstore-api.js'
import type { ListRequest, SequenceRequirement } from './sequence-outcome.js'

export type PetFields = { [key: string]: JsonValue }

/** Where a view was read: in words, and how to read it again (a 201 answer cannot be). */
export interface ViewSource {
  words: string
  reread?: () => Promise<{ exchange: OperationExchange; view: PetFields | undefined }>
}

export interface KnownPet {
  id: bigint
  /** The view every later one must agree with. */
  view: PetFields
  source: ViewSource
  /** Set for a pet the sequence created: the status it sent (none when it left the service to fill one in). */
  created?: { sentStatus: PetStatus | undefined }
}

/** What a list answer must be: in range, at most `bound` pets, by the rule `sizeRequirement`; out of range, a 4xx Error or at most 100 pets. */
export interface ListRule {
  inRange: boolean
  bound: number
  sizeRequirement: SequenceRequirement
}

export class StoreModel {
  readonly pets = new Map<bigint, KnownPet>()
  /** Ids of the pets the sequence created, in order. */
  readonly created: bigint[] = []
  /** Ids of pets the sequence saw in lists but did not create, in order. */
  readonly listed: bigint[] = []

  /** @param surveyed Pets the store was known to hold before the sequence (the run's survey). */
  constructor(private readonly surveyed: ReadonlyMap<bigint, { status: JsonValue | undefined }> = new Map()) {}

  /** The pet a command picks by a drawn index: the index wraps around what the model holds. */
  static pick(ids: readonly bigint[], index: number): bigint | undefined {
    return ids.length === 0 ? undefined : ids[index % ids.length]
  }

  /** The rule a list of this query is judged by (listPets rules 1–3, and the policy's out-of-range limits). */
  static listRule(query: ListRequest): ListRule {
    const inRange = query.limit === undefined || (query.limit >= 1 && query.limit <= 100)
    if (!inRange) return { inRange, bound: 100, sizeRequirement: 'listPets/limit-out-of-range' }
    const bound = query.limit ?? 20
    if (query.status !== undefined) return { inRange, bound, sizeRequirement: query.limit === undefined ? 'listPets/filter-and-default-limit' : 'listPets/filter-and-limit' }
    if (query.limit === undefined) return { inRange, bound, sizeRequirement: 'listPets/limit-default-20' }
    return { inRange, bound, sizeRequirement: query.limit === 100 ? 'listPets/limit-max-100' : 'listPets/limit-caps-size' }
  }

  /** A created pet's place in its status list is created-pet-listed when the status was sent, else the views rule. */
  static membershipRequirement(pet: KnownPet): SequenceRequirement {
    return pet.created?.sentStatus !== undefined ? 'createPet/created-pet-listed' : 'views/one-pet-reads-the-same'
  }

  /** Where the pet that holds `id` was seen, when the model knows one. */
  holderOf(id: bigint): string | undefined {
    return this.pets.get(id)?.source.words
  }

  /** A pet the sequence created, as its 201 answer showed it. */
  recordCreated(id: bigint, view: PetFields, source: ViewSource, sentStatus: PetStatus | undefined): void {
    this.pets.set(id, { id, view, source, created: { sentStatus } })
    if (!this.created.includes(id)) this.created.push(id)
  }

  /** A pet first seen in a read, not created by the sequence. */
  recordSeen(id: bigint, view: PetFields, source: ViewSource): void {
    this.pets.set(id, { id, view, source })
    this.listed.push(id)
  }

  /** Pets of that status (or all) the store is known to hold: the survey's and the model's together. */
  knownCount(status: PetStatus | undefined): number {
    const ids = new Set<bigint>()
    for (const [id, pet] of this.surveyed) if (status === undefined || pet.status === status) ids.add(id)
    for (const pet of this.pets.values()) if (status === undefined || pet.view.status === status) ids.add(pet.id)
    return ids.size
  }

  /** Whether the store is known to hold a pet whose status is not `status` (another, or none): the survey's or the model's. */
  knowsPetNotOfStatus(status: PetStatus): boolean {
    for (const pet of this.surveyed.values()) if (pet.status !== status) return true
    for (const pet of this.pets.values()) if (pet.view.status !== status) return true
    return false
  }

  /** The pets the model expects in the list of `status` (those whose view shows it). */
  petsOfStatus(status: PetStatus): KnownPet[] {
    return [...this.pets.values()].filter((pet) => pet.view.status === status)
  }
}
