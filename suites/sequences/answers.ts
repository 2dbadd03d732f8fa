/** How a sequence reads the answers it gets: the items of a list, the pet of a GET, a view in the report's words. */

import { integerField, isJsonObject, type JsonValue, stringifyJson } from '../../lib/http/json.js'
import { responseJson, responseObject } from '../../lib/http/response-json.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import type { PetFields } from './store-model.js'

/** The items of a 200 list answer, or undefined when it is not one. */
export function listItems(exchange: OperationExchange): PetFields[] | undefined {
  if (exchange.response?.status !== 200) return undefined
  const parsed = responseJson(exchange)
  return parsed.ok && Array.isArray(parsed.value) && parsed.value.every(isJsonObject) ? (parsed.value as PetFields[]) : undefined
}

/** The pet of that very id in a 200 answer of GET /pets/{id}. */
export function petWithId(exchange: OperationExchange, id: bigint): PetFields | undefined {
  const pet = exchange.response?.status === 200 ? responseObject(exchange) : undefined
  return pet && integerField(pet.id) === id ? pet : undefined
}

/** The fields of the Animal schema, as the report quotes a view. */
export function animalText(view: PetFields | undefined): string {
  if (!view) return '(not in the answer)'
  const { id, name, categoryId, status } = view
  return stringifyJson({ id, name, categoryId, ...(status !== undefined ? { status } : {}) } as JsonValue)
}
