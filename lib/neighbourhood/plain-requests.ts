/**
 * The plain requests whose neighbourhoods a run explores: a list, a get and a create, each with the key and
 * without it, as request models. Each create of the neighbourhood carries a name of its own (the run's prefix and
 * id, then a number), so a refused create that was stored after all is found by its name.
 */
import { isInt64 } from '../http/int64.js'
import { type OperationCall, operationRequest, type RequestContext } from '../spec/operation-requests.js'
import { OPERATION_ROUTES, type Operation } from '../spec/operations.js'
import type { RequestModel, WireRequest } from '../spec/request-model.js'

export interface PlainRequest {
  /** Stable words for it: `GET /pets with the key`. */
  name: string
  model: RequestModel
  /** Without the key: its edits are all refused, so one per operator and part says as much as many. */
  keyless: boolean
}

/** What the plain requests ask (and, as every request, where they go, with which key and which fields of the run's own). */
export interface PlainRequestOptions extends RequestContext {
  list: { limit: number; status: string }
  getId: bigint
  create: { name: string; categoryId: bigint; status: string }
  /** Which operations: a read-only run edits only reads. */
  operations: readonly Operation[]
}

/** The marker a create's name carries in place of its number, replaced in every edit of it (numberedCreate). */
export const CREATE_NUMBER_MARKER = '7777777'

/** The call of an operation the neighbourhood's plain request of it makes. */
function callOf(operation: Operation, options: PlainRequestOptions): OperationCall {
  if (operation === 'listPets') return { operation, query: { limit: options.list.limit, status: options.list.status } }
  if (operation === 'getPet') return { operation, id: options.getId }
  return { operation, body: { json: { name: options.create.name, categoryId: options.create.categoryId, status: options.create.status } } }
}

export function plainRequests(options: PlainRequestOptions): PlainRequest[] {
  return options.operations.flatMap((operation) => [
    { name: `${OPERATION_ROUTES[operation]} with the key`, model: operationRequest(options, callOf(operation, options)), keyless: false },
    { name: `${OPERATION_ROUTES[operation]} without a key`, model: operationRequest(options, callOf(operation, options), null), keyless: true },
  ])
}

/** A create's request with its number in place of the marker, wherever the edit left the marker. */
export function numberedCreate(wire: WireRequest, number: number): WireRequest {
  const digits = String(number).padStart(CREATE_NUMBER_MARKER.length, '0')
  // The name may have been moved into the target (the add-query operator): the number goes there too.
  const head = wire.head.includes(CREATE_NUMBER_MARKER) ? wire.head.replaceAll(CREATE_NUMBER_MARKER, digits) : wire.head
  if (wire.body === undefined || !wire.body.includes(CREATE_NUMBER_MARKER)) return head === wire.head ? wire : { ...wire, head }
  return { ...wire, head, body: wire.body.replaceAll(CREATE_NUMBER_MARKER, digits) }
}

/**
 * A listed pet whose id, read in octal, is another listed pet's (`10`, when 8 is listed): Ruby's Integer(), C's strtol
 * and Go's ParseInt with base 0 read `010` as 8, so the leading-zeros notation of that id names another pet to them,
 * which §2b never allows. Undefined where no listed id is so (ids with an 8 or a 9 in them, or sparse ones).
 */
export function octalTwin(listed: Iterable<bigint>): bigint | undefined {
  const ids = [...listed].filter(isInt64)
  const present = new Set(ids)
  return ids.find((id) => /^[1-7][0-7]+$/.test(id.toString()) && present.has(BigInt(`0o${id}`)))
}
