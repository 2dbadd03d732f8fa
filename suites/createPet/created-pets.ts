/** Creating a valid pet and reading it back: what the createPet suites share. */
import type { PetObject } from '../../lib/checks/assertions.js'
import type { Check } from '../../lib/checks/check.js'
import type { EventualRead } from '../../lib/data/eventual-reads.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import type { PetStatus } from '../../lib/spec/petstore-api.js'
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

/** The pet read back is the one sent: same id, name, categoryId (exact), and status when one was sent. */
export function sameAsSent(read: PetObject, id: bigint, sent: Record<string, unknown>): boolean {
  return integerField(read.id) === id && read.name === sent.name && integerField(read.categoryId) === sent.categoryId && (sent.status === undefined || read.status === sent.status)
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
