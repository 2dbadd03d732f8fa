/**
 * The model of a sequence: what the store must hold, as far as the sequence has seen it. It holds the pets
 * the sequence created (as their 201 answers showed them, with the status sent) and the pets it read but did
 * not create (as first seen). Every later view of a pet is judged against the view held here.
 */
import type { JsonValue } from '../../lib/http/json.js'
import type { OperationExchange, PetStatus } from '../../lib/spec/petstore-api.js'

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

export class StoreModel {
  readonly pets = new Map<bigint, KnownPet>()
  /** Ids of the pets the sequence created, in order. */
  readonly created: bigint[] = []
  /** Ids of pets the sequence saw in lists but did not create, in order. */
  readonly listed: bigint[] = []

  /** The pet a command picks by a drawn index: the index wraps around what the model holds. */
  static pick(ids: readonly bigint[], index: number): bigint | undefined {
    return ids.length === 0 ? undefined : ids[index % ids.length]
  }

  /** The pets the model expects in the list of `status` (those whose view shows it). */
  petsOfStatus(status: PetStatus): KnownPet[] {
    return [...this.pets.values()].filter((pet) => pet.view.status === status)
  }
}
