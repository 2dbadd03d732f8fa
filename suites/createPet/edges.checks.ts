/**
 * The edges real services get wrong (policy §2, integer edges and name lengths): a categoryId at each edge of
 * the narrower integer types a service may wrongly store an int64 in, and names at the lengths where storage
 * commonly cuts, counted in code points and in UTF-8 bytes. Every full run sends each, whatever the seed, and
 * reads each back in every view: the 201 answer, GET /pets/{id}, and the list of its status. One pet per edge;
 * the first eight carry the long names and the next ones the input catalogue's hazardous names (policy §2,
 * characters storage changes), so the three rules cost one set of creates. A pet that fails is sent once more
 * with its other input plain, and charged to a rule only when it fails alone too.
 */
import { describeAnswer, lostToDroppedConnection } from '../../lib/checks/assertions.js'
import type { Check } from '../../lib/checks/check.js'
import { petDifferences } from '../../lib/checks/differences.js'
import { describe, test } from '../../lib/checks/registry.js'
import { type EventualRead, windowWords } from '../../lib/data/eventual-reads.js'
import { INT64_EDGES } from '../../lib/data/new-pet-arbitraries.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { integerField, isJsonObject, type JsonValue, stringifyJson } from '../../lib/http/json.js'
import { responseJson, responseObject } from '../../lib/http/response-json.js'
import { inputClass } from '../../lib/spec/input-catalogue.js'
import type { OperationExchange, PetstoreApi } from '../../lib/spec/petstore-api.js'
import { categoryId, requireGetPetInService } from '../fixtures.js'
import { plainCreatePasses } from './created-pets.js'

/** A character outside the Basic Multilingual Plane: 4 bytes in UTF-8, two UTF-16 units, one code point. */
const OUTSIDE_BMP = '🐾'

/** Lengths where storage commonly cuts (VARCHAR(255), 1 KiB, 4 KiB), counted in code points, then in UTF-8 bytes. */
const NAME_LENGTHS = [255, 256, 1_024, 4_096].flatMap((length) => [
  { label: `${length} code points`, length, unit: 'code points' as const },
  { label: `${length} UTF-8 bytes, mostly characters outside the BMP`, length, unit: 'bytes' as const },
])

/**
 * The largest body every service accepts (policy, name lengths: a body of up to 64 KiB holding a valid NewPet is
 * accepted): 65,536 bytes exactly, its name filling what the other members leave. A limit one byte short of it
 * (65,535, as a `maxBytes` written by hand) shows only at that size. Read back by GET only, so no list page carries it.
 */
const BODY_OF_64_KIB = 64 * 1024

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

/** What one edge pet varies from the plain create: its categoryId, and its name (a long or hazardous one, or the plain name). */
interface EdgePet {
  index: number
  sent: { name: string; categoryId: bigint; status: typeof EDGE_STATUS }
  /** What the name case is, for the first eight. */
  nameCase?: string
  /** Which hazardous characters the name holds, for the next ones. */
  hazard?: string
  post: OperationExchange
  id?: bigint
  read?: EventualRead
  /** The list of EDGE_STATUS read until it showed this pet (or the window closed). */
  list?: EventualRead
}

/** The name of edge pet `index` (its long or hazardous name, or the plain one), after `prefix`. */
function edgeName(prefix: string, index: number): { name: string; nameCase?: string; hazard?: string } {
  const nameCase = NAME_LENGTHS[index]
  if (nameCase) return { name: nameOfLength(prefix, nameCase.length, nameCase.unit), nameCase: nameCase.label }
  const hazard = HAZARDOUS_NAMES[index - NAME_LENGTHS.length]
  if (hazard) return { name: hazard.spell(prefix), hazard: hazard.label }
  return { name: prefix }
}

/** Creates `sent` at once, then reads each created pet back by GET and in the list of EDGE_STATUS (one list read for them all). */
async function createAndRead(check: Check, api: PetstoreApi, sent: ReadonlyArray<Omit<EdgePet, 'post'>>): Promise<EdgePet[]> {
  const posts = await Promise.all(sent.map((pet) => api.createPet({ json: pet.sent })))
  const pets: EdgePet[] = sent.map((pet, index) => {
    const post = posts[index] as OperationExchange
    const id = post.response?.status === 201 ? integerField(responseObject(post)?.id) : undefined
    return { ...pet, post, ...(id !== undefined ? { id } : {}) }
  })
  const created = pets.filter((pet) => pet.id !== undefined)
  if (created.length === 0) return pets
  const reads = await Promise.all(
    created.map((pet) =>
      check.eventually(
        `GET /pets/${pet.id}`,
        (reader) => reader.getPet(pet.id as bigint),
        (exchange) => exchange.response?.status === 200,
        api,
        { pets: [pet.id as bigint] },
      ),
    ),
  )
  const list = await check.eventually(
    `GET /pets?status=${EDGE_STATUS}&limit=100 showing ${created.length === 1 ? `pet ${created[0]?.id}` : `the ${created.length} edge pets`}`,
    (reader) => reader.listPets({ status: EDGE_STATUS, limit: 100 }),
    (exchange) => {
      const listed = listedPets(exchange)
      return exchange.response?.status !== 200 || listed.length >= 100 || created.every((pet) => listed.some((item) => item.id === pet.id))
    },
    api,
    { pets: created.map((pet) => pet.id as bigint) },
  )
  created.forEach((pet, index) => {
    pet.read = reads[index] as EventualRead
    pet.list = list
  })
  return pets
}

/** The edge pets of the run: created at once, each read back by GET, and the list of their status read until it shows them all. */
function edgePets(check: Check): Promise<EdgePet[]> {
  return check.once('createPet:edge-pets', async (api) => {
    const configured = check.context.categoryIds.length > 0
    // One pet per edge, and more should the names outnumber the edges (then edges repeat): no name row is left out.
    const count = Math.max(INT64_EDGES.length, NAME_LENGTHS.length + HAZARDOUS_NAMES.length)
    const sent = Array.from({ length: count }, (_, index) => {
      const edge = INT64_EDGES[index % INT64_EDGES.length] as bigint
      const { name, ...names } = edgeName(check.petName(`edge-${index}-`), index)
      return { index, sent: { name, categoryId: configured ? categoryId(check) : edge, status: EDGE_STATUS } as const, ...names }
    })
    return createAndRead(check, api, sent)
  })
}

/** What one rule reads of an edge pet: the field it compares, the pet in words, and whether the pet varies anything else. */
interface Reading {
  field: 'name' | 'categoryId'
  what: string
  /** The pet as it is with every other input plain (one extra create), when the pet varies another input too. */
  alone?: (check: Check, pet: EdgePet) => Omit<EdgePet, 'post'>
}

interface Problem {
  /** The pet, in words: what it varies. */
  what: string
  message: string
  exchange: OperationExchange
  expected: string
}

/** The items of a 200 list answer with that id, as the target wrote it. */
function listItem(exchange: OperationExchange, id: bigint): { [key: string]: JsonValue } | undefined {
  const parsed = responseJson(exchange)
  if (exchange.response?.status !== 200 || !parsed.ok || !Array.isArray(parsed.value)) return undefined
  return parsed.value.find((item): item is { [key: string]: JsonValue } => isJsonObject(item) && integerField(item.id) === id)
}

/** What is wrong with `pet` on `field` in each view: the 201 answer, GET /pets/{id}, and the list of its status when that list is complete. */
function problemsOf(pet: EdgePet, field: Reading['field'], what: string): Problem[] {
  const sentValue = pet.sent[field]
  const expected = `${field} ${String(sentValue).length > 80 ? `of ${[...String(sentValue)].length} code points` : String(sentValue)}`
  if (pet.post.response?.status !== 201 || pet.id === undefined) {
    return [{ what, message: `POST /pets (${what}) was answered ${describeAnswer(pet.post)}`, exchange: pet.post, expected: 'status 201 with a Pet carrying an id' }]
  }
  const problems: Problem[] = []
  const views: Array<[string, OperationExchange, { [key: string]: JsonValue } | undefined]> = [['the 201 answer', pet.post, responseObject(pet.post)]]
  if (pet.read) {
    if (pet.read.found) views.push([`GET /pets/${pet.id}`, pet.read.exchange, responseObject(pet.read.exchange)])
    else problems.push({ what, message: `GET /pets/${pet.id} (${what}) did not answer 200 ${windowWords(pet.read)}`, exchange: pet.read.exchange, expected: '200 with the pet' })
  }
  const list = pet.list
  if (list && list.exchange.response?.status === 200 && listedPets(list.exchange).length < 100) {
    const shown = listItem(list.exchange, pet.id)
    if (shown) views.push([`GET /pets?status=${EDGE_STATUS}&limit=100`, list.exchange, shown])
    else
      problems.push({
        what,
        message: `pet ${pet.id} (${what}) is not in GET /pets?status=${EDGE_STATUS}&limit=100 ${windowWords(list)}`,
        exchange: list.exchange,
        expected: `pet ${pet.id} in the list`,
      })
  }
  for (const [where, exchange, view] of views) {
    const differences = view ? petDifferences({ [field]: sentValue }, view) : [`${field}: the answer holds no pet`]
    if (differences.length > 0) problems.push({ what, message: `${where} shows pet ${pet.id} (${what}) otherwise than it was sent: ${differences.join('; ')}`, exchange, expected })
  }
  return problems
}

/**
 * Each edge pet `pick` chooses, judged on one field in every view. An edge pet varies two inputs at once (its categoryId
 * and its name), to cost one set of creates: when it fails and varies another input too, it is sent once more with
 * that input plain, and the rule is charged only when the pet fails alone as well (policy: one variable per exchange).
 */
async function judgeViews(check: Check, pick: (pet: EdgePet) => Reading | undefined): Promise<void> {
  check.requireWrites()
  requireGetPetInService(check)
  const pets = await edgePets(check)
  const charged: Problem[] = []
  let judged = 0
  for (const pet of pets) {
    const reading = pick(pet)
    if (!reading) continue
    if (lostToDroppedConnection(pet.post)) {
      // The connection's doing, judged by responses/close-announced; the create is never sent twice unless the lists showed it was not processed.
      check.observe(`POST /pets (${reading.what}) got no answer: ${pet.post.failure?.message}`)
      continue
    }
    judged += 1
    check.adopt([pet.post, ...(pet.read ? [pet.read.exchange] : []), ...(pet.list ? [pet.list.exchange] : [])])
    const problems = problemsOf(pet, reading.field, reading.what)
    if (problems.length === 0 || !reading.alone) {
      charged.push(...problems)
      continue
    }
    const alone = reading.alone(check, pet)
    const isolated = (await check.once(`createPet:edge-alone:${pet.index}:${reading.field}`, (api) => createAndRead(check, api, [alone])))[0] as EdgePet
    const aloneWhat = `${reading.what}, isolated: ${reading.field === 'name' ? `the same name with categoryId ${alone.sent.categoryId}` : `categoryId ${alone.sent.categoryId} with a plain name`}`
    check.adopt([isolated.post, ...(isolated.read ? [isolated.read.exchange] : []), ...(isolated.list ? [isolated.list.exchange] : [])])
    if (lostToDroppedConnection(isolated.post)) {
      check.observe(`pet ${pet.id ?? `of POST ${pet.index}`} (${reading.what}) failed, and its isolation got no answer: ${isolated.post.failure?.message}; not charged`)
      continue
    }
    const aloneProblems = problemsOf(isolated, reading.field, aloneWhat)
    if (aloneProblems.length > 0) charged.push(...aloneProblems)
    else
      check.observe(
        `pet ${pet.id ?? `of POST ${pet.index}`} (${reading.what}) failed (${problems[0]?.message}), but passes with every other input plain (pet ${isolated.id}): not charged to this rule`,
      )
  }
  const lost = pets.find((pet) => pick(pet) && lostToDroppedConnection(pet.post))?.post.failure?.message
  check.require(judged > 0, `no edge pet this rule judges got an answer to its create${lost ? ` (${lost})` : ''}`)
  const [first] = charged
  const more = charged.slice(1, 4).map((problem) => problem.message)
  // Each charged pet differs from the plain create in the rule's own input alone (isolated, or never varied otherwise): when the plain create passes, that input is the cause.
  const field = first ? pick(pets.find((pet) => pick(pet)) as EdgePet)?.field : undefined
  const cause =
    first && field && (await plainCreatePasses(check))
      ? { input: field, words: `${first.what}: fails where the plain create, which differs from it in its ${field} alone, passes` }
      : undefined
  check.expect.that(
    first === undefined,
    `${first?.message}${more.length > 0 ? ` (and ${charged.length - 1} more: ${more.join('; ')})` : ''}`,
    first ? { exchange: first.exchange, expected: first.expected, actual: describeAnswer(first.exchange), ...(cause ? { cause } : {}) } : {},
  )
  if (pets.some((pet) => pet.list && !(pet.list.exchange.response?.status === 200 && listedPets(pet.list.exchange).length < 100))) {
    check.observe(`the list of status ${EDGE_STATUS} holds 100 pets or more (or was not answered 200): the pets were compared in the 201 answer and GET /pets/{id} only`)
  }
}

/** The isolation of a name: the same name (after another prefix) with the plain categoryId, when the pet carried an edge. */
function nameAlone(check: Check): Pick<Reading, 'alone'> {
  if (check.context.categoryIds.length > 0) return {}
  return {
    alone: (c, pet) => ({ index: pet.index, sent: { ...pet.sent, name: edgeName(c.petName(`edge-${pet.index}-alone-`), pet.index).name, categoryId: categoryId(c) } }),
  }
}

describe('createPet: the edges real services get wrong', () => {
  test('[createPet/integer-edges-round-trip] a categoryId at each edge of int32, uint32, a double and int64 reads back digit for digit in the 201, GET /pets/{id} and the list', async ({
    check,
  }) => {
    check.require(check.context.categoryIds.length === 0, 'category ids are restricted in configuration (--category-ids): the int64 edges are not sent')
    await judgeViews(check, (pet) => ({
      field: 'categoryId',
      what: `categoryId ${pet.sent.categoryId}`,
      ...(pet.nameCase || pet.hazard ? { alone: (c: Check, edge: EdgePet) => ({ index: edge.index, sent: { ...edge.sent, name: c.petName(`edge-${edge.index}-alone-`) } }) } : {}),
    }))
  })

  test('[createPet/long-names-kept] names of 255, 256, 1,024 and 4,096 code points, and of as many UTF-8 bytes, are stored and shown whole in every view', async ({ check }) => {
    await judgeViews(check, (pet) => (pet.nameCase ? { field: 'name', what: `a name of ${pet.nameCase}`, ...nameAlone(check) } : undefined))
  })

  test('[createPet/long-names-kept] a NewPet body of exactly 64 KiB (a name of about 65,490 UTF-8 bytes) is accepted, and GET /pets/{id} shows the name whole', async ({
    check,
  }) => {
    check.requireWrites()
    requireGetPetInService(check)
    const others = { categoryId: categoryId(check), status: EDGE_STATUS }
    const room = BODY_OF_64_KIB - Buffer.byteLength(stringifyJson({ name: '', ...others }))
    const name = nameOfLength(check.petName('64-kib-'), room, 'bytes')
    const sent = { name, ...others }
    const bytes = Buffer.byteLength(stringifyJson(sent))
    if (bytes !== BODY_OF_64_KIB) throw new Error(`the body meant to be 64 KiB is ${bytes} bytes`)
    const post = await check.api.createPet({ json: sent })
    if (lostToDroppedConnection(post)) check.inconclusive(`the create of ${bytes} bytes was lost on a connection the target closed`)
    // The policy's name lengths row says this body is accepted: a 413 (or any refusal) to it is this rule's failure.
    check.expect.status(post, 201, `POST /pets with a body of ${bytes} bytes (a valid NewPet of 64 KiB, which every service accepts)`)
    const created = check.expect.petObject(post)
    check.expect.that(
      created.name === name,
      `the 201 answer to a body of ${bytes} bytes shows a name of ${Buffer.byteLength(String(created.name))} bytes, not the ${Buffer.byteLength(name)} sent`,
      {
        exchange: post,
        expected: `a name of ${Buffer.byteLength(name)} UTF-8 bytes`,
      },
    )
    const id = integerField(created.id)
    check.require(id !== undefined, 'the 201 answer carries no integer id to read the pet back by')
    const read = await check.eventually(
      `GET /pets/${id}`,
      (reader) => reader.getPet(id as bigint),
      (exchange) => exchange.response?.status === 200,
      check.api,
      { pets: [id as bigint] },
    )
    check.expect.status(read.exchange, 200, `GET /pets/${id} of the pet created with a body of ${bytes} bytes`)
    const shown = check.expect.petObject(read.exchange)
    check.expect.that(shown.name === name, `GET /pets/${id} shows a name of ${Buffer.byteLength(String(shown.name))} bytes, not the ${Buffer.byteLength(name)} sent`, {
      exchange: read.exchange,
      expected: `a name of ${Buffer.byteLength(name)} UTF-8 bytes`,
    })
  })

  test('[createPet/hazardous-names] names holding NUL, every C0 and C1 control, escape look-alikes, markup and quotes read back exactly in every view', async ({ check }) => {
    await judgeViews(check, (pet) => (pet.hazard ? { field: 'name', what: `a name holding ${pet.hazard}`, ...nameAlone(check) } : undefined))
  })
})
