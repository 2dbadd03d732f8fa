/**
 * The interface's operations by name, over the HTTP client: each sends its plain request, a model of the spec's
 * vocabulary (operation-requests.ts); a check sends its own edit of one. Knows paths and auth, judges nothing.
 */

import type { HttpClient } from '../http/client.js'
import type { Exchange, OutgoingRequest } from '../http/exchange.js'
import type { KeyedReading } from '../http/wire-reading.js'
import { framedOctets } from './body-framing.js'
import { createNotProcessed } from './lost-creates.js'
import {
  type Authorization,
  clientRequest,
  type ListQuery,
  type OperationCall,
  operationRequest,
  type RequestBody,
  type RequestContext,
  requestBodyText,
} from './operation-requests.js'
import { type ExchangeKind, OPERATION_ROUTES, PET_STATUSES } from './operations.js'
import { fieldLines, type RequestModel, targetOf, type WireRequest } from './request-model.js'

export { type ExchangeKind, isPetStatus, OPERATION_ROUTES, type Operation, PET_STATUSES, type PetStatus } from './operations.js'

export interface OperationExchange extends Exchange {
  operation: ExchangeKind
  /** An edited request's head as the run read it once, before sending it: the reading its oracle judged, which the rules of every answer judge too. */
  reading?: KeyedReading
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

/** The fields of a request as evidence shows them: by name in lower case, a field given twice joined. */
function evidenceFields(model: RequestModel): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const field of fieldLines(model)) {
    const name = field.name.toLowerCase()
    fields[name] = fields[name] === undefined ? field.value : `${fields[name]}, ${field.value}`
  }
  return fields
}

export class PetstoreApi {
  /** The run's shared parts of every request: the base URL, the key, and the client's own fields. */
  private readonly context: RequestContext

  constructor(
    private readonly client: HttpClient,
    private readonly apiKey: string,
    private readonly onExchange: (exchange: OperationExchange) => void = () => {},
    private readonly track: WaitTracker = untracked,
    private readonly patience?: Patience,
  ) {
    this.context = { baseUrl: client.options.baseUrl, apiKey, fields: client.ownFields }
  }

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

  /** The plain request of an operation, as a request model: what a check edits to make a request of its own. */
  request(call: OperationCall, authorization?: Authorization): RequestModel {
    return operationRequest(this.context, call, authorization)
  }

  listPets(query: ListQuery = {}, authorization?: Authorization, { ownConnection = false }: { ownConnection?: boolean } = {}): Promise<OperationExchange> {
    return this.plain(this.request({ operation: 'listPets', query }, authorization), ownConnection)
  }

  /**
   * `contentType`: the label of the body, `application/json` unless a check sends another, or null for none. A create
   * lost on a kept-alive connection the target ended under it is sent once more, on a connection of its own, when the
   * lists show it was not processed (lost-creates.ts); otherwise it stays lost, never sent twice.
   */
  async createPet(body: RequestBody, authorization?: Authorization, contentType: string | null = 'application/json'): Promise<OperationExchange> {
    const request = this.request({ operation: 'createPet', body, contentType }, authorization)
    const first = await this.plain(request)
    if (first.failure?.kind !== 'dropped') return first
    const text = requestBodyText(body)
    const unprocessed = await createNotProcessed((status) => this.listPets({ status, limit: 100 }), text, PET_STATUSES)
    if (!unprocessed.sure) return { ...first, failure: { ...first.failure, message: `${first.failure.message}; not sent again: ${unprocessed.why}` } }
    const again = await this.plain(request, true)
    if (again.response && first.failure.unreportedClose) this.client.confirmLostToClose(first.failure.unreportedClose)
    return { ...again, retries: [{ failure: `${first.failure.message}; ${unprocessed.why}, so it was sent again on a connection of its own`, waitedMs: 0 }, ...again.retries] }
  }

  async getPet(petId: string | bigint, authorization?: Authorization): Promise<OperationExchange> {
    const read = () => this.plain(this.request({ operation: 'getPet', id: petId }, authorization))
    const first = await read()
    return this.patience && authorization === undefined ? this.patience.settle(petId, first, read) : first
  }

  /**
   * A check's own spelling of an operation's request (a model edited from `request`), as the client writes one: `as`
   * the operation its path names, or 'probe' for a spelling the spec does not name. What it is answered teaches the
   * run nothing of the store (a lenient reading may have served it).
   */
  send(request: RequestModel, as: ExchangeKind = request.operation): Promise<OperationExchange> {
    const operation = as === 'probe' ? 'GET (other spellings of the paths)' : OPERATION_ROUTES[as]
    return this.sent(as, clientRequest(request), operation, { learns: false })
  }

  /** An operation's plain request, whose answers the run learns the store from. */
  private plain(request: RequestModel, freshConnection = false): Promise<OperationExchange> {
    return this.sent(request.operation, clientRequest(request), OPERATION_ROUTES[request.operation], { learns: true, ...(freshConnection ? { freshConnection: true } : {}) })
  }

  /**
   * A request written octet for octet (an edited one, see lib/http/wire-heads.ts): `written` its head and body as the
   * model writes them (wireOf), the body framed as its framing says; recorded under the URL of its origin-form target
   * (an absolute-form target's own origin is the target's, and its head says how it was written) with its fields as
   * evidence shows them. `as` the operation its path names, or a probe; `operation` the words its timeouts are counted under.
   */
  wire(request: RequestModel, written: WireRequest & { reading: KeyedReading }, as: ExchangeKind, operation: string, keptAlive = false): Promise<OperationExchange> {
    return this.sent(
      as,
      {
        method: request.method,
        path: targetOf({ ...request, targetForm: 'origin' }),
        headers: evidenceFields(request),
        wire: written.head,
        ...(keptAlive ? { wireKeptAlive: true } : {}),
        ...(written.body !== undefined ? { body: framedOctets(written.body, written.framing), bodyIsOctets: true } : {}),
      },
      operation,
      { learns: true, reading: written.reading },
    )
  }

  private async sent(
    as: ExchangeKind,
    request: Omit<OutgoingRequest, 'operation'>,
    operation: string,
    { learns, freshConnection, reading }: { learns: boolean; freshConnection?: true; reading?: KeyedReading },
  ): Promise<OperationExchange> {
    const exchange = await this.track(`${request.method} ${request.path}`, this.client.send({ ...request, operation, ...(freshConnection ? { freshConnection } : {}) }))
    const tagged: OperationExchange = { ...exchange, operation: as, ...(reading ? { reading } : {}) }
    if (learns) this.patience?.saw(tagged)
    this.onExchange(tagged)
    return tagged
  }
}
