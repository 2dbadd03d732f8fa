/**
 * RESTler's leakage rule (policy §2b): a refused create changes nothing. Each create of the neighbourhood carries a
 * number in its name, so a pet stored all the same is known by it. Two searches, each deciding only where it can:
 *
 * - the lists, read once after the creates: where every list is short of 100 pets, they hold every pet, and a refused
 *   create that shows in none was not stored;
 * - the ids: on a long-lived store whose lists are full and oldest first, no list shows a new pet, but a store that
 *   gives ids in order gave a refused create stored all the same an id between those of the creates around it, or
 *   after the last. The ids in that stretch that no create of this run was answered with are read one by one: where
 *   they are few, every refused create is decided; where they are many, the store's ids are not dense, and that is
 *   what the report says.
 */
import type { Check, RefusedCreatesRecord } from '../../lib/checks/check.js'
import { isJsonObject } from '../../lib/http/json.js'
import { responseObject } from '../../lib/http/response-json.js'
import { type OperationExchange, PET_STATUSES } from '../../lib/spec/petstore-api.js'
import type { EditedCreate } from './followed-creates.js'

const NUMBER_IN_NAME = /n(\d{7})/i

/**
 * Most ids read in the search by ids: a store that gives ids in order leaves none between the creates of a run but
 * those of another client's creates meanwhile; more than this says its ids are not dense, and the search stops.
 */
const MOST_IDS_READ = 32

/** The ids after the last accepted create read until this many in a row hold no pet: where a refused create sent after it would be. */
const EMPTY_IDS_PAST_THE_END = 2

export async function searchLeakedCreates(check: Check, refused: readonly EditedCreate[], acceptedIds: readonly bigint[]): Promise<void> {
  if (refused.length === 0) return
  const byNumber = new Map(refused.map((create) => [create.number, create]))
  const found = new Set<number>()
  /** A pet that carries the number of a refused create in its name, as a list or a get showed it: a failure of the rule. */
  const stored = (pet: unknown, shownBy: OperationExchange) => {
    if (!isJsonObject(pet) || typeof pet.name !== 'string' || !pet.name.includes(check.context.runId)) return
    const number = Number(NUMBER_IN_NAME.exec(pet.name)?.[1])
    const create = byNumber.get(number)
    if (!create || found.has(number)) return
    found.add(number)
    const message = `refused with ${create.exchange.response?.status}, yet the store holds a pet named ${JSON.stringify(pet.name)}`
    check.charge(create.exchange, [{ requirementId: 'createPet/invalid-body-not-created', ok: false, message }], shownBy, `${create.edit.plain.name}, ${create.edit.label}`)
  }
  const lists = await Promise.all([check.api.listPets({ limit: 100 }), ...PET_STATUSES.map((status) => check.api.listPets({ limit: 100, status }))])
  for (const list of lists) {
    const body = list.response?.status === 200 ? check.expect.json(list) : undefined
    if (Array.isArray(body)) for (const pet of body) stored(pet, list)
  }
  const complete = (exchange: OperationExchange | undefined) => {
    const body = exchange?.response?.status === 200 ? check.expect.json(exchange) : undefined
    return Array.isArray(body) && body.length < 100
  }
  const byLists = complete(lists[0]) || lists.slice(1).every(complete)
  const record: RefusedCreatesRecord = byLists
    ? { refused: refused.length, verified: refused.length - found.size, by: 'lists' }
    : await searchByIds(check, refused.length, acceptedIds, stored, found)
  check.neighbourhood.refusedCreates = record
  if (record.verified === 0) return
  for (const create of refused)
    if (!found.has(create.number)) check.charge(create.exchange, [{ requirementId: 'createPet/invalid-body-not-created', ok: true }], undefined, create.edit.label)
}

/** The search by ids: the ids between and after the accepted creates' that no create of the run was answered with, each read. */
async function searchByIds(
  check: Check,
  refused: number,
  acceptedIds: readonly bigint[],
  stored: (pet: unknown, shownBy: OperationExchange) => void,
  found: ReadonlySet<number>,
): Promise<RefusedCreatesRecord> {
  const undecided = (why: string): RefusedCreatesRecord => ({ refused, verified: 0, undecided: `the lists hold 100 pets or more, and ${why}` })
  if (acceptedIds.length === 0) return undecided('no create was accepted to show where the store puts a new pet')
  const created = check.knownPets.createdIds()
  const sorted = [...acceptedIds].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const first = sorted[0] as bigint
  const last = sorted.at(-1) as bigint
  const between: bigint[] = []
  for (let id = first + 1n; id < last; id++) {
    if (created.has(id)) continue
    between.push(id)
    if (between.length > MOST_IDS_READ)
      return undecided(`the store's ids are not in order (more than ${MOST_IDS_READ} ids between the accepted creates' were no create of this run's)`)
  }
  const show = async (id: bigint) => {
    const exchange = await check.api.getPet(id)
    const pet = exchange.response?.status === 200 ? responseObject(exchange) : undefined
    if (pet !== undefined) stored(pet, exchange)
    return exchange.response?.status
  }
  const answers = await Promise.all(between.map(show))
  if (answers.some((status) => status !== 200 && status !== 404)) return undecided('an id between the accepted creates was answered neither 200 nor 404')
  // Past the last accepted create: up to the last id any create of the run was answered with, then until the ids hold no pet.
  let lastCreated = last
  for (const id of created) if (id > lastCreated) lastCreated = id
  let empty = 0
  let read = between.length
  for (let id = last + 1n; empty < EMPTY_IDS_PAST_THE_END || id <= lastCreated; id++) {
    if (created.has(id)) continue
    if (++read > MOST_IDS_READ) return undecided(`the ids after the last accepted create hold pets no create of this run made, past ${MOST_IDS_READ} reads`)
    const status = await show(id)
    if (status === 404) empty += 1
    else if (status === 200) empty = 0
    else return undecided(`an id after the last accepted create was answered ${status ?? 'nothing'}`)
  }
  return { refused, verified: refused - found.size, by: 'ids' }
}
