/**
 * The target as a sequence sees it (the "real" system of fast-check's commands): the API every request goes
 * through, recorded in order; the sequence's outcome (what it decided, what it broke, its steps); its request
 * cap; and the judging every command shares, of views of one pet: a view that differs from the model's is
 * read again until the consistency window closes, and a complete list of a status must show every pet whose
 * view shows it (policy §2). Nothing here throws for a conformance failure: each one is recorded against its
 * requirement, and the sequence goes on. What each answer must be is the commands' postconditions
 * (commands/) and the model's (store-model.ts).
 */
import { viewDifferences } from '../../lib/checks/differences.js'
import { type EventualRead, windowWords } from '../../lib/data/eventual-reads.js'
import type { CaseFailure } from '../../lib/data/live-property.js'
import { integerField, type JsonValue } from '../../lib/http/json.js'
import { type OperationExchange, PET_STATUSES, type PetStatus, type PetstoreApi } from '../../lib/spec/petstore-api.js'
import { animalText, listItems, petWithId } from './answers.js'
import type { ListRequest, SequenceOutcome, SequenceRequirement } from './sequence-outcome.js'
import { type KnownPet, type PetFields, StoreModel, type ViewSource } from './store-model.js'

export interface TargetOptions {
  /** An API that passes every exchange it sends to `record`. */
  api: (record: (exchange: OperationExchange) => void) => PetstoreApi
  /**
   * Read until `found` holds or the consistency window closes (policy §2), as every read of a created pet is;
   * `ofCreatedPet` false for a read of pets the sequence did not create, which the lag report leaves out.
   */
  /** A read within the consistency window; the window of a pet this run created opens with its 201 (`pets`: the pets read). */
  eventually: (
    what: string,
    read: () => Promise<OperationExchange>,
    found: (exchange: OperationExchange) => boolean,
    ofCreatedPet: boolean,
    pets: readonly bigint[],
  ) => Promise<EventualRead>
  /** False from getPet's removal date: the sequences then send no GET /pets/{id}. */
  getPetInService: boolean
  /** False where the run's valid list (the survey's GET /pets?limit=100) was refused: a refusal of a list then shows nothing. */
  validListsServed: boolean
  /** Most requests this sequence sends on a target that shows every pet at once (re-reads within the window come on top): its own cap, or the run's budget's. */
  requestCap: number
  /** Why the cap is what it is, when the run's budget set it below the sequence's own: the steps a cap leaves out say so. */
  capWords?: string
  /** Put before every generated name: the run's prefix and the sequence's number, so each pet tells which sequence made it (policy §3). */
  namePrefix: string
}

/** Requests one sequence may send: two per command (a create of two, or a create and its read in the sweep), and the sweep's lists. */
export function requestCapOf(length: number): number {
  return 2 * length + 6
}

export class SequenceTarget {
  readonly outcome: SequenceOutcome = { decided: new Set(), failures: {}, exchanges: [], steps: [], notes: [] }
  readonly api: PetstoreApi

  constructor(private readonly options: TargetOptions) {
    this.api = options.api((exchange) => this.outcome.exchanges.push(exchange))
  }

  get getPetInService(): boolean {
    return this.options.getPetInService
  }

  get validListsServed(): boolean {
    return this.options.validListsServed
  }

  /**
   * Whether a command that sends `requests` and creates `creates` pets still fits the sequence's request cap,
   * keeping in reserve what the sweep will send (a GET per created pet, a list per status they may show), as
   * sequence-budget.ts plans it.
   */
  affords(model: StoreModel, requests: number, creates = 0): boolean {
    const created = model.created.length + creates
    const sweep = created + Math.min(PET_STATUSES.length, created)
    return !this.brokenTransport && this.outcome.exchanges.length + requests + sweep <= this.options.requestCap
  }

  get namePrefix(): string {
    return this.options.namePrefix
  }

  /** Read until `found` holds or the consistency window closes; `ofCreatedPet` says whether the pets read are the sequence's own. */
  eventually(
    what: string,
    read: () => Promise<OperationExchange>,
    found: (exchange: OperationExchange) => boolean,
    ofCreatedPet: boolean,
    pets: readonly bigint[],
  ): Promise<EventualRead> {
    return this.options.eventually(what, read, found, ofCreatedPet, pets)
  }

  /**
   * A request got no answer at all (a timeout, a reset, after its retries): the rest of the sequence would only
   * repeat that, so it stops there; the failure is already recorded by the command that saw it.
   */
  get brokenTransport(): boolean {
    return this.outcome.exchanges.some((exchange) => exchange.response === undefined)
  }

  /** A command the cap leaves out, as the steps show it. */
  skip(command: string): void {
    const why = this.brokenTransport
      ? 'an earlier request of the sequence got no answer'
      : `the sequence's cap of ${this.options.requestCap} requests is reached${this.options.capWords ? ` (${this.options.capWords})` : ''}`
    this.outcome.steps.push(`${command} (not sent: ${why})`)
  }

  /** `step 3`: where an exchange stands in the sequence, as the report numbers it. */
  at(exchange: OperationExchange): string {
    return `step ${this.outcome.exchanges.indexOf(exchange) + 1}`
  }

  /** The sequence could decide the requirement: an answer bore on it. */
  decide(requirement: SequenceRequirement): void {
    this.outcome.decided.add(requirement)
  }

  /** The first failure of each requirement is kept; a failure also decides it. */
  fail(requirement: SequenceRequirement, failure: CaseFailure): void {
    this.decide(requirement)
    this.outcome.failures[requirement] ??= failure
  }

  /** A view read by GET /pets/{id}, and how to read it again. */
  getSource(id: bigint, exchange: OperationExchange): ViewSource {
    return {
      words: `GET /pets/${id} (${this.at(exchange)})`,
      reread: async () => {
        const again = await this.api.getPet(id)
        return { exchange: again, view: petWithId(again, id) }
      },
    }
  }

  /** A view read in a list, and how to read it again. */
  listSource(query: ListRequest, id: bigint, words: string): ViewSource {
    return {
      words,
      reread: async () => {
        const again = await this.api.listPets(query)
        return { exchange: again, view: listItems(again)?.find((item) => integerField(item.id) === id) }
      },
    }
  }

  /** A view of a pet: the first one the model holds of it, or one that must agree with that. */
  async observe(model: StoreModel, view: PetFields, source: ViewSource): Promise<void> {
    const id = integerField(view.id)
    if (id === undefined) return
    const known = model.pets.get(id)
    if (!known) {
      model.recordSeen(id, view, source)
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
      known.created !== undefined,
      [known.id],
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
  async judgeMembership(model: StoreModel, status: PetStatus, exchange: OperationExchange, patient: boolean): Promise<void> {
    const idsIn = (answer: OperationExchange) => {
      const items = listItems(answer)
      return items && items.length < 100 ? new Set(items.map((item) => integerField(item.id))) : undefined
    }
    const expected = model.petsOfStatus(status)
    const first = idsIn(exchange) ?? new Set()
    for (const pet of expected) if (first.has(pet.id)) this.decide(StoreModel.membershipRequirement(pet))
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
      missing.every((pet) => pet.created !== undefined),
      missing.map((pet) => pet.id),
    )
    const ids = idsIn(read.exchange)
    // The list is no longer complete (or no longer a list): it shows nothing either way.
    if (!ids) return
    for (const pet of missing) {
      if (ids.has(pet.id)) {
        this.decide(StoreModel.membershipRequirement(pet))
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
      this.fail(StoreModel.membershipRequirement(pet), {
        message: `pet ${pet.id}, ${shown}, is not in ${words} (${ids.size} pets, ${this.at(read.exchange)}) ${windowWords(read)}`,
        expected: `pet ${pet.id} in the list`,
        actual: `ids ${[...ids].slice(0, 20).join(', ')}${ids.size > 20 ? ', …' : ''}`,
        exchange: read.exchange,
      })
    }
  }
}
