/** What a conformant store may assign, hold, order and show late: id schemes, odd pets already there, list order, lag. */
import { exactInteger, INT64_MIN } from '../../lib/http/int64.js'
import { decodedSegment } from '../../reference/handler.js'
import { type PetStatus, PetStore, withPets } from '../../reference/pet-store.js'
import { isGetPet, lagsBehindWrites, rewritingNewPet } from '../variant.js'
import type { Allowance } from './allowance.js'

const IDS = { policy: 'ids' } as const
const IDS_WORDS = 'every id is an integer within int64, distinct across created pets, compared digit for digit. Ids above 2^53 are legal'

/** The next id of a scattered sequence: a full-period generator of 63-bit numbers (Knuth's MMIX constants), never 0. */
const scattered = (last: bigint) => ((last * 6_364_136_223_846_793_005n + 1_442_695_040_888_963_407n) % 2n ** 63n) + 1n

function defaultsStatus(status: PetStatus): Allowance {
  return {
    id: `status-defaulted-${status}`,
    does: `a pet created without status is stored and shown as ${status}`,
    source: { policy: '`status` omitted at creation' },
    allowedBy: 'INFO: record what the target stores; any value of the enum, or no field, passes',
    layer: 'service',
    group: 'default status',
    wrap: rewritingNewPet((fields) => ('status' in fields ? fields : { ...fields, status })),
  }
}

export const storeAllowances: Allowance[] = [
  {
    id: 'ids-above-2^53',
    does: 'the store assigns ids from 2^62 + 12345: every id is beyond what a double holds exactly',
    source: IDS,
    allowedBy: IDS_WORDS,
    layer: 'store',
    group: 'ids',
    ids: () => new PetStore(2n ** 62n + 12_345n),
  },
  {
    id: 'ids-negative',
    does: 'the store assigns negative ids near the bottom of int64',
    source: IDS,
    allowedBy: IDS_WORDS,
    layer: 'store',
    group: 'ids',
    ids: () => new PetStore(INT64_MIN + 1_000n),
  },
  {
    id: 'ids-sparse',
    does: 'ids are far apart (each 2^32 + 15 after the last, from 1,000,003), crossing the int32 and uint32 edges and 2^53 as the store grows',
    source: IDS,
    allowedBy: IDS_WORDS,
    layer: 'store',
    group: 'ids',
    ids: () => new PetStore(1_000_003n, 2n ** 32n + 15n),
  },
  {
    id: 'ids-from-zero',
    does: 'ids start at 0, so a pet with id 0 exists and GET /pets/0 returns it',
    source: { policy: 'ids at the edges of int64 in the path' },
    allowedBy: 'An id of 0 is a real id when a list shows it.',
    layer: 'store',
    group: 'ids',
    ids: () => new PetStore(0n),
  },
  {
    id: 'ids-cross-zero',
    does: 'ids count up from -150, so a create of the checks, after the seeding, takes 0 and the next -1 … 1 while the run goes on',
    source: { policy: 'ids at the edges of int64 in the path' },
    allowedBy: 'An id of 0 is a real id when a list shows it.',
    layer: 'store',
    group: 'ids',
    ids: () => new PetStore(-150n),
  },
  {
    id: 'ids-count-down',
    does: 'ids count down from 120, so a create of the checks takes 0, then -1, while the run goes on',
    source: { policy: 'ids at the edges of int64 in the path' },
    allowedBy: 'An id of 0 is a real id when a list shows it.',
    layer: 'store',
    group: 'ids',
    ids: () => new PetStore(120n, -1n),
  },
  {
    id: 'ids-down-from-int64-max',
    does: 'ids count down from 2^63 − 1: the first pet holds the largest int64',
    source: { policy: 'ids at the edges of int64 in the path' },
    allowedBy: 'An id of 0 is a real id when a list shows it.',
    layer: 'store',
    group: 'ids',
    ids: () => new PetStore(2n ** 63n - 1n, -1n),
  },
  {
    id: 'ids-scattered',
    does: 'ids are scattered over 1 … 2^63 − 1 in no order (a hash or a random generator): a newer pet may have a smaller id',
    source: IDS,
    allowedBy: IDS_WORDS,
    layer: 'store',
    group: 'ids',
    ids: () => new PetStore(scattered(7n), scattered),
  },
  {
    id: 'odd-names-in-store',
    does: 'the store already holds pets named "", " ", "\\u0000", "🐶", 3000 × "é", a combining accent and a right-to-left override, with int64-extreme category ids',
    source: { policy: 'what counts as valid' },
    allowedBy: '`""` is a valid name (no minLength)',
    layer: 'store',
    prepare: (store) => {
      const names = ['', ' ', '\u0000', '🐶', 'é'.repeat(3000), 'e\u0301', '\u202eevil']
      names.forEach((name, index) => {
        store.add({ name, categoryId: index % 2 === 0 ? 2n ** 63n - 1n : -(2n ** 63n), status: (['available', 'pending', 'sold'] as const)[index % 3], extra: {} })
      })
    },
  },
  {
    id: 'long-names-in-store',
    does: 'the store already holds 40 pets whose names are 4,096 code points of accented letters (8 KiB each): lists are large, and well within the body cap',
    source: { policy: 'name lengths' },
    allowedBy: 'a valid name is stored and shown whole in every view, never cut',
    layer: 'store',
    prepare: (store) => {
      for (let index = 0; index < 40; index++)
        store.add({ name: `long ${index} ${'é'.repeat(4_096 - 6 - String(index).length)}`, categoryId: BigInt(index), status: 'available', extra: {} })
    },
  },
  {
    id: 'pets-sold-while-read',
    does: 'a pet the store already held is sold (an order, an area not shown) the first time GET /pets/{petId} reads it: its status changes between reads',
    source: { spec: 'States and transitions: "Transitions: not shown."' },
    allowedBy: 'Transitions: not shown (a pet the run did not create may change status between reads)',
    layer: 'store',
    prepare: (store) => void withPets(store, 150),
    wrap: (inner, { store }) => {
      const heldBefore = new Set(store.list({ limit: Number.POSITIVE_INFINITY }).map((pet) => pet.id))
      const soldOnce = new Set<bigint>()
      return async (request) => {
        const id = isGetPet(request) ? exactInteger(decodedSegment(request.path.slice('/pets/'.length)) ?? '') : undefined
        const pet = id === undefined || soldOnce.has(id) ? undefined : store.get(id)
        if (pet && id !== undefined && heldBefore.has(id)) {
          soldOnce.add(id)
          store.update(id, { ...pet, status: pet.status === 'sold' ? 'available' : 'sold' })
        }
        return inner(request)
      }
    },
  },
  {
    id: 'other-clients-create-pets',
    does: "other clients create pets while the run reads and writes: before every fifth request the store takes another client's pet, its status the next of the three in turn (a live store: production under its nightly smoke, staging shared by other pipelines)",
    source: { spec: 'Overview: "A client can list animals, filter them by availability status, add a new animal" (the store is no single client\'s)' },
    allowedBy: "nothing in the spec or the policy makes the store the run's alone; the smoke profile is the one for production, which other clients write to",
    layer: 'store',
    wrap: (inner, { store }) => {
      const statuses: PetStatus[] = ['available', 'pending', 'sold']
      let requests = 0
      return async (request) => {
        requests += 1
        if (requests % 5 === 0) store.add({ name: `another client's pet ${requests}`, categoryId: 1n, status: statuses[(requests / 5) % 3] ?? 'available', extra: {} })
        return inner(request)
      }
    },
  },
  {
    id: 'list-newest-first',
    does: 'lists are in reverse creation order',
    source: { policy: 'order of list items' },
    allowedBy: 'never assumed',
    layer: 'store',
    group: 'order',
    prepare: (store) => {
      store.order = 'newest first'
    },
  },
  {
    id: 'list-shuffled',
    does: 'every list comes in a new order (a hash map, a parallel query): two reads of one page differ in order',
    source: { policy: 'order of list items' },
    allowedBy: 'never assumed',
    layer: 'store',
    group: 'order',
    prepare: (store) => {
      store.order = 'shuffled'
    },
  },
  defaultsStatus('available'),
  defaultsStatus('pending'),
  defaultsStatus('sold'),
  {
    id: 'replica-lags-2s',
    does: 'reads come from a replica 2 s behind the writes: within the 5 s consistency window',
    source: { policy: 'consistency' },
    allowedBy: 'a service may answer lists from a replica that lags … within the consistency window (default 5 s)',
    layer: 'store',
    group: 'lag',
    wrap: lagsBehindWrites(2_000),
  },
  {
    id: 'get-replica-lags-800ms',
    does: 'GET /pets/{id} is answered from a replica 800 ms behind the writes while lists are current: a pet a list shows can be 404 to its GET for a moment, within the 5 s window',
    source: { policy: 'consistency' },
    allowedBy: 'a created pet is found by `GET /pets/{id}` and in the lists … within the consistency window',
    layer: 'store',
    group: 'lag',
    wrap: lagsBehindWrites(800, 0),
  },
  {
    id: 'get-lags-1500ms-lists-lag-600ms',
    does: 'GET /pets/{id} lags 1.5 s behind the writes and the lists 0.6 s: a pet shows in the lists before its GET finds it, all within the 5 s window',
    source: { policy: 'consistency' },
    allowedBy: 'a created pet is found by `GET /pets/{id}` and in the lists … within the consistency window',
    layer: 'store',
    group: 'lag',
    wrap: lagsBehindWrites(1_500, 600),
  },
]
