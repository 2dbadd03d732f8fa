/**
 * The target as a sequence sees it: each command's requests, and every answer judged against the model
 * (policy §2). One pet reads the same everywhere (the 201 answer, GET /pets/{id}, every list item with its id)
 * and is in the list of the status it shows; every list keeps rules 1–3 of listPets together; a created pet
 * is found within the consistency window; ids are unique; an id no pet holds is answered 404. A difference is
 * judged only once it has outlasted the window. Nothing here throws for a conformance failure: each one is
 * recorded against its requirement, and the sequence goes on.
 */
import { describeAnswer, failureOf } from '../../lib/checks/assertions.js'
import { petDifferences, viewDifferences } from '../../lib/checks/differences.js'
import type { SequenceOutcome } from '../../lib/data/command-sequences.js'
import { type EventualRead, windowWords } from '../../lib/data/eventual-reads.js'
import type { CaseFailure } from '../../lib/data/generated-cases.js'
import { responseJson, responseObject } from '../../lib/http/client.js'
import { integerField, isJsonObject, type JsonValue, stringifyJson } from '../../lib/http/json.js'
import { type OperationExchange, PET_STATUSES, type PetStatus, type PetstoreApi } from '../../lib/spec/petstore-api.js'
import { CLIENT_ERROR_OR_OK } from '../fixtures.js'
import type { KnownPet, PetFields, StoreModel, ViewSource } from './store-model.js'

/** The requirements a sequence judges, each on every answer that bears on it. */
export const SEQUENCE_REQUIREMENTS = [
  'views/one-pet-reads-the-same',
  'listPets/returns-pets',
  'listPets/status-filter-matches',
  'listPets/limit-default-20',
  'listPets/limit-caps-size',
  'listPets/limit-max-100',
  'listPets/filter-and-default-limit',
  'listPets/filter-and-limit',
  'listPets/limit-out-of-range',
  'createPet/returns-201-pet',
  'createPet/echoes-fields',
  'createPet/ids-unique',
  'createPet/round-trip-get',
  'createPet/created-pet-listed',
  'getPet/returns-pet',
  'getPet/unknown-id-404',
] as const

export type SequenceRequirement = (typeof SEQUENCE_REQUIREMENTS)[number]

/** A list request of a sequence: the policy's combinations of status and limit, out-of-range limits included. */
export interface ListRequest {
  status?: PetStatus
  limit?: number
}

/** A pet a sequence creates: what it sent, field by field and as the exact body text. */
export interface SentPet {
  name: string
  categoryId: bigint
  status?: PetStatus
  body: string
}

export interface TargetOptions {
  /** An API that passes every exchange it sends to `record`. */
  api: (record: (exchange: OperationExchange) => void) => PetstoreApi
  /** Read until `found` holds or the consistency window closes (policy §2), as every read of a created pet is. */
  eventually: (what: string, read: () => Promise<OperationExchange>, found: (exchange: OperationExchange) => boolean) => Promise<EventualRead>
  /** Pets the store was known to hold before the sequences (the survey), so a list's bound is known to be evidence. */
  surveyed: ReadonlyMap<bigint, { status: JsonValue | undefined }>
  /** False from getPet's removal date: the sequences then send no GET /pets/{id}. */
  getPetInService: boolean
  /** Most requests one sequence sends on a target that shows every pet at once (re-reads within the window come on top). */
  requestCap: number
  /** Put before every generated name: the run's prefix and the sequence's number, so each pet tells which sequence made it (policy §3). */
  namePrefix: string
}

/** Requests one sequence may send: two per command (a create of two, or a create and its read in the sweep), and the sweep's lists. */
export function requestCapOf(length: number): number {
  return 2 * length + 6
}

export function listWords(query: ListRequest): string {
  const parts = [query.status !== undefined ? `status=${query.status}` : '', query.limit !== undefined ? `limit=${query.limit}` : ''].filter(Boolean)
  return `GET /pets${parts.length ? `?${parts.join('&')}` : ''}`
}

/** The items of a 200 list answer, or undefined when it is not one. */
function listItems(exchange: OperationExchange): PetFields[] | undefined {
  if (exchange.response?.status !== 200) return undefined
  const parsed = responseJson(exchange)
  return parsed.ok && Array.isArray(parsed.value) && parsed.value.every(isJsonObject) ? (parsed.value as PetFields[]) : undefined
}

/** The pet of that very id in a 200 answer of GET /pets/{id}. */
function petWithId(exchange: OperationExchange, id: bigint): PetFields | undefined {
  const pet = exchange.response?.status === 200 ? responseObject(exchange) : undefined
  return pet && integerField(pet.id) === id ? pet : undefined
}

/** The fields of the Animal schema, as the report quotes a view. */
function animalText(view: PetFields | undefined): string {
  if (!view) return '(not in the answer)'
  const { id, name, categoryId, status } = view
  return stringifyJson({ id, name, categoryId, ...(status !== undefined ? { status } : {}) } as JsonValue)
}

/** Which rule bounds the size of a list: the default page, a limit, or both with a filter. */
function sizeRequirement(query: ListRequest): SequenceRequirement {
  if (query.status !== undefined) return query.limit === undefined ? 'listPets/filter-and-default-limit' : 'listPets/filter-and-limit'
  if (query.limit === undefined) return 'listPets/limit-default-20'
  return query.limit === 100 ? 'listPets/limit-max-100' : 'listPets/limit-caps-size'
}

/** A created pet's place in its status list is created-pet-listed when the status was sent, else the views rule. */
function membershipRequirement(pet: KnownPet): SequenceRequirement {
  return pet.created?.sentStatus !== undefined ? 'createPet/created-pet-listed' : 'views/one-pet-reads-the-same'
}

export class SequenceTarget {
  readonly outcome: SequenceOutcome<SequenceRequirement> = { decided: new Set(), failures: {}, exchanges: [], steps: [], notes: [] }
  readonly api: PetstoreApi

  constructor(private readonly options: TargetOptions) {
    this.api = options.api((exchange) => this.outcome.exchanges.push(exchange))
  }

  get getPetInService(): boolean {
    return this.options.getPetInService
  }

  /**
   * Whether a command that sends `requests` and creates `creates` pets still fits the sequence's request cap,
   * keeping in reserve what the sweep will send (a GET per created pet, a list per status).
   */
  affords(model: StoreModel, requests: number, creates = 0): boolean {
    return !this.brokenTransport && this.outcome.exchanges.length + requests + model.created.length + creates + PET_STATUSES.length <= this.options.requestCap
  }

  get namePrefix(): string {
    return this.options.namePrefix
  }

  /**
   * A request got no answer at all (a timeout, a reset, after its retries): the rest of the sequence would only
   * repeat that, so it stops there; the failure is already recorded by the command that saw it.
   */
  private get brokenTransport(): boolean {
    return this.outcome.exchanges.some((exchange) => exchange.response === undefined)
  }

  /** A command the cap leaves out, as the steps show it. */
  skip(command: string): void {
    const why = this.brokenTransport ? 'an earlier request of the sequence got no answer' : `the sequence's cap of ${this.options.requestCap} requests is reached`
    this.outcome.steps.push(`${command} (not sent: ${why})`)
  }

  /** `step 3`: where an exchange stands in the sequence, as the report numbers it. */
  private at(exchange: OperationExchange): string {
    return `step ${this.outcome.exchanges.indexOf(exchange) + 1}`
  }

  private decide(requirement: SequenceRequirement): void {
    this.outcome.decided.add(requirement)
  }

  /** The first failure of each requirement is kept; a failure also decides it. */
  private fail(requirement: SequenceRequirement, failure: CaseFailure): void {
    this.decide(requirement)
    this.outcome.failures[requirement] ??= failure
  }

  /** Create pets, one or several at once (overlapping in time), and judge each answer. */
  async create(model: StoreModel, pets: readonly SentPet[]): Promise<void> {
    const posts = await Promise.all(pets.map((pet) => this.api.createPet({ raw: pet.body })))
    posts.forEach((post, index) => {
      const pet = pets[index] as SentPet
      const words = `POST /pets (${this.at(post)})`
      this.decide('createPet/returns-201-pet')
      const body = post.response?.status === 201 ? responseObject(post) : undefined
      const id = body ? integerField(body.id) : undefined
      if (!body || id === undefined) {
        this.fail('createPet/returns-201-pet', {
          message: `${words}, a valid NewPet, was not answered 201 with a Pet carrying an integer id`,
          expected: '201 with a Pet',
          actual: describeAnswer(post),
          exchange: post,
        })
        return
      }
      this.decide('createPet/echoes-fields')
      const echoed = petDifferences({ name: pet.name, categoryId: pet.categoryId, ...(pet.status !== undefined ? { status: pet.status } : {}) }, body)
      if (echoed.length > 0) {
        this.fail('createPet/echoes-fields', {
          message: `${words} does not echo the body sent: ${echoed.join('; ')}`,
          expected: pet.body,
          actual: describeAnswer(post),
          exchange: post,
        })
      }
      // The model already holds the pets created before this answer, those of this same batch included.
      const holder = model.pets.get(id)?.source.words
      if (holder) {
        this.fail('createPet/ids-unique', {
          message: `${words} answered id ${id}, already the id of a pet (${holder})`,
          expected: 'an id no other pet holds',
          actual: `id ${id}`,
          exchange: post,
        })
      } else if (model.pets.size > 0) {
        this.decide('createPet/ids-unique')
      }
      const source: ViewSource = { words: `the 201 answer of ${this.at(post)}` }
      model.pets.set(id, { id, view: body, source, created: { sentStatus: pet.status } })
      if (!model.created.includes(id)) model.created.push(id)
    })
  }

  /**
   * GET /pets/{id} of a pet the model holds: found within the window, and the same as every other view of it.
   * Within the commands a pet the sequence created is read once: one not shown yet is left to the sweep, which
   * reads every created pet within the window, all at once, so a store that lags costs one wait per sequence.
   */
  async getKnown(model: StoreModel, id: bigint, patient = false): Promise<void> {
    const known = model.pets.get(id)
    if (!known) return
    const requirement: SequenceRequirement = known.created ? 'createPet/round-trip-get' : 'getPet/returns-pet'
    if (known.created && !patient) {
      const exchange = await this.api.getPet(id)
      const pet = petWithId(exchange, id)
      if (!pet) return
      this.decide(requirement)
      await this.observe(model, pet, this.getSource(id, exchange))
      return
    }
    const read = await this.options.eventually(
      `GET /pets/${id}`,
      () => this.api.getPet(id),
      (exchange) => petWithId(exchange, id) !== undefined,
    )
    this.decide(requirement)
    const pet = petWithId(read.exchange, id)
    if (!pet) {
      this.fail(requirement, {
        message: `GET /pets/${id} (${this.at(read.exchange)}) did not answer 200 with pet ${id} ${windowWords(read)}; the pet is known from ${known.source.words}`,
        expected: `200 with pet ${id}`,
        actual: describeAnswer(read.exchange),
        exchange: read.exchange,
      })
      return
    }
    await this.observe(model, pet, this.getSource(id, read.exchange))
  }

  /** GET /pets/{id} of an id the model knows no pet to hold: 404 with an Error body, unless a pet of that very id turns up. */
  async getUnknown(model: StoreModel, id: bigint): Promise<void> {
    const exchange = await this.api.getPet(id)
    const pet = petWithId(exchange, id)
    if (pet) {
      // The store holds a pet of that id after all: from now on the model knows it.
      await this.observe(model, pet, this.getSource(id, exchange))
      return
    }
    this.decide('getPet/unknown-id-404')
    const notFound = failureOf(exchange, (expect) => expect.errorAnswer(exchange, 404, `GET /pets/${id} (${this.at(exchange)}), an id no pet is known to hold,`))
    if (notFound) this.fail('getPet/unknown-id-404', notFound)
  }

  /** A list of the policy's combinations, judged on rules 1–3 together, on every pet it shows, and on the pets it must show. */
  async list(model: StoreModel, query: ListRequest, patient = false): Promise<void> {
    const exchange = await this.api.listPets(query)
    const words = `${listWords(query)} (${this.at(exchange)})`
    const items = listItems(exchange)
    const inRange = query.limit === undefined || (query.limit >= 1 && query.limit <= 100)
    const bound = inRange ? (query.limit ?? 20) : 100
    const sizeRule = inRange ? sizeRequirement(query) : 'listPets/limit-out-of-range'
    this.decide(inRange ? 'listPets/returns-pets' : 'listPets/limit-out-of-range')
    if (!items) {
      if (inRange) {
        this.fail('listPets/returns-pets', {
          message: `${words} was not answered 200 with a JSON array of pets`,
          expected: '200 with a Pets body',
          actual: describeAnswer(exchange),
          exchange,
        })
        return
      }
      const refused = failureOf(exchange, (expect) => expect.errorAnswer(exchange, CLIENT_ERROR_OR_OK.slice(1), words))
      if (refused) this.fail('listPets/limit-out-of-range', refused)
      return
    }
    if (items.length > bound) {
      this.fail(sizeRule, { message: `${words} returned ${items.length} pets, more than ${bound}`, expected: `at most ${bound} pets`, actual: `${items.length} pets`, exchange })
    } else if (this.knownCount(model, query.status) > bound) {
      this.decide(sizeRule)
    }
    if (query.status !== undefined) {
      const stray = items.find((item) => item.status !== query.status)
      if (stray) {
        this.fail('listPets/status-filter-matches', {
          message: `${words} lists pet ${stringifyJson(stray.id)} of status ${stringifyJson(stray.status)}`,
          expected: `only pets of status ${query.status}`,
          actual: animalText(stray),
          exchange,
        })
      } else if (items.length > 0) {
        this.decide('listPets/status-filter-matches')
      }
    }
    for (const item of items) {
      const id = integerField(item.id)
      if (id !== undefined) await this.observe(model, item, this.listSource(query, id, words))
    }
    if (query.status !== undefined && query.limit === 100 && items.length < 100) await this.judgeMembership(model, query.status, exchange, patient)
  }

  /** After the commands: every created pet read by GET, and every status they show listed, so each is seen in every view. */
  async sweep(model: StoreModel): Promise<void> {
    if (this.brokenTransport) return
    // Reads of different pets go out together, so a lagging store costs one wait, not one per pet.
    if (this.getPetInService) await Promise.all(model.created.map((id) => this.getKnown(model, id, true)))
    const shown = new Set(model.created.map((id) => model.pets.get(id)?.view.status))
    await Promise.all(PET_STATUSES.filter((status) => shown.has(status)).map((status) => this.list(model, { status, limit: 100 }, true)))
  }

  /** Pets of that status (or all) the store is known to hold: the survey's and the model's together. */
  private knownCount(model: StoreModel, status: PetStatus | undefined): number {
    const ids = new Set<bigint>()
    for (const [id, pet] of this.options.surveyed) if (status === undefined || pet.status === status) ids.add(id)
    for (const pet of model.pets.values()) if (status === undefined || pet.view.status === status) ids.add(pet.id)
    return ids.size
  }

  private getSource(id: bigint, exchange: OperationExchange): ViewSource {
    return {
      words: `GET /pets/${id} (${this.at(exchange)})`,
      reread: async () => {
        const again = await this.api.getPet(id)
        return { exchange: again, view: petWithId(again, id) }
      },
    }
  }

  private listSource(query: ListRequest, id: bigint, words: string): ViewSource {
    return {
      words,
      reread: async () => {
        const again = await this.api.listPets(query)
        return { exchange: again, view: listItems(again)?.find((item) => integerField(item.id) === id) }
      },
    }
  }

  /** A view of a pet: the first one the model holds of it, or one that must agree with that. */
  private async observe(model: StoreModel, view: PetFields, source: ViewSource): Promise<void> {
    const id = integerField(view.id)
    if (id === undefined) return
    const known = model.pets.get(id)
    if (!known) {
      model.pets.set(id, { id, view, source })
      model.listed.push(id)
      return
    }
    if (viewDifferences(known.view, view).length === 0) {
      this.decide('views/one-pet-reads-the-same')
      return
    }
    await this.confirmDifference(known, view, source)
  }

  /**
   * Two views of a pet differ: they count only if they still differ when the window closes. The view is read
   * again until it agrees; for a pet the sequence did not create, the first view is read again too, and two
   * views that now agree on a new status are a transition (the spec does not show them), not a fault.
   */
  private async confirmDifference(known: KnownPet, view: PetFields, source: ViewSource): Promise<void> {
    let current: PetFields | undefined = view
    let recordedNow: PetFields | undefined
    const rereadRecorded = !known.created ? known.source.reread : undefined
    // A status that changed: the first view, read again, shows the new one too, or no longer shows the pet (it left the list of its old status).
    const transition = () =>
      current !== undefined &&
      rereadRecorded !== undefined &&
      (recordedNow === undefined
        ? viewDifferences({ ...known.view, status: current.status as JsonValue }, current).length === 0
        : viewDifferences(recordedNow, current).length === 0)
    const agree = () => current !== undefined && (viewDifferences(known.view, current).length === 0 || transition())
    let lastExchange: OperationExchange | undefined
    const read = await this.options.eventually(
      `${source.words} agreeing with ${known.source.words} on pet ${known.id}`,
      async () => {
        const [again, recordedAgain] = await Promise.all([(source.reread as NonNullable<ViewSource['reread']>)(), rereadRecorded?.()])
        current = again.view
        recordedNow = recordedAgain?.view
        lastExchange = again.exchange
        return again.exchange
      },
      () => agree(),
    )
    if (agree()) {
      this.decide('views/one-pet-reads-the-same')
      if (current && viewDifferences(known.view, current).length > 0) {
        this.outcome.notes.push({
          requirement: 'views/one-pet-reads-the-same',
          text: `pet ${known.id} changed between reads (${viewDifferences(known.view, current).join('; ')}): read again, the views show the change, a transition the spec does not show`,
        })
        known.view = current
        known.source = source
      }
      return
    }
    // The pet left that view (another page, another status): nothing is left to compare there.
    if (current === undefined) return
    this.fail('views/one-pet-reads-the-same', {
      message: `pet ${known.id} reads differently in ${source.words} than in ${known.source.words}: ${viewDifferences(known.view, current).join('; ')} (read again ${windowWords(read)})`,
      expected: animalText(known.view),
      actual: animalText(current),
      ...(lastExchange ? { exchange: lastExchange } : {}),
    })
  }

  /**
   * A complete list of one status (status=S&limit=100 holding fewer than 100 pets) must show every pet whose
   * view shows S: read again within the window; a pet the sequence did not create is read by GET before it is
   * blamed, since its status may have changed.
   */
  private async judgeMembership(model: StoreModel, status: PetStatus, exchange: OperationExchange, patient: boolean): Promise<void> {
    const idsIn = (answer: OperationExchange) => {
      const items = listItems(answer)
      return items && items.length < 100 ? new Set(items.map((item) => integerField(item.id))) : undefined
    }
    const expected = model.petsOfStatus(status)
    const first = idsIn(exchange) ?? new Set()
    for (const pet of expected) if (first.has(pet.id)) this.decide(membershipRequirement(pet))
    // Within the commands, a created pet not listed yet is left to the sweep, which waits for all of them at once.
    const missing = expected.filter((pet) => !first.has(pet.id) && (patient || !pet.created))
    if (missing.length === 0) return
    const words = `GET /pets?status=${status}&limit=100`
    const read = await this.options.eventually(
      `${words} listing pet ${missing.map((pet) => pet.id).join(', ')}`,
      () => this.api.listPets({ status, limit: 100 }),
      (answer) => {
        const ids = idsIn(answer)
        return ids === undefined || missing.every((pet) => ids.has(pet.id))
      },
    )
    const ids = idsIn(read.exchange)
    // The list is no longer complete (or no longer a list): it shows nothing either way.
    if (!ids) return
    for (const pet of missing) {
      if (ids.has(pet.id)) {
        this.decide(membershipRequirement(pet))
        continue
      }
      if (!pet.created) {
        if (!this.getPetInService) continue
        const now = petWithId(await this.api.getPet(pet.id), pet.id)
        if (now?.status !== status) {
          if (now) pet.view = now
          continue
        }
      }
      const shown = pet.created
        ? pet.created.sentStatus !== undefined
          ? `created with status ${status} (${pet.source.words})`
          : `created without a status, shows status ${status} (${pet.source.words})`
        : `shows status ${status} in GET /pets/${pet.id}`
      this.fail(membershipRequirement(pet), {
        message: `pet ${pet.id}, ${shown}, is not in ${words} (${ids.size} pets, ${this.at(read.exchange)}) ${windowWords(read)}`,
        expected: `pet ${pet.id} in the list`,
        actual: `ids ${[...ids].slice(0, 20).join(', ')}${ids.size > 20 ? ', …' : ''}`,
        exchange: read.exchange,
      })
    }
  }
}
