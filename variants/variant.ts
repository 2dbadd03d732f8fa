/** A variant of the reference: one named deviation (a fault) or one unusual but conformant behaviour. */
import type { RequirementId } from '../lib/catalogue.js'
import { type JsonValue, parseJson, stringifyJson } from '../lib/json.js'
import { createReferenceHandler } from '../reference/handler.js'
import type { Handler, ServiceResponse } from '../reference/http-types.js'
import { PetStore } from '../reference/pet-store.js'
import { type RunningServer, startServer } from '../reference/server.js'

export interface VariantContext {
  apiKey: string
  store: PetStore
}

export interface Variant {
  name: string
  description: string
  /** For a fault: the requirements that must fail because of it (at least one of them must). */
  catches?: RequirementId[]
  wrap: (reference: Handler, context: VariantContext) => Handler
}

/** The same answer with its JSON body rewritten. */
export function mapJsonBody(response: ServiceResponse, map: (body: JsonValue) => unknown): ServiceResponse {
  const parsed = parseJson(response.body)
  return parsed.ok ? { ...response, body: stringifyJson(map(parsed.value)) } : response
}

export async function startVariant(variant: Variant | undefined, context: VariantContext): Promise<RunningServer> {
  const reference = createReferenceHandler(context)
  return startServer(variant ? variant.wrap(reference, context) : reference)
}

export function emptyStore(): PetStore {
  return new PetStore()
}
