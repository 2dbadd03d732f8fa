/** The interface's operations by name, over the HTTP client. Knows paths and auth, judges nothing. */

import type { HttpClient } from '../http/client.js'
import type { Exchange } from '../http/exchange.js'
import { stringifyJson } from '../http/json.js'
import { createNotProcessed } from './lost-creates.js'

export type Operation = 'listPets' | 'createPet' | 'getPet'

/** Each operation as method and route, as messages name it. */
export const OPERATION_ROUTES: Record<Operation, string> = { listPets: 'GET /pets', createPet: 'POST /pets', getPet: 'GET /pets/{id}' }

/** What an exchange was: one of the operations, or a probe of a path the spec does not name (judged by no rule of every answer). */
export type ExchangeKind = Operation | 'probe'

export const PET_STATUSES = ['available', 'pending', 'sold'] as const
export type PetStatus = (typeof PET_STATUSES)[number]

export function isPetStatus(value: unknown): value is PetStatus {
  return (PET_STATUSES as readonly unknown[]).includes(value)
}

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

export interface OperationExchange extends Exchange {
  operation: ExchangeKind
}

/** A request in another form than the operations': its own path (sent as written) and headers (none added). */
export interface ProbeRequest {
  /** The operation the path means, or 'probe' for a spelling the spec does not name. */
  as: ExchangeKind
  /** Below the base URL, starting with '/', query included; never normalised. */
  path: string
  /** Sent as given; `Accept: application/json` is added unless one is given, and an Accept of null sends none. */
  headers: Record<string, string | null>
}

/** Wraps the wait for each request, given the request in words (a check uses it to say what it waits on). */
export type WaitTracker = <T>(what: string, work: Promise<T>) => Promise<T>

const untracked: WaitTracker = (_what, work) => work

/**
 * How the API waits out a store whose reads lag behind its writes (policy §2, consistency): it hears every
 * answer, so it learns which pets exist, and it settles each `GET /pets/{id}` sent with the key, re-reading
 * within the consistency window while a pet it knows exists is answered 404.
 */
export interface Patience {
  saw(exchange: OperationExchange): void
  settle(petId: string | bigint, first: OperationExchange, again: () => Promise<OperationExchange>): Promise<OperationExchange>
}

/** A probe's headers: Accept: application/json unless one is given; a header given as null is not sent. */
function probeHeaders(given: Record<string, string | null>): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries({ accept: 'application/json', ...given })) if (value !== null) headers[name] = value
  return headers
}

export class PetstoreApi {
  constructor(
    private readonly client: HttpClient,
    private readonly apiKey: string,
    private readonly onExchange: (exchange: OperationExchange) => void = () => {},
    private readonly track: WaitTracker = untracked,
    private readonly patience?: Patience,
  ) {}

  /** The same API, passing every exchange it sends to `record` as well. */
  recording(record: (exchange: OperationExchange) => void): PetstoreApi {
    return new PetstoreApi(
      this.client,
      this.apiKey,
      (exchange) => {
        this.onExchange(exchange)
        record(exchange)
      },
      this.track,
      this.patience,
    )
  }

  listPets(query: ListQuery = {}, authorization?: Authorization): Promise<OperationExchange> {
    const params = new URLSearchParams()
    for (const limit of query.limit === undefined ? [] : Array.isArray(query.limit) ? query.limit : [query.limit]) params.append('limit', String(limit))
    if (query.status !== undefined) params.set('status', query.status)
    const search = params.toString()
    return this.send('listPets', 'GET', `/pets${search ? `?${search}` : ''}`, authorization)
  }

  /**
   * `contentType`: the label of the body, `application/json` unless a check sends another, or null for none. A create
   * lost on a kept-alive connection the target ended under it is sent once more, on a connection of its own, when the
   * lists show it was not processed (lost-creates.ts); otherwise it stays lost, never sent twice.
   */
  async createPet(body: RequestBody, authorization?: Authorization, contentType: string | null = 'application/json'): Promise<OperationExchange> {
    const text = requestBodyText(body)
    const first = await this.send('createPet', 'POST', '/pets', authorization, text, contentType, 'octets' in body)
    if (first.failure?.kind !== 'dropped') return first
    const unprocessed = await createNotProcessed((status) => this.listPets({ status, limit: 100 }), text, PET_STATUSES)
    if (!unprocessed.sure) return { ...first, failure: { ...first.failure, message: `${first.failure.message}; not sent again: ${unprocessed.why}` } }
    const again = await this.send('createPet', 'POST', '/pets', authorization, text, contentType, 'octets' in body, true)
    if (again.response && first.failure.unreportedClose) this.client.confirmLostToClose(first.failure.unreportedClose)
    return { ...again, retries: [{ failure: `${first.failure.message}; ${unprocessed.why}, so it was sent again on a connection of its own`, waitedMs: 0 }, ...again.retries] }
  }

  async getPet(petId: string | bigint, authorization?: Authorization): Promise<OperationExchange> {
    const read = () => this.send('getPet', 'GET', `/pets/${encodeURIComponent(String(petId))}`, authorization)
    const first = await read()
    return this.patience && authorization === undefined ? this.patience.settle(petId, first, read) : first
  }

  /** For the auth probes: exactly these headers (no key unless they carry it) and this path, as written. */
  async probe(request: ProbeRequest): Promise<OperationExchange> {
    const operation = request.as === 'probe' ? 'GET (other spellings of the paths)' : OPERATION_ROUTES[request.as]
    const exchange = await this.track(
      `GET ${request.path}`,
      this.client.send({ method: 'GET', path: request.path, pathAsIs: true, headers: probeHeaders(request.headers), operation }),
    )
    const tagged: OperationExchange = { ...exchange, operation: request.as }
    this.onExchange(tagged)
    return tagged
  }

  /**
   * A request written octet for octet (an edited one, see lib/http/wire-heads.ts): `as` the operation its path
   * names, or a probe; `operation` the words its timeouts are counted under.
   */
  async wire(
    request: { method: string; target: string; head: string; body?: string; fields: Record<string, string>; keptAlive?: boolean },
    as: ExchangeKind,
    operation: string,
  ): Promise<OperationExchange> {
    const exchange = await this.track(
      `${request.method} ${request.target}`,
      this.client.send({
        method: request.method,
        path: request.target,
        headers: request.fields,
        wire: request.head,
        ...(request.keptAlive ? { wireKeptAlive: true } : {}),
        ...(request.body !== undefined ? { body: request.body, bodyIsOctets: true } : {}),
        operation,
      }),
    )
    const tagged: OperationExchange = { ...exchange, operation: as }
    this.patience?.saw(tagged)
    this.onExchange(tagged)
    return tagged
  }

  private async send(
    operation: Operation,
    method: 'GET' | 'POST',
    path: string,
    authorization: Authorization,
    body?: string,
    contentType: string | null = 'application/json',
    bodyIsOctets = false,
    freshConnection = false,
  ): Promise<OperationExchange> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (authorization === undefined) headers.authorization = `Bearer ${this.apiKey}`
    else if (authorization !== null) headers.authorization = authorization(this.apiKey)
    if (body !== undefined && contentType !== null) headers['content-type'] = contentType
    const exchange = await this.track(
      `${method} ${path}`,
      this.client.send({
        method,
        path,
        headers,
        ...(body !== undefined ? { body, bodyIsOctets } : {}),
        operation: OPERATION_ROUTES[operation],
        ...(freshConnection ? { freshConnection: true as const } : {}),
      }),
    )
    const tagged: OperationExchange = { ...exchange, operation }
    this.patience?.saw(tagged)
    this.onExchange(tagged)
    return tagged
  }
}
