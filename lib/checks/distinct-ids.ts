/**
 * Ids distinct across created pets (policy §2, ids), judged on every create of the run whichever check sent it: two
 * creates answered 201 with the same id made one pet of two, however far apart in the run they were (two identical
 * bodies sent at once, a twin, an edited create). A create sent again after it was lost is one exchange, judged once.
 */
import { integerField, isJsonObject } from '../http/json.js'
import { responseJson } from '../http/response-json.js'
import type { OperationExchange } from '../spec/petstore-api.js'
import type { IncidentalResult } from './incidental-checks.js'

export class DistinctIds {
  /** Each id a create was answered with, and the exchange that was (its id and request, in words). */
  private readonly firstAnsweredWith = new Map<bigint, { exchangeId: number; words: string }>()

  /** The finding of one exchange: none unless it is a create answered 201 with an id. */
  judge(exchange: OperationExchange): IncidentalResult[] {
    if (exchange.operation !== 'createPet' || exchange.response?.status !== 201) return []
    const parsed = responseJson(exchange)
    const id = parsed.ok && isJsonObject(parsed.value) ? integerField(parsed.value.id) : undefined
    if (id === undefined) return []
    const earlier = this.firstAnsweredWith.get(id)
    if (earlier === undefined || earlier.exchangeId === exchange.id) {
      this.firstAnsweredWith.set(id, { exchangeId: exchange.id, words: `${exchange.request.method} ${exchange.request.url}` })
      return [{ requirementId: 'createPet/ids-unique', ok: true }]
    }
    return [
      {
        requirementId: 'createPet/ids-unique',
        ok: false,
        message: `a create was answered 201 with id ${id}, which an earlier create of the run was answered with too (exchange #${earlier.exchangeId}, ${earlier.words}): two creates, one id`,
      },
    ]
  }
}
