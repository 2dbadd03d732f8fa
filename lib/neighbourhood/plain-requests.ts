/**
 * The plain requests whose neighbourhoods a run explores: a list, a get and a create, each with the key and
 * without it, as request models. Each create of the neighbourhood carries a name of its own (the run's prefix and
 * id, then a number), so a refused create that was stored after all is found by its name.
 */
import type { Operation } from '../spec/petstore-api.js'
import { type Body, bodyText, type Field, type Framing, octetsOf, type RequestModel, type Segment, wireHead } from './request-model.js'

export interface PlainRequest {
  /** Stable words for it: `GET /pets with the key`. */
  name: string
  model: RequestModel
  /** Without the key: its edits are all refused, so one per operator and part says as much as many. */
  keyless: boolean
}

export interface PlainRequestOptions {
  baseUrl: string
  apiKey: string
  /** The run's own fields (its User-Agent, the extra headers): every request carries them. */
  fields: Readonly<Record<string, string>>
  list: { limit: number; status: string }
  getId: bigint
  create: { name: string; categoryId: bigint; status: string }
  /** Which operations: a read-only run edits only reads. */
  operations: readonly Operation[]
}

/** The marker a create's name carries in place of its number, replaced in every edit of it (numberedCreate). */
export const CREATE_NUMBER_MARKER = '7777777'

const canonicalName = (name: string) => name.replace(/(^|-)([a-z])/g, (_whole, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`)

function model(operation: Operation, options: PlainRequestOptions, withKey: boolean): RequestModel {
  const base = new URL(options.baseUrl)
  const baseSegments = base.pathname.split('/').filter((segment) => segment !== '')
  const segments: Segment[] = [...baseSegments.map((text) => ({ role: 'base' as const, text: octetsOf(text) })), { role: 'fixed', text: 'pets' }]
  if (operation === 'getPet') segments.push({ role: 'id', text: String(options.getId) })
  const headers: Field[] = [
    { name: 'Host', value: base.host },
    { name: 'Accept', value: 'application/json' },
  ]
  const carried = Object.entries(options.fields).map(([name, value]) => ({ name: canonicalName(name), value: octetsOf(value) }))
  const { create } = options
  let body: Body | undefined
  if (operation === 'createPet') {
    headers.push({ name: 'Content-Type', value: 'application/json' })
    body = {
      members: [
        { name: 'name', value: octetsOf(JSON.stringify(create.name)) },
        { name: 'categoryId', value: String(create.categoryId) },
        { name: 'status', value: JSON.stringify(create.status) },
      ],
    }
  }
  return {
    operation,
    method: operation === 'createPet' ? 'POST' : 'GET',
    version: 'HTTP/1.1',
    targetForm: 'origin',
    origin: base.origin,
    framing: 'Content-Length',
    segments,
    query:
      operation === 'listPets'
        ? [
            { name: 'limit', value: String(options.list.limit) },
            { name: 'status', value: options.list.status },
          ]
        : [],
    headers,
    carried,
    authorization: withKey ? [{ name: 'Authorization', scheme: 'Bearer', separator: ' ', token: octetsOf(options.apiKey) }] : [],
    ...(body ? { body } : {}),
  }
}

const WORDS: Record<Operation, string> = { listPets: 'GET /pets', getPet: 'GET /pets/{id}', createPet: 'POST /pets' }

export function plainRequests(options: PlainRequestOptions): PlainRequest[] {
  return options.operations.flatMap((operation) => [
    { name: `${WORDS[operation]} with the key`, model: model(operation, options, true), keyless: false },
    { name: `${WORDS[operation]} without a key`, model: model(operation, options, false), keyless: true },
  ])
}

/**
 * A request as it goes on the wire: its head, and its body's octets (given, for a body sent in another coding) before
 * they are framed: what the body means, which the framing does not change (the sender frames it: framedOctets).
 */
export interface WireRequest {
  head: string
  body?: string
  framing: Framing
}

export function wireOf(request: RequestModel, bodyOctets?: string, options: { keptAlive?: boolean } = {}): WireRequest {
  const body = bodyOctets ?? (request.body ? bodyText(request.body) : undefined)
  const head = wireHead(request, { ...options, bodyLength: body?.length })
  return { head, framing: request.framing, ...(body === undefined ? {} : { body }) }
}

/** A create's request with its number in place of the marker, wherever the edit left the marker. */
export function numberedCreate(wire: WireRequest, number: number): WireRequest {
  const digits = String(number).padStart(CREATE_NUMBER_MARKER.length, '0')
  if (wire.body === undefined || !wire.body.includes(CREATE_NUMBER_MARKER)) return wire
  return { ...wire, body: wire.body.replaceAll(CREATE_NUMBER_MARKER, digits) }
}
