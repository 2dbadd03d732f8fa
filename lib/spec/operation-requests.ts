/**
 * The spec's vocabulary of requests: the plain request of each operation as a request model (request-model.ts),
 * and the edits the checks make of one (another spelling of the path below the base, other query parameters, a
 * header given, replaced or left out). Every request the suite sends is one of these models, rendered by the
 * model: as the HTTP client writes a request (`clientRequest`), or octet for octet (`wireHead`).
 */
import type { OutgoingRequest } from '../http/exchange.js'
import { stringifyJson } from '../http/json.js'
import { bodyText, type Credentials, type Field, type Member, octetsOf, queryText, type RequestModel, type Segment, targetOf } from './request-model.js'

/**
 * How a request authenticates: undefined sends `Bearer <key>`; null sends no Authorization header;
 * a function builds the header value from the key (for wrong, empty or look-alike tokens).
 */
export type Authorization = undefined | null | ((key: string) => string)

export interface ListQuery {
  /** The limit, or several: each given as a parameter of its own, in order (`limit=7&limit=500`). */
  limit?: string | number | ReadonlyArray<string | number>
  status?: string
}

/**
 * A body sent as JSON (numbers may be bigint or JsonNumber, written digit for digit), as raw text (sent as
 * UTF-8), or as octets, one per character, sent as written (for bytes that are not UTF-8).
 */
export type RequestBody = { json: unknown } | { raw: string } | { octets: string }

/** The exact text sent for a request body (for octets: one character per octet). */
export function requestBodyText(body: RequestBody): string {
  return 'raw' in body ? body.raw : 'octets' in body ? body.octets : stringifyJson(body.json)
}

/** One operation of the spec with what it is asked: the list's query, the pet's id, the create's body and its label (null: none). */
export type OperationCall =
  | { operation: 'listPets'; query?: ListQuery }
  | { operation: 'getPet'; id: string | bigint }
  | { operation: 'createPet'; body: RequestBody; contentType?: string | null }

/** What every request of a run shares: where it goes, the key, and the run's own fields (carried, never edited). */
export interface RequestContext {
  baseUrl: string
  apiKey: string
  fields: Readonly<Record<string, string>>
}

/** A query value as a form writes it (URLSearchParams: `+` for a space, the rest percent-encoded). */
function formValue(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2)
}

const canonicalName = (name: string) => name.replace(/(^|-)([a-z])/g, (_whole, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`)

/**
 * An Authorization value in its parts: the scheme, the first space, the rest (a value without a space is all scheme).
 * A value a check gives is octets, one per character, as every field value is (`Bearer <key>` then 0xA0 is one octet more).
 */
export function credentialsOf(value: string): Credentials {
  const space = value.indexOf(' ')
  if (space < 0) return { name: 'Authorization', scheme: value, separator: '', token: '' }
  return { name: 'Authorization', scheme: value.slice(0, space), separator: ' ', token: value.slice(space + 1) }
}

function credentials(authorization: Authorization, apiKey: string): Credentials[] {
  if (authorization === null) return []
  return [authorization === undefined ? { name: 'Authorization', scheme: 'Bearer', separator: ' ', token: octetsOf(apiKey) } : credentialsOf(authorization(apiKey))]
}

/** A JSON object's members as the JSON text writes them, when the object is written exactly so (else the body stays text). */
function membersOf(json: unknown, text: string): Member[] | undefined {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined
  const members = Object.entries(json).map(([name, value]) => ({ name: octetsOf(JSON.stringify(name).slice(1, -1)), value: octetsOf(stringifyJson(value)) }))
  return bodyText({ members }) === octetsOf(text) ? members : undefined
}

/** The plain request of an operation (policy §2b: the request whose neighbourhood an edit explores). */
export function operationRequest(context: RequestContext, call: OperationCall, authorization?: Authorization): RequestModel {
  const base = new URL(context.baseUrl)
  const segments: Segment[] = [
    ...base.pathname
      .split('/')
      .filter((segment) => segment !== '')
      .map((text) => ({ role: 'base' as const, text: octetsOf(text) })),
    { role: 'fixed', text: 'pets' },
  ]
  if (call.operation === 'getPet') segments.push({ role: 'id', text: encodeURIComponent(String(call.id)) })
  const query: Field[] = []
  if (call.operation === 'listPets') {
    const { limit, status } = call.query ?? {}
    for (const value of limit === undefined ? [] : Array.isArray(limit) ? limit : [limit]) query.push({ name: 'limit', value: formValue(String(value)) })
    if (status !== undefined) query.push({ name: 'status', value: formValue(status) })
  }
  const headers: Field[] = [
    { name: 'Host', value: base.host },
    { name: 'Accept', value: 'application/json' },
  ]
  let body: RequestModel['body']
  if (call.operation === 'createPet') {
    const contentType = call.contentType === undefined ? 'application/json' : call.contentType
    if (contentType !== null) headers.push({ name: 'Content-Type', value: contentType })
    const text = requestBodyText(call.body)
    const octets = 'octets' in call.body ? text : octetsOf(text)
    const members = 'json' in call.body ? membersOf(call.body.json, text) : undefined
    body = members ? { members } : { text: octets }
  }
  return {
    operation: call.operation,
    method: call.operation === 'createPet' ? 'POST' : 'GET',
    version: 'HTTP/1.1',
    targetForm: 'origin',
    origin: base.origin,
    framing: 'Content-Length',
    segments,
    query,
    headers,
    carried: Object.entries(context.fields).map(([name, value]) => ({ name: canonicalName(name), value: octetsOf(value) })),
    authorization: credentials(authorization, context.apiKey),
    ...(body ? { body } : {}),
  }
}

/** The request with the path below the base URL spelled by these segments (`['pets', '']` is `/pets/`); an id keeps its role. */
export function withPathBelowBase(model: RequestModel, texts: readonly string[]): RequestModel {
  const base = model.segments.filter((segment) => segment.role === 'base')
  const below = model.segments.filter((segment) => segment.role !== 'base')
  return { ...model, segments: [...base, ...texts.map((text, index) => ({ role: below[index]?.role === 'id' ? ('id' as const) : ('fixed' as const), text }))] }
}

/** The request with its petId segment written as given (as a path segment carries it: no encoding added). */
export function withIdSegment(model: RequestModel, text: string): RequestModel {
  return { ...model, segments: model.segments.map((segment) => (segment.role === 'id' ? { ...segment, text } : segment)) }
}

/** The request with these query parameters, written as given (no encoding added). */
export function withQuery(model: RequestModel, query: readonly Field[]): RequestModel {
  return { ...model, query: query.map((field) => ({ ...field })) }
}

/** The request with a header field given (its value octets, one per character; in place of one of that name, in any case) or, for null, without it. */
export function withHeader(model: RequestModel, name: string, value: string | null): RequestModel {
  const lower = name.toLowerCase()
  if (lower === 'authorization') return { ...model, authorization: value === null ? [] : [credentialsOf(value)] }
  const at = model.headers.findIndex((field) => field.name.toLowerCase() === lower)
  const headers = model.headers.filter((field) => field.name.toLowerCase() !== lower)
  if (value !== null) headers.splice(at < 0 ? headers.length : at, 0, { name: canonicalName(lower), value })
  return { ...model, headers }
}

/** The request-target below the base URL, as written (`/pets?limit=5`): what a check's words name. */
export function pathBelowBase(model: RequestModel): string {
  const base = model.segments.filter((segment) => segment.role === 'base').length
  const below = `/${model.segments
    .slice(base)
    .map((segment) => segment.text)
    .join('/')}`
  return model.query.length === 0 ? below : `${below}?${queryText(model.query)}`
}

/**
 * A model as the HTTP client writes a request (undici, on the run's kept-alive connections): the path below the
 * base URL, as written when a URL parser would have written it otherwise; the fields in lower case, Host and the
 * run's own fields left to the client (it writes the same, with each attempt's span); the body as text when its
 * octets are UTF-8, else as octets. Only a request HTTP's own rules accept can be written so: an edited one goes
 * octet for octet (wireHead).
 */
export function clientRequest(model: RequestModel): Pick<OutgoingRequest, 'method' | 'path' | 'pathAsIs' | 'headers' | 'body' | 'bodyIsOctets'> {
  const path = pathBelowBase(model)
  // As the client resolves a path below its base URL (HttpClient.url): a path that resolves to another is sent as written.
  const base = model.segments.filter((segment) => segment.role === 'base').map((segment) => `${segment.text}/`)
  const pathAsIs = new URL(path.replace(/^\//, ''), `${model.origin}/${base.join('')}`).href !== `${model.origin}${targetOf(model)}`
  const headers: Record<string, string> = {}
  for (const field of model.headers) if (field.name.toLowerCase() !== 'host') headers[field.name.toLowerCase()] = field.value
  for (const { name, scheme, separator, token } of model.authorization) headers[name.toLowerCase()] = `${scheme}${separator}${token}`
  const octets = model.body ? bodyText(model.body) : undefined
  const text = octets === undefined ? undefined : Buffer.from(octets, 'latin1').toString('utf8')
  const body = octets === undefined ? {} : text !== undefined && octetsOf(text) === octets ? { body: text } : { body: octets, bodyIsOctets: true as const }
  return { method: model.method, path, ...(pathAsIs ? { pathAsIs } : {}), headers, ...body }
}
