/**
 * A variant of the reference: a fault (one named deviation from the spec or the policy) or a conformant
 * look-alike (an unusual behaviour the spec allows). Variants wrap the reference handler, so each differs
 * from a conformant implementation in exactly what it declares.
 */

import { isJsonObject, JsonNumber, type JsonValue, parseJson, stringifyJson } from '../lib/http/json.js'
import type { OperatorId } from '../lib/settings/settings.js'
import type { RequirementId } from '../lib/spec/catalogue.js'
import { isPetStatus } from '../lib/spec/petstore-api.js'
import { bearerToken, createReferenceHandler, errorResponse, json, petBody } from '../reference/handler.js'
import type { Handler, ServiceRequest, ServiceResponse } from '../reference/http-types.js'
import type { PetStore } from '../reference/pet-store.js'
import { type RunningServer, type ServerOptions, type ServerTls, startServer } from '../reference/server.js'

export interface VariantContext {
  apiKey: string
  store: PetStore
}

export interface Variant {
  name: string
  description: string
  /** For a fault: the requirements that must catch it (at least one must fail, or warn for a SHOULD). */
  catches?: RequirementId[]
  /** For a fault: no requirement but those of `catches` may fail or warn (a fault other rules once took the blame for). */
  onlyCatches?: true
  /** For a look-alike: SHOULD requirements it may warn on (it must never fail one). */
  allowedWarnings?: RequirementId[]
  /**
   * Only an edit of the neighbourhood shows it (policy §2b), one of these operators': the score applies them on every
   * part (the whole plan of those operators), not a sample of every operator.
   */
  provenByEdits?: readonly OperatorId[]
  /** The store the variant starts with, when it is not the empty reference store. */
  store?: () => PetStore
  /** Shows only when the lists show the whole store before the run writes (a fresh build's): scored from its own store, not one of 110 pets. */
  freshStore?: true
  /** How its server runs: every path handed to the variant (an edge in front answers outside the base path), a short keep-alive. */
  server?: Pick<ServerOptions, 'everyPath' | 'keepAliveTimeoutMs' | 'idleCloseMs' | 'closeOnParseError' | 'continuesPerExpect' | 'bareCrEndsLines' | 'contentLengthRead'>
  wrap: (reference: Handler, context: VariantContext) => Handler
}

/** The same answer with its JSON body rewritten. */
export function mapJsonBody(response: ServiceResponse, map: (body: JsonValue) => unknown): ServiceResponse {
  const parsed = parseJson(response.body)
  return parsed.ok ? { ...response, body: stringifyJson(map(parsed.value)) } : response
}

/** The same answer with one more (or a replaced) header. */
export function withHeader(response: ServiceResponse, name: string, value: string): ServiceResponse {
  return { ...response, headers: { ...response.headers, [name]: value } }
}

/** The request as if it carried the valid key: what a fault that skips auth hands to the reference. */
export function withValidKey(request: ServiceRequest, apiKey: string): ServiceRequest {
  return { ...request, headers: { ...request.headers, authorization: `Bearer ${apiKey}` } }
}

/** The request carries the key, as the reference reads a Bearer token: what a service checks before it reads anything else. */
export function authorised(request: ServiceRequest, apiKey: string): boolean {
  return bearerToken(request.headers.authorization) === apiKey
}

/** The field names as they came, in their own letter case, once per line (Node's rawHeaders). */
export const fieldNamesAsSent = (request: ServiceRequest): string[] => (request.rawHeaders ?? []).filter((_, index) => index % 2 === 0)

/** The values of every line of the field `name` (any letter case), in the order they came (Node's rawHeaders). */
export const fieldValuesAsSent = (request: ServiceRequest, name: string): string[] =>
  fieldNamesAsSent(request).flatMap((sent, line) => (sent.toLowerCase() === name ? [request.rawHeaders?.[2 * line + 1] ?? ''] : []))

/** The `name=value` pairs of the request's Cookie field. */
export const cookiePairs = (request: ServiceRequest): string[] => (request.headers.cookie ?? '').split(/;\s*/)

/** Whether the request's body is over `bytes` octets. */
export const bodyOver = (request: ServiceRequest, bytes: number): boolean => (request.octets?.length ?? Buffer.byteLength(request.body)) > bytes

export const isListPets = (request: ServiceRequest) => !request.outside && request.method === 'GET' && request.path === '/pets'
export const isCreatePet = (request: ServiceRequest) => !request.outside && request.method === 'POST' && request.path === '/pets'
export const isGetPet = (request: ServiceRequest) => !request.outside && request.method === 'GET' && /^\/pets\/[^/]+$/.test(request.path)

/** The reference, with every answer passed through `map` (given the request it answers). */
export function mapAnswers(map: (answer: ServiceResponse, request: ServiceRequest) => ServiceResponse): Variant['wrap'] {
  return (reference) => async (request) => map(await reference(request), request)
}

export type Fields = { [key: string]: JsonValue }

/** The same answer without a header (its name in lower case). */
export function withoutHeader(response: ServiceResponse, name: string): ServiceResponse {
  const { [name]: _dropped, ...headers } = response.headers
  return { ...response, headers }
}

/** The reference, with each pet in the `status` answers of matching requests rewritten (a list's pets one by one). */
export function rewritePets(matches: (request: ServiceRequest) => boolean, status: number, rewrite: (pet: Fields) => unknown): Variant['wrap'] {
  const one = (value: JsonValue) => (isJsonObject(value) ? rewrite(value) : value)
  return mapAnswers((answer, request) => (matches(request) && answer.status === status ? mapJsonBody(answer, (body) => (Array.isArray(body) ? body.map(one) : one(body))) : answer))
}

/** The reference, with each POST /pets body object passed through `rewrite` before the reference reads it. */
export function rewritingNewPet(rewrite: (fields: Fields) => Fields): Variant['wrap'] {
  return (reference) => async (request) => {
    if (!isCreatePet(request)) return reference(request)
    const parsed = parseJson(request.body)
    if (!parsed.ok || !isJsonObject(parsed.value)) return reference(request)
    return reference({ ...request, body: stringifyJson(rewrite(parsed.value)) })
  }
}

/** An auth fault: requests for which `accepts` holds are answered as if they carried the valid key. */
export function acceptedAsValid(accepts: (request: ServiceRequest, apiKey: string) => boolean): Variant['wrap'] {
  return (reference, { apiKey }) =>
    async (request) =>
      reference(accepts(request, apiKey) ? withValidKey(request, apiKey) : request)
}

/** The same request without one query parameter. */
export function withoutParameter(request: ServiceRequest, name: string): ServiceRequest {
  const query = new URLSearchParams(request.query)
  query.delete(name)
  return { ...request, query }
}

/** A limit the reference accepts: an integer from 1 to 100, written plainly. */
export const isValidLimit = (text: string) => /^(100|[1-9]\d?)$/.test(text)

/** The id of a 201 answer's pet, when it has one. */
export function createdId(answer: ServiceResponse): bigint | undefined {
  if (answer.status !== 201) return undefined
  const parsed = parseJson(answer.body)
  return parsed.ok && isJsonObject(parsed.value) && parsed.value.id instanceof JsonNumber ? parsed.value.id.integer : undefined
}

/**
 * A store read from replicas that lag behind its writes: a pet created less than `getMs` ago is missing from
 * GET /pets/{id} (404), and one created less than `listMs` ago from every list (which still fills its page
 * from older pets). The two replicas may lag by different amounts: a list can show a pet its GET cannot find yet.
 */
export function lagsBehindWrites(getMs: number, listMs = getMs): Variant['wrap'] {
  return (reference, { store }) => {
    const createdAt = new Map<bigint, number>()
    const visibleAfter = (ms: number) => (pet: { id: bigint }) => Date.now() - (createdAt.get(pet.id) ?? 0) >= ms
    const visibleToGet = visibleAfter(getMs)
    const visibleToLists = visibleAfter(listMs)
    return async (request) => {
      const answer = await reference(request)
      const id = isCreatePet(request) ? createdId(answer) : undefined
      if (id !== undefined) createdAt.set(id, Date.now())
      if (answer.status !== 200) return answer
      if (isGetPet(request)) {
        const pet = store.get(BigInt(request.path.split('/')[2] ?? '0'))
        return pet && !visibleToGet(pet) ? errorResponse(404, 'not_found', 'no such pet') : answer
      }
      if (!isListPets(request) || listMs === 0) return answer
      const status = request.query.get('status')
      const limit = request.query.has('limit') ? Number(request.query.get('limit')) : 20
      return json(200, store.list({ limit, visible: visibleToLists, ...(isPetStatus(status) ? { status } : {}) }).map(petBody))
    }
  }
}

export async function startVariant(variant: Variant | undefined, context: VariantContext, tls?: ServerTls): Promise<RunningServer> {
  const reference = createReferenceHandler(context)
  return startServer(variant ? variant.wrap(reference, context) : reference, '127.0.0.1', tls, variant?.server ?? {})
}
