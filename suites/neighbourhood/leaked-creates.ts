/**
 * RESTler's leakage rule (policy §2b): a refused create changes nothing. Each create of the neighbourhood carries a
 * number in its name; after the creates, the lists are read once, and a listed pet whose name carries the number of
 * a create the service refused was stored all the same. A search decides only where the lists are complete.
 */
import type { Check } from '../../lib/checks/check.js'
import { isJsonObject } from '../../lib/http/json.js'
import { type OperationExchange, PET_STATUSES } from '../../lib/spec/petstore-api.js'
import type { EditedCreate } from './followed-creates.js'

const NUMBER_IN_NAME = /n(\d{7})/i

export async function searchLeakedCreates(check: Check, refused: readonly EditedCreate[]): Promise<void> {
  if (refused.length === 0) return
  const lists = await Promise.all([check.api.listPets({ limit: 100 }), ...PET_STATUSES.map((status) => check.api.listPets({ limit: 100, status }))])
  const byNumber = new Map(refused.map((create) => [create.number, create]))
  const complete = (exchange: OperationExchange) => {
    const body = exchange.response?.status === 200 ? check.expect.json(exchange) : undefined
    return Array.isArray(body) && body.length < 100
  }
  const found = new Set<number>()
  for (const list of lists) {
    const body = list.response?.status === 200 ? check.expect.json(list) : undefined
    if (!Array.isArray(body)) continue
    for (const pet of body) {
      if (!isJsonObject(pet) || typeof pet.name !== 'string' || !pet.name.includes(check.context.runId)) continue
      const number = Number(NUMBER_IN_NAME.exec(pet.name)?.[1])
      const create = byNumber.get(number)
      if (!create || found.has(number)) continue
      found.add(number)
      check.charge(
        create.exchange,
        [
          {
            requirementId: 'createPet/invalid-body-not-created',
            ok: false,
            message: `refused with ${create.exchange.response?.status}, yet the list shows a pet named ${JSON.stringify(pet.name)}`,
          },
        ],
        list,
        `${create.edit.plain.name}, ${create.edit.label}`,
      )
    }
  }
  // Where the lists are complete, a refused create that shows in none was not stored.
  const decided = (lists[0] !== undefined && complete(lists[0])) || lists.slice(1).every(complete)
  if (!decided) return
  for (const create of refused)
    if (!found.has(create.number)) check.charge(create.exchange, [{ requirementId: 'createPet/invalid-body-not-created', ok: true }], undefined, create.edit.label)
}
