/**
 * Looking for a pet that should not exist: after a refused POST, the lists where a pet stored from that
 * body would show. A pet sent with a valid status S is in status=S; one sent without a valid status
 * could be stored with any status or none, so every status list and the unfiltered list are read.
 */

import { listedPets, type SurveyedPet } from '../../lib/data/store-survey.js'
import type { JsonValue } from '../../lib/http/json.js'
import { isPetStatus, type OperationExchange, PET_STATUSES, type PetStatus, type PetstoreApi } from '../../lib/spec/petstore-api.js'

export interface Marker {
  name: string
  categoryId: bigint
}

export interface RefusedPetSearch {
  /** The pet stored from the refused body, and the list that shows it. */
  found?: { pet: SurveyedPet; exchange: OperationExchange }
  /** True when the search could have found it: found, or the list that must hold it is complete (under 100 pets). */
  decided: boolean
  exchanges: OperationExchange[]
}

export async function searchRefusedPet(api: PetstoreApi, marker: Marker, findBy: 'name' | 'categoryId', sentStatus: JsonValue | undefined): Promise<RefusedPetSearch> {
  const validStatus = isPetStatus(sentStatus) ? sentStatus : undefined
  const filters: Array<PetStatus | undefined> = validStatus ? [validStatus] : [undefined, ...PET_STATUSES]
  const exchanges = await Promise.all(filters.map((status) => api.listPets({ ...(status ? { status } : {}), limit: 100 })))
  for (const exchange of exchanges) {
    const pet = listedPets(exchange).find((candidate) => (findBy === 'name' ? candidate.name === marker.name : candidate.categoryId === marker.categoryId))
    if (pet) return { found: { pet, exchange }, decided: true, exchanges }
  }
  // The list that holds the pet whatever status it was given: status=S when S was valid, else the unfiltered one.
  const decisive = exchanges[0] as OperationExchange
  return { decided: decisive.response?.status === 200 && listedPets(decisive).length < 100, exchanges }
}
