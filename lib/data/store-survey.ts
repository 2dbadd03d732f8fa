/**
 * What the store is known to hold, read from lists only: the distinct pets seen across the unfiltered
 * and the per-status lists. Its size is a lower bound on the store, which decides whether a boundary
 * check could have failed (policy §1: no vacuous pass).
 */

import { integerField, isJsonObject, type JsonValue } from '../http/json.js'
import { responseJson } from '../http/response-json.js'
import { type OperationExchange, PET_STATUSES, type PetStatus, type PetstoreApi } from '../spec/petstore-api.js'

export interface SurveyedPet {
  id: bigint
  name: JsonValue | undefined
  categoryId: bigint | undefined
  status: JsonValue | undefined
}

export interface StoreSurvey {
  defaultPage: OperationExchange
  limit100: OperationExchange
  byStatus: Record<PetStatus, OperationExchange>
  /** Distinct pets seen in any list, by id. */
  pets: Map<bigint, SurveyedPet>
  /** How many pets the store is known to hold at least. */
  lowerBound: number
}

/** The pets a list answer names, read leniently (objects with an integer id); empty when it is not a list. */
export function listedPets(exchange: OperationExchange): SurveyedPet[] {
  if (exchange.response?.status !== 200) return []
  const parsed = responseJson(exchange)
  if (!parsed.ok || !Array.isArray(parsed.value)) return []
  return parsed.value.flatMap((item) => {
    if (!isJsonObject(item)) return []
    const id = integerField(item.id)
    if (id === undefined) return []
    return [{ id, name: item.name, categoryId: integerField(item.categoryId), status: item.status }]
  })
}

/** The survey's lists in the order they were asked: the default page, limit=100, then each status's. */
export function surveyLists(survey: StoreSurvey): OperationExchange[] {
  return [survey.defaultPage, survey.limit100, ...PET_STATUSES.map((status) => survey.byStatus[status])]
}

export function countOfStatus(survey: StoreSurvey, status: PetStatus): number {
  let count = 0
  for (const pet of survey.pets.values()) if (pet.status === status) count += 1
  return count
}

/** Lists the store: unfiltered first, then per status, so every pet seen unfiltered existed before a filtered list was asked for. */
export async function surveyStore(api: PetstoreApi): Promise<StoreSurvey> {
  const [defaultPage, limit100] = await Promise.all([api.listPets(), api.listPets({ limit: 100 })])
  const filtered = await Promise.all(PET_STATUSES.map((status) => api.listPets({ status, limit: 100 })))
  const byStatus = Object.fromEntries(PET_STATUSES.map((status, index) => [status, filtered[index]])) as Record<PetStatus, OperationExchange>
  const pets = new Map<bigint, SurveyedPet>()
  for (const exchange of [defaultPage, limit100, ...filtered]) {
    for (const pet of listedPets(exchange)) if (!pets.has(pet.id)) pets.set(pet.id, pet)
  }
  return { defaultPage, limit100, byStatus, pets, lowerBound: pets.size }
}
