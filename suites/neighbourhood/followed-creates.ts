/**
 * Every consequence of an edited create followed (policy §2, created pet; §2b): a create the service accepted made a
 * pet, and that pet is read back like a plain one, as soon as its 201 comes, while the list of its status still has
 * room. Its GET /pets/{id} shows what its 201 showed, and the list of the status it shows holds it. A member that
 * changes what the filter sees but not what the 201 shows, or a pet an edit made that no read can find, shows here.
 */
import type { Check } from '../../lib/checks/check.js'
import { viewDifferences } from '../../lib/checks/differences.js'
import { windowWords } from '../../lib/data/eventual-reads.js'
import { listedPets } from '../../lib/data/store-survey.js'
import { integerField } from '../../lib/http/json.js'
import { responseObject } from '../../lib/http/response-json.js'
import type { PlannedEdit } from '../../lib/neighbourhood/edit-plan.js'
import { isPetStatus, type OperationExchange, type PetStatus } from '../../lib/spec/petstore-api.js'

/** An edited create the neighbourhood sent: its number (in its name), the edit, and what it got. */
export interface EditedCreate {
  number: number
  edit: PlannedEdit
  exchange: OperationExchange
}

/**
 * The lists of each status, read for every accepted create that waits on one: a read serves every pet that asks
 * for it while it is under way, so a hundred accepted creates cost a few list reads, not a hundred. Only a read
 * asked for after the create's 201 came serves it: one sent before may rightly not hold the pet (a read-your-writes
 * service would be failed at a consistency window of 0, and charged a lag it does not have at any other). A create
 * answered while a read is under way waits for the next, asked once that one is back, with every other create
 * answered meanwhile.
 */
export class ListReads {
  private readonly lists = new Map<PetStatus, { current?: { askedAt: number; pending: Promise<OperationExchange> }; next?: Promise<OperationExchange> }>()

  constructor(private readonly check: Check) {}

  /** A read of the list of `status` asked for at `answeredAt` (performance.now()) or later. */
  read(status: PetStatus, answeredAt: number): Promise<OperationExchange> {
    const list = this.lists.get(status) ?? {}
    this.lists.set(status, list)
    const ask = (): Promise<OperationExchange> => {
      const current = { askedAt: performance.now(), pending: this.check.api.listPets({ status, limit: 100 }) }
      list.current = current
      list.next = undefined
      const done = () => {
        if (list.current === current) list.current = undefined
      }
      current.pending.then(done, done)
      return current.pending
    }
    if (list.current && list.current.askedAt >= answeredAt) return list.current.pending
    if (list.next) return list.next
    if (!list.current) return ask()
    const next = list.current.pending.then(ask, ask)
    list.next = next
    return next
  }
}

/** An accepted edited create followed: read back by id, and looked for in the list of the status its 201 shows. */
export async function followAcceptedCreate(check: Check, create: EditedCreate, lists: ListReads): Promise<void> {
  const shown = create.exchange.response?.status === 201 ? responseObject(create.exchange) : undefined
  const id = shown ? integerField(shown.id) : undefined
  if (!shown || id === undefined) return
  // The 201 has come: every read that judges it is asked for from now on.
  const answeredAt = performance.now()
  const what = `${create.edit.plain.name}, ${create.edit.label}: pet ${id}`
  const status = shown.status
  const [read, list] = await Promise.all([
    check.eventually(
      `GET /pets/${id}`,
      (api) => api.getPet(id),
      (exchange) => exchange.response?.status === 200,
      check.api,
      { pets: [id] },
    ),
    isPetStatus(status)
      ? check.eventually(
          `GET /pets?status=${status}&limit=100 showing pet ${id}`,
          () => lists.read(status, answeredAt),
          (exchange) => exchange.response?.status !== 200 || listedPets(exchange).length >= 100 || listedPets(exchange).some((pet) => pet.id === id),
          check.api,
          { pets: [id] },
        )
      : undefined,
  ])
  const got = read.exchange.response?.status === 200 ? responseObject(read.exchange) : undefined
  const differences = got ? viewDifferences(shown, got) : []
  check.charge(
    read.exchange,
    [
      !got
        ? { requirementId: 'createPet/round-trip-get', ok: false, message: `the edited create was answered 201, yet GET /pets/${id} did not answer 200 ${windowWords(read)}` }
        : differences.length > 0
          ? { requirementId: 'createPet/round-trip-get', ok: false, message: `GET /pets/${id} shows the pet otherwise than its 201 did: ${differences.join('; ')}` }
          : { requirementId: 'createPet/round-trip-get', ok: true },
    ],
    create.exchange,
    what,
  )
  if (list?.exchange.response?.status !== 200) return
  const listed = listedPets(list.exchange)
  const there = listed.some((pet) => pet.id === id)
  // A full page shows nothing of a pet beyond it: the policy's rule holds while the list has room.
  if (!there && listed.length >= 100) return
  check.charge(
    list.exchange,
    [
      there
        ? { requirementId: 'createPet/created-pet-listed', ok: true }
        : {
            requirementId: 'createPet/created-pet-listed',
            ok: false,
            message: `shown as ${status} by its 201, it is missing from GET /pets?status=${status}&limit=100, which holds ${listed.length} pets ${windowWords(list)}`,
          },
    ],
    create.exchange,
    what,
  )
}
