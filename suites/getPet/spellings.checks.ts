/**
 * One pet by id, its id spelled every way the input catalogue names (lib/spec/input-catalogue.ts): the same digits
 * percent-encoded mean the same id; other notations of an existing id (a radix prefix, a separator, digits of
 * another script) are no id at all and must never reach the pet, which a lenient parser would let them do.
 */
import type { Check } from '../../lib/checks/check.js'
import { describe, test } from '../../lib/checks/registry.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import { asPathSegment, inputClass } from '../../lib/spec/input-catalogue.js'
import { withIdSegment } from '../../lib/spec/operation-requests.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { knownIds, requireGetPetInService } from '../fixtures.js'

const EQUIVALENT = inputClass('path petId', 'same meaning')
const NOT_THE_VALUE = inputClass('path petId', 'not the value')
const LENIENT = inputClass('path petId', 'lenient reading')

/** A pet the lists show, with its plain GET (sent once per run), for spellings to be compared with; inconclusive on an empty store. */
async function existingPet(check: Check): Promise<{ id: bigint; plain: OperationExchange }> {
  requireGetPetInService(check)
  const [id] = knownIds(await check.survey(), 1)
  check.require(id !== undefined && id >= 0n, 'no pet with a non-negative id is known to spell')
  const known = id as bigint
  return { id: known, plain: await check.shared(`get:${known}`, (api) => api.getPet(known)) }
}

/** GET /pets/{segment} with the key, the segment sent as written. */
function getSpelled(check: Check, segment: string): Promise<OperationExchange> {
  return check.api.send(withIdSegment(check.api.request({ operation: 'getPet', id: 0n }), segment))
}

/** What two answers to one pet are compared on: status, and the pet's id, name and categoryId (its status may change between reads). */
function petView(check: Check, exchange: OperationExchange): string {
  const status = exchange.response?.status ?? 0
  if (status !== 200) return `${status}`
  const pet = check.expect.petObject(exchange)
  return `200 ${stringifyJson({ id: pet.id, name: pet.name, categoryId: pet.categoryId })}`
}

describe('getPet: the id spelled every way', () => {
  test.for(EQUIVALENT.spellings)('[getPet/equivalent-spellings] GET /pets/{id} with $label gets the answer of the plain id', async (spelling, { check }) => {
    const { id, plain } = await existingPet(check)
    check.requireAnswer(plain, `GET /pets/${id}`)
    const spelled = await getSpelled(check, spelling.spell(String(id)))
    check.requireAnswer(spelled, `GET /pets/${spelling.spell(String(id))}`)
    const [expected, actual] = [petView(check, plain), petView(check, spelled)]
    check.expect.that(actual === expected, `GET /pets/${spelling.spell(String(id))} (${spelling.label}) was answered ${actual}, where GET /pets/${id} got ${expected}`, {
      exchange: spelled,
      expected,
      actual,
    })
  })

  test.for(NOT_THE_VALUE.spellings)(
    '[getPet/other-notations] an existing id written with $label is answered 400 or 404 with an Error body, never the pet',
    async (spelling, { check }) => {
      const { id } = await existingPet(check)
      const text = spelling.spell(String(id))
      const exchange = await getSpelled(check, asPathSegment(text))
      const status = exchange.response?.status ?? 0
      if (status === 200) {
        const pet = check.expect.petObject(exchange)
        check.expect.fail(
          `GET /pets/${text} (${spelling.label} of ${id}) was answered 200 with pet ${stringifyJson(pet.id)}: a notation that is not a decimal integer reached a pet`,
          {
            exchange,
            expected: '400 or 404 with an Error body',
            actual: `200 with pet ${stringifyJson(pet.id)}`,
          },
        )
      }
      check.expect.errorAnswer(exchange, [400, 404], `GET /pets/${text} (${spelling.label} of ${id})`)
    },
  )

  test('[getPet/lenient-notations] what GET /pets/{id} answers to +N, 0N, N.0, Ne0 and N; of an existing id is recorded', async ({ check }) => {
    const { id } = await existingPet(check)
    const answers = await Promise.all(LENIENT.spellings.map((spelling) => getSpelled(check, asPathSegment(spelling.spell(String(id))))))
    LENIENT.spellings.forEach((spelling, index) => {
      const exchange = answers[index] as OperationExchange
      const pet = exchange.response?.status === 200 ? integerField(check.expect.petObject(exchange).id) : undefined
      check.observe(
        `${spelling.spell(String(id))} (${spelling.label}): ${exchange.response ? `${exchange.response.status}${pet !== undefined ? ` with pet ${pet}` : ''}` : 'no answer'}`,
      )
    })
  })
})
