import type { Check } from '../../lib/checks/check.js'
import { petDifferences } from '../../lib/checks/differences.js'
import type { EventualRead } from '../../lib/data/eventual-reads.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import type { OperationExchange, PetStatus } from '../../lib/spec/petstore-api.js'
import { categoryId } from '../fixtures.js'

export interface NewPetCase {
  label: string
  name: (check: Check) => string
  categoryId: (check: Check) => bigint
  status?: PetStatus
  extra?: Record<string, unknown>
}

/** Configured category ids replace the int64 extremes when the target only knows some categories. */
export const configuredOr = (value: bigint) => (check: Check) => (check.context.categoryIds.length > 0 ? categoryId(check) : value)

export function newPetBody(check: Check, pet: NewPetCase): { json: Record<string, unknown> } {
  return { json: { ...pet.extra, name: pet.name(check), categoryId: pet.categoryId(check), ...(pet.status ? { status: pet.status } : {}) } }
}

/** GET /pets/{id} of a pet this run created, within the consistency window. */
export function readBack(check: Check, id: bigint): Promise<EventualRead> {
  return check.eventually(
    `GET /pets/${id}`,
    (api) => api.getPet(id),
    (exchange) => exchange.response?.status === 200,
  )
}

/** Asserts the pet read back is the one sent (id, name, categoryId exactly, status when one was sent), naming every field that differs. */
export function expectAsSent(check: Check, exchange: OperationExchange, id: bigint, sent: Record<string, unknown>, what: string): void {
  const expected = { id, name: sent.name, categoryId: sent.categoryId, ...(sent.status !== undefined ? { status: sent.status } : {}) }
  const differences = petDifferences(expected, check.expect.petObject(exchange))
  check.expect.that(differences.length === 0, `${what}: ${differences.join('; ')}`, {
    exchange,
    expected: stringifyJson({ ...sent, id }),
    actual: exchange.response?.body ?? '',
  })
}

/** Create a pet; cases with a `shareKey` are sent once per run and judged by every check that asks. */
export async function createValid(check: Check, pet: NewPetCase, shareKey?: string) {
  check.requireWrites()
  const body = newPetBody(check, pet)
  const exchange = shareKey ? await check.shared(shareKey, (api) => api.createPet(body)) : await check.api.createPet(body)
  check.expect.status(exchange, 201, 'POST /pets')
  const created = check.expect.petObject(exchange)
  const id = integerField(created.id)
  check.expect.that(id !== undefined, 'the created pet has no integer id', { exchange, expected: 'an integer id', actual: stringifyJson(created.id) })
  return { exchange, created, id: id as bigint, sent: body.json }
}
