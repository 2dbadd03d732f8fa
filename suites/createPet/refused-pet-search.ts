/**
 * Looking for a pet that should not exist: after a refused POST, the lists where a pet stored from that
 * body would show. A pet sent with a valid status S is in status=S; one sent without a valid status
 * could be stored with any status or none, so every status list and the unfiltered list are read.
 */

import type { Check } from '../../lib/checks/check.js'
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

/** Which list a search reads: one status, or the unfiltered one. */
type Filter = PetStatus | 'unfiltered'

interface Waiting {
  marker: Marker
  findBy: 'name' | 'categoryId'
  filters: Filter[]
  resolve: (search: RefusedPetSearch) => void
}

/**
 * The searches of one run, coalesced: a search waits for the next round of lists, and every search that
 * waits when a round starts is answered by that round, one request per list it needs. A round starts as soon
 * as the one before it has answered, so each list is read after the refused POST it judges, and some sixty
 * refused bodies (the generated ones and the fixed ones) cost a few rounds of at most four lists, not up to
 * four lists each.
 */
export class RefusedPetSearches {
  private waiting: Waiting[] = []
  private round: Promise<void> | undefined

  constructor(private readonly api: PetstoreApi) {}

  search(marker: Marker, findBy: 'name' | 'categoryId', sentStatus: JsonValue | undefined): Promise<RefusedPetSearch> {
    const validStatus = isPetStatus(sentStatus) ? sentStatus : undefined
    // A pet sent with a valid status S is in status=S; one sent without could be stored with any status or none.
    const filters: Filter[] = validStatus ? [validStatus] : ['unfiltered', ...PET_STATUSES]
    return new Promise((resolve) => {
      this.waiting.push({ marker, findBy, filters, resolve })
      this.round ??= this.nextRounds()
    })
  }

  /** Rounds while searches wait: each takes every search waiting when it starts. */
  private async nextRounds(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0)
      const filters = [...new Set(batch.flatMap((waiting) => waiting.filters))]
      const lists = new Map(
        await Promise.all(filters.map(async (filter) => [filter, await this.api.listPets({ ...(filter === 'unfiltered' ? {} : { status: filter }), limit: 100 })] as const)),
      )
      // Each list read once per round, however many searches look in it.
      const pets = new Map([...lists].map(([filter, exchange]) => [filter, listedPets(exchange)] as const))
      for (const waiting of batch) waiting.resolve(searchIn(waiting, lists, pets))
    }
    this.round = undefined
  }
}

function searchIn(waiting: Waiting, lists: ReadonlyMap<Filter, OperationExchange>, pets: ReadonlyMap<Filter, SurveyedPet[]>): RefusedPetSearch {
  const exchanges = waiting.filters.map((filter) => lists.get(filter) as OperationExchange)
  for (const filter of waiting.filters) {
    const pet = pets.get(filter)?.find((candidate) => (waiting.findBy === 'name' ? candidate.name === waiting.marker.name : candidate.categoryId === waiting.marker.categoryId))
    if (pet) return { found: { pet, exchange: lists.get(filter) as OperationExchange }, decided: true, exchanges }
  }
  // The list that holds the pet whatever status it was given: status=S when S was valid, else the unfiltered one.
  const decisive = waiting.filters[0] as Filter
  return { decided: lists.get(decisive)?.response?.status === 200 && (pets.get(decisive)?.length ?? 0) < 100, exchanges }
}

/** The run's searches, shared by every check that judges a refused body. */
export function refusedPetSearches(check: Check): Promise<RefusedPetSearches> {
  return check.once('refused-pet-searches', async (api) => new RefusedPetSearches(api))
}
