/**
 * Faults only a sequence shows: each answer on its own is valid, and each view of a pet is plausible, but two
 * views of one pet disagree, or a pet is missing from the list of the status it shows. The rule-by-rule
 * checks see each view alone; the model-based sequences compare them (views/one-pet-reads-the-same).
 */
import { INT64_MAX, INT64_MIN } from '../../lib/http/int64.js'
import { isJsonObject, JsonNumber, type JsonValue, parseJson } from '../../lib/http/json.js'
import { isPetStatus } from '../../lib/spec/petstore-api.js'
import type { ServiceRequest } from '../../reference/http-types.js'
import { type Fields, isCreatePet, isGetPet, isListPets, mapJsonBody, rewritePets, rewritingNewPet, type Variant } from '../variant.js'

/** A double cast back to int64 as Java's (long) cast does: rounded to the nearest double, saturated at the bounds. */
function throughDouble(value: bigint): bigint {
  const rounded = BigInt(Number(value))
  return rounded > INT64_MAX ? INT64_MAX : rounded < INT64_MIN ? INT64_MIN : rounded
}

export const viewsFaults: Variant[] = [
  {
    name: 'list-rounds-category-ids',
    description: 'the list view reads categoryId through a double (a search index): ids above 2^53 come out rounded in GET /pets only',
    catches: ['views/one-pet-reads-the-same'],
    wrap: rewritePets(isListPets, 200, (pet) =>
      pet.categoryId instanceof JsonNumber && pet.categoryId.integer !== undefined ? { ...pet, categoryId: throughDouble(pet.categoryId.integer) } : pet,
    ),
  },
  {
    name: 'status-omitted-missing-from-filter',
    description: 'a pet created without status is stored without one but shown as available everywhere (its 201 too), so status=available never lists it',
    catches: ['views/one-pet-reads-the-same'],
    wrap: (reference, context) => {
      const views = (request: ServiceRequest) => isCreatePet(request) || isGetPet(request) || isListPets(request)
      const shownAvailable = (pet: Fields) => (isPetStatus(pet.status) ? pet : { ...pet, status: 'available' })
      return rewritePets(views, 201, shownAvailable)(rewritePets(views, 200, shownAvailable)(reference, context), context)
    },
  },
  {
    name: 'created-answer-omits-filled-in-status',
    description: 'a pet created without status is stored as available, but the 201 answer echoes the body and shows no status',
    catches: ['views/one-pet-reads-the-same'],
    wrap: (reference, context) => {
      const storingTheDefault = rewritingNewPet((fields) => ('status' in fields ? fields : { ...fields, status: 'available' }))(reference, context)
      return async (request) => {
        const answer = await storingTheDefault(request)
        if (!isCreatePet(request) || answer.status !== 201) return answer
        const sent = parseJson(request.body)
        return sent.ok && isJsonObject(sent.value) && 'status' in sent.value ? answer : mapJsonBody(answer, withoutStatus)
      }
    },
  },
]

function withoutStatus(body: JsonValue): JsonValue {
  if (!isJsonObject(body)) return body
  const { status: _status, ...rest } = body
  return rest
}
