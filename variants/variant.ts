/**
 * A variant of the reference: a fault (one named deviation from the spec or the policy) or a conformant
 * look-alike (an unusual behaviour the spec allows). Variants wrap the reference handler, so each differs
 * from a conformant implementation in exactly what it declares.
 */
import type { RequirementId } from '../lib/catalogue.js'
import { type JsonValue, parseJson, stringifyJson } from '../lib/json.js'
import { createReferenceHandler } from '../reference/handler.js'
import type { Handler, ServiceRequest, ServiceResponse } from '../reference/http-types.js'
import type { PetStore } from '../reference/pet-store.js'
import { type RunningServer, type ServerTls, startServer } from '../reference/server.js'

export interface VariantContext {
  apiKey: string
  store: PetStore
}

export interface Variant {
  name: string
  description: string
  /** For a fault: the requirements that must catch it (at least one must fail, or warn for a SHOULD). */
  catches?: RequirementId[]
  /** For a look-alike: SHOULD requirements it may warn on (it must never fail one). */
  allowedWarnings?: RequirementId[]
  /** The store the variant starts with, when it is not the empty reference store. */
  store?: () => PetStore
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

export const isListPets = (request: ServiceRequest) => request.method === 'GET' && request.path === '/pets'
export const isCreatePet = (request: ServiceRequest) => request.method === 'POST' && request.path === '/pets'
export const isGetPet = (request: ServiceRequest) => request.method === 'GET' && /^\/pets\/[^/]+$/.test(request.path)

/** The reference, with every answer passed through `map` (given the request it answers). */
export function mapAnswers(map: (answer: ServiceResponse, request: ServiceRequest) => ServiceResponse): Variant['wrap'] {
  return (reference) => async (request) => map(await reference(request), request)
}

export async function startVariant(variant: Variant | undefined, context: VariantContext, tls?: ServerTls): Promise<RunningServer> {
  const reference = createReferenceHandler(context)
  return startServer(variant ? variant.wrap(reference, context) : reference, '127.0.0.1', tls)
}
