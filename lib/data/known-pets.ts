/**
 * The pets this run knows exist: every pet a list showed and every pet a create answered with 201, whichever
 * check sent the request. A `GET /pets/{id}` sent with the key for one of them that is answered 404 is read
 * again within the consistency window (policy §2): a service may answer from a replica that has not caught up
 * with a pet created, or seeded, moments before. Every check's API reads this way, so no check that reads a
 * known pet can forget to wait, and none waits for an id no pet is known to hold.
 */

import { integerField, isJsonObject, type JsonValue } from '../http/json.js'
import { responseJson } from '../http/response-json.js'
import type { OperationExchange, Patience } from '../spec/petstore-api.js'
import type { EventualReadOptions } from './eventual-reads.js'
import { readWithinWindow } from './eventual-reads.js'

/** How a known pet is read within the window: everything `readWithinWindow` needs but the read itself. */
export type WindowedReads = Pick<EventualReadOptions, 'windowMs' | 'log' | 'stop' | 'sleep' | 'now'>

export class KnownPets implements Patience {
  private readonly ids = new Set<bigint>()
  /**
   * Of those, the pets a create of this run answered with (a re-read of one of them is a read of a write), each with
   * when its 201 came (on the reads' clock): the consistency window of its reads opens then.
   */
  private readonly created = new Map<bigint, number>()

  /**
   * The ids of the pets the store held before the run wrote, when its lists showed all of it (fewer than 100 pets):
   * with the ids the run's writes were answered with (WriteBudget), every pet the store can hold.
   */
  private before?: ReadonlySet<bigint>

  constructor(private readonly reads: WindowedReads) {}

  /** Learns that, before the run wrote, the store held these pets and no other. */
  storeBeforeWrites(ids: ReadonlySet<bigint>): void {
    this.before = ids
  }

  /** The pets the store held before the run wrote, when the lists showed the whole of it. */
  get wholeStoreBeforeWrites(): ReadonlySet<bigint> | undefined {
    return this.before
  }

  /** Learns the ids of the pets an answer shows: a 201 of a create, a 200 of a list or of a get. */
  saw(exchange: OperationExchange): void {
    const status = exchange.response?.status
    const shows = (exchange.operation === 'createPet' && status === 201) || (exchange.operation !== 'createPet' && exchange.operation !== 'probe' && status === 200)
    if (!shows) return
    const parsed = responseJson(exchange)
    if (!parsed.ok) return
    const learn = (pet: JsonValue) => {
      const id = isJsonObject(pet) ? integerField(pet.id) : undefined
      if (id === undefined) return
      this.ids.add(id)
      if (exchange.operation === 'createPet' && !this.created.has(id)) this.created.set(id, this.reads.now ? this.reads.now() : performance.now())
    }
    if (Array.isArray(parsed.value)) parsed.value.forEach(learn)
    else learn(parsed.value)
  }

  /** The ids of the pets a create of this run was answered with, whichever check sent it. */
  createdIds(): ReadonlySet<bigint> {
    return new Set(this.created.keys())
  }

  /** When the latest 201 that showed one of `ids` came (on the reads' clock); undefined unless a create of this run was answered with each of them. */
  latestCreatedAt(ids: readonly bigint[]): number | undefined {
    const times = ids.map((id) => this.created.get(id))
    return times.length > 0 && times.every((time) => time !== undefined) ? Math.max(...(times as number[])) : undefined
  }

  async settle(petId: string | bigint, first: OperationExchange, again: () => Promise<OperationExchange>): Promise<OperationExchange> {
    const id = typeof petId === 'bigint' ? petId : /^-?\d+$/.test(petId) ? BigInt(petId) : undefined
    if (first.response?.status !== 404 || id === undefined || !this.ids.has(id)) return first
    const since = this.created.get(id)
    const read = await readWithinWindow({
      ...this.reads,
      what: `GET /pets/${id}`,
      read: again,
      found: (exchange) => exchange.response?.status !== 404,
      first,
      ofCreatedPet: since !== undefined,
      ...(since !== undefined ? { since } : {}),
    })
    return read.exchange
  }
}
