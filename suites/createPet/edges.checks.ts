/**
 * The edges real services get wrong (policy §2, integer edges and name lengths): a categoryId at each edge of
 * the narrower integer types a service may wrongly store an int64 in, and names at the lengths where storage
 * commonly cuts, counted in code points and in UTF-8 bytes. Every full run sends each, whatever the seed, and
 * reads each back in every view: the 201 answer, GET /pets/{id}, and the list of its status. One pet per edge;
 * the first eight carry the long names and the next ones the input catalogue's hazardous names (policy §2,
 * characters storage changes), so the three rules cost one set of creates.
 */
import type { Check } from '../../lib/checks/check.js'
import { petDifferences } from '../../lib/checks/differences.js'
import { describe, test } from '../../lib/checks/registry.js'
import { type EventualRead, windowWords } from '../../lib/data/eventual-reads.js'
import { INT64_EDGES } from '../../lib/data/new-pet-arbitraries.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { responseJson, responseObject } from '../../lib/http/client.js'
import { integerField, isJsonObject, type JsonValue } from '../../lib/http/json.js'
import { inputClass } from '../../lib/spec/input-catalogue.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { categoryId, requireGetPetInService } from '../fixtures.js'

/** A character outside the Basic Multilingual Plane: 4 bytes in UTF-8, two UTF-16 units, one code point. */
const OUTSIDE_BMP = '🐾'

/** Lengths where storage commonly cuts (VARCHAR(255), 1 KiB, 4 KiB), counted in code points, then in UTF-8 bytes. */
const NAME_LENGTHS = [255, 256, 1_024, 4_096].flatMap((length) => [
  { label: `${length} code points`, length, unit: 'code points' as const },
  { label: `${length} UTF-8 bytes, mostly characters outside the BMP`, length, unit: 'bytes' as const },
])

/** The input catalogue's names that storage, escaping and rendering change: carried by the edge pets after the long names. */
const HAZARDOUS_NAMES = inputClass('NewPet name', 'hazardous data').spellings

/** The status every edge pet is created with: the list of that status is read to find them all. */
const EDGE_STATUS = 'pending'

/** A name of exactly `length` code points (ASCII after the run's prefix) or `length` UTF-8 bytes (4-byte characters, then ASCII to fill). */
function nameOfLength(prefix: string, length: number, unit: 'code points' | 'bytes'): string {
  const room = length - prefix.length
  if (unit === 'code points') return `${prefix}${'n'.repeat(room)}`
  return `${prefix}${OUTSIDE_BMP.repeat(Math.floor(room / 4))}${'n'.repeat(room % 4)}`
}

interface EdgePet {
  sent: { name: string; categoryId: bigint; status: typeof EDGE_STATUS }
  /** What the name case is, for the first eight. */
  nameCase?: string
  /** Which hazardous characters the name holds, for the next ones. */
  hazard?: string
  post: OperationExchange
  id?: bigint
  read?: EventualRead
}

interface EdgePets {
  pets: EdgePet[]
  /** The list of EDGE_STATUS, read until every created pet is in it (or the window closed); undefined when no pet was created. */
  list?: EventualRead
}

/** The edge pets of the run: created at once, each read back by GET, and the list of their status read until it shows them all. */
function edgePets(check: Check): Promise<EdgePets> {
  return check.once('createPet:edge-pets', async (api) => {
    const configured = check.context.categoryIds.length > 0
    // One pet per edge, and more should the names outnumber the edges (then edges repeat): no name row is left out.
    const count = Math.max(INT64_EDGES.length, NAME_LENGTHS.length + HAZARDOUS_NAMES.length)
    const edges = Array.from({ length: count }, (_, index) => INT64_EDGES[index % INT64_EDGES.length] as bigint)
    const sent = edges.map((edge, index) => {
      const nameCase = NAME_LENGTHS[index]
      const hazard = HAZARDOUS_NAMES[index - NAME_LENGTHS.length]
      const prefix = check.petName(`edge-${index}-`)
      const name = nameCase ? nameOfLength(prefix, nameCase.length, nameCase.unit) : hazard ? hazard.spell(prefix) : prefix
      return {
        sent: { name, categoryId: configured ? categoryId(check) : edge, status: EDGE_STATUS } as const,
        ...(nameCase ? { nameCase: nameCase.label } : {}),
        ...(hazard ? { hazard: hazard.label } : {}),
      }
    })
    const posts = await Promise.all(sent.map((pet) => api.createPet({ json: pet.sent })))
    const pets: EdgePet[] = sent.map((pet, index) => {
      const post = posts[index] as OperationExchange
      const id = post.response?.status === 201 ? integerField(responseObject(post)?.id) : undefined
      return { ...pet, post, ...(id !== undefined ? { id } : {}) }
    })
    const created = pets.filter((pet) => pet.id !== undefined)
    if (created.length === 0) return { pets }
    const reads = await Promise.all(
      created.map((pet) =>
        check.eventually(
          `GET /pets/${pet.id}`,
          (reader) => reader.getPet(pet.id as bigint),
          (exchange) => exchange.response?.status === 200,
          api,
        ),
      ),
    )
    created.forEach((pet, index) => {
      pet.read = reads[index] as EventualRead
    })
    const list = await check.eventually(
      `GET /pets?status=${EDGE_STATUS}&limit=100 showing the ${created.length} edge pets`,
      (reader) => reader.listPets({ status: EDGE_STATUS, limit: 100 }),
      (exchange) => {
        const listed = listedPets(exchange)
        return listed.length >= 100 || created.every((pet) => listed.some((item) => item.id === pet.id))
      },
      api,
    )
    return { pets, list }
  })
}

/** The item of a 200 list answer with that id, as the target wrote it. */
function listItem(exchange: OperationExchange, id: bigint): { [key: string]: JsonValue } | undefined {
  const parsed = responseJson(exchange)
  if (exchange.response?.status !== 200 || !parsed.ok || !Array.isArray(parsed.value)) return undefined
  return parsed.value.find((item): item is { [key: string]: JsonValue } => isJsonObject(item) && integerField(item.id) === id)
}

/** Each view of each pet `pick` chooses, compared on one field with what was sent: the 201, the GET, the list (when it shows the whole status). */
async function judgeViews(check: Check, pick: (pet: EdgePet) => { field: 'name' | 'categoryId'; what: string } | undefined): Promise<void> {
  check.requireWrites()
  requireGetPetInService(check)
  const { pets, list } = await edgePets(check)
  const judged = pets.flatMap((pet) => {
    const picked = pick(pet)
    return picked ? [{ pet, ...picked }] : []
  })
  check.adopt(judged.flatMap(({ pet }) => [pet.post, ...(pet.read ? [pet.read.exchange] : [])]))
  if (list) check.adopt([list.exchange])
  const listed = list ? listedPets(list.exchange) : []
  const listComplete = list?.exchange.response?.status === 200 && listed.length < 100
  for (const { pet, field, what } of judged) {
    const expected = { [field]: pet.sent[field] }
    check.expect.status(pet.post, 201, `POST /pets (${what})`)
    const views: Array<[string, OperationExchange, { [key: string]: JsonValue } | undefined]> = [[`the 201 answer`, pet.post, responseObject(pet.post)]]
    if (pet.read) {
      check.expect.that(pet.read.found, `GET /pets/${pet.id} (${what}) did not answer 200 ${windowWords(pet.read)}`, { exchange: pet.read.exchange, expected: '200 with the pet' })
      views.push([`GET /pets/${pet.id}`, pet.read.exchange, responseObject(pet.read.exchange)])
    }
    if (listComplete && list) {
      const shown = listItem(list.exchange, pet.id as bigint)
      check.expect.that(shown !== undefined, `pet ${pet.id} (${what}) is not in GET /pets?status=${EDGE_STATUS}&limit=100 ${windowWords(list)}`, {
        exchange: list.exchange,
        expected: `pet ${pet.id} in the list`,
      })
      views.push([`GET /pets?status=${EDGE_STATUS}&limit=100`, list.exchange, shown])
    }
    for (const [where, exchange, view] of views) {
      const differences = view ? petDifferences(expected, view) : [`${field}: the answer holds no pet`]
      check.expect.that(differences.length === 0, `${where} shows pet ${pet.id ?? ''} (${what}) otherwise than it was sent: ${differences.join('; ')}`, {
        exchange,
        expected: `${field} ${String(pet.sent[field]).length > 80 ? `of ${[...String(pet.sent[field])].length} code points` : String(pet.sent[field])}`,
      })
    }
  }
  if (!listComplete)
    check.observe(`the list of status ${EDGE_STATUS} holds 100 pets or more (or was not answered 200): the pets were compared in the 201 answer and GET /pets/{id} only`)
}

describe('createPet: the edges real services get wrong', () => {
  test('[createPet/integer-edges-round-trip] a categoryId at each edge of int32, uint32, a double and int64 reads back digit for digit in the 201, GET /pets/{id} and the list', async ({
    check,
  }) => {
    check.require(check.context.categoryIds.length === 0, 'category ids are restricted in configuration (--category-ids): the int64 edges are not sent')
    await judgeViews(check, (pet) => ({ field: 'categoryId', what: `categoryId ${pet.sent.categoryId}` }))
  })

  test('[createPet/long-names-kept] names of 255, 256, 1,024 and 4,096 code points, and of as many UTF-8 bytes, are stored and shown whole in every view', async ({ check }) => {
    await judgeViews(check, (pet) => (pet.nameCase ? { field: 'name', what: `a name of ${pet.nameCase}` } : undefined))
  })

  test('[createPet/hazardous-names] names holding NUL, every C0 and C1 control, escape look-alikes, markup and quotes read back exactly in every view', async ({ check }) => {
    await judgeViews(check, (pet) => (pet.hazard ? { field: 'name', what: `a name holding ${pet.hazard}` } : undefined))
  })
})
