import type { Check } from '../../lib/checks/check.js'
import { petDifferences } from '../../lib/checks/differences.js'
import type { EventualRead } from '../../lib/data/eventual-reads.js'
import { integerField, stringifyJson } from '../../lib/http/json.js'
import { responseObject } from '../../lib/http/response-json.js'
import type { OperationExchange, PetStatus } from '../../lib/spec/petstore-api.js'
import { categoryId } from '../fixtures.js'

export interface NewPetCase {
  label: string
  name: (check: Check) => string
  categoryId: (check: Check) => bigint
  status?: PetStatus
  extra?: Record<string, unknown>
  /** The one input it varies from the plain create (PLAIN_NEW_PET), in words: what an experiment names as the cause when it fails and the plain create passes. */
  varies?: string
}

/** The plain create: an ASCII name, the plain categoryId and a status. Sent once per run, shared; the control of every experiment on a create. */
export const PLAIN_NEW_PET: NewPetCase = { label: 'ASCII name with status', name: (c) => c.petName('echo-ascii'), categoryId: categoryId, status: 'pending' }

/** The plain create's exchange (sent once per run, shared with createPet/returns-201-pet). */
export function plainCreate(check: Check): Promise<OperationExchange> {
  return check.shared(`echo:${PLAIN_NEW_PET.label}`, (api) => api.createPet(newPetBody(check, PLAIN_NEW_PET)))
}

/** Whether the plain create was answered 201 with every field as sent: the control an experiment's variation is set against. */
export async function plainCreatePasses(check: Check): Promise<boolean> {
  const exchange = await plainCreate(check)
  const created = exchange.response?.status === 201 ? responseObject(exchange) : undefined
  const sent = newPetBody(check, PLAIN_NEW_PET).json
  return (
    created !== undefined && integerField(created.id) !== undefined && petDifferences({ name: sent.name, categoryId: sent.categoryId, status: sent.status }, created).length === 0
  )
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
    check.api,
    { pets: [id] },
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

/** The create without status createPet/status-omitted records and views/one-pet-reads-the-same follows: sent once a run. */
export const NO_STATUS_CREATE = 'create:no-status'

/** Create a pet; cases with a `shareKey` are sent once per run and judged by every check that asks. */
export async function createValid(check: Check, pet: NewPetCase, shareKey?: string) {
  check.requireWrites()
  const body = newPetBody(check, pet)
  const exchange = shareKey ? await check.shared(shareKey, (api) => api.createPet(body)) : await check.api.createPet(body)
  check.expect.answeredWith(exchange, 201, 'POST /pets', 'createPet/returns-201-pet')
  const created = check.expect.petObject(exchange)
  const id = integerField(created.id)
  check.expect.that(id !== undefined, 'the created pet has no integer id', { exchange, expected: 'an integer id', actual: stringifyJson(created.id) })
  return { exchange, created, id: id as bigint, sent: body.json }
}
