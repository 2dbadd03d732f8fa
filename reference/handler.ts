/**
 * The reference implementation of the Pet Store interface v1: conformant to the spec and to every
 * decision of the conformance policy (400 for invalid parameters, WWW-Authenticate on 401, exact int64).
 */
import { timingSafeEqual } from 'node:crypto'
import { exactInteger, isInt64 } from '../lib/http/int64.js'
import { isJsonObject, JsonNumber, type JsonValue, parseJson, stringifyJson, toPlain } from '../lib/http/json.js'
import { isPetStatus } from '../lib/spec/petstore-api.js'
import { schemaViolations } from '../lib/spec/schemas.js'
import { BASE_PATH, type Handler, type ServiceRequest, type ServiceResponse } from './http-types.js'
import { type PetStatus, PetStore, type StoredPet } from './pet-store.js'

export interface ReferenceOptions {
  apiKey: string
  store?: PetStore
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ServiceResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: stringifyJson(body) }
}

export function errorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): ServiceResponse {
  return json(status, { code, message, status }, headers)
}

export function petBody(pet: StoredPet): Record<string, unknown> {
  return { ...pet.extra, id: pet.id, name: pet.name, categoryId: pet.categoryId, ...(pet.status ? { status: pet.status } : {}) }
}

/** Each stored pet's JSON text, written once: the store replaces a pet it changes, it never edits one in place. */
const petTexts = new WeakMap<StoredPet, string>()

function petJson(pet: StoredPet): string {
  let text = petTexts.get(pet)
  if (text === undefined) {
    text = stringifyJson(petBody(pet))
    petTexts.set(pet, text)
  }
  return text
}

/** An answer whose body is JSON text already written. */
function jsonText(status: number, body: string): ServiceResponse {
  return { status, headers: { 'content-type': 'application/json' }, body }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The Bearer token of an Authorization header (scheme in any letter case, RFC 9110 §11.1), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*) +(\S+) *$/.exec(header ?? '')
  return match && match[1]?.toLowerCase() === 'bearer' ? match[2] : undefined
}

function unauthorized(request: ServiceRequest): ServiceResponse {
  const challenge = request.headers.authorization === undefined ? 'Bearer realm="petstore"' : 'Bearer realm="petstore", error="invalid_token"'
  return errorResponse(401, 'unauthorized', 'the API key is missing or invalid', { 'www-authenticate': challenge })
}

function listPets(store: PetStore, query: URLSearchParams): ServiceResponse {
  const limitText = query.get('limit')
  let limit = 20
  if (limitText !== null) {
    const value = /^\d{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN
    if (!(value >= 1 && value <= 100)) return errorResponse(400, 'invalid_limit', 'limit must be an integer from 1 to 100')
    limit = value
  }
  const status = query.get('status')
  if (status !== null && !isPetStatus(status)) return errorResponse(400, 'invalid_status', 'status must be one of available, pending, sold')
  return jsonText(
    200,
    `[${store
      .list({ limit, ...(isPetStatus(status) ? { status } : {}) })
      .map(petJson)
      .join(',')}]`,
  )
}

function createPet(store: PetStore, body: string): ServiceResponse {
  if (body.trim() === '') return errorResponse(400, 'invalid_body', 'the body is empty')
  const parsed = parseJson(body)
  if (!parsed.ok) return errorResponse(400, 'invalid_body', `the body is not JSON: ${parsed.error}`)
  const violations = schemaViolations('NewPet', parsed.value)
  if (violations.length > 0) return errorResponse(400, 'invalid_body', violations.map((v) => `${v.path} ${v.message}`).join('; '))
  const fields = parsed.value as { [key: string]: JsonValue }
  const { name, categoryId, status, id: _ignoredId, ...extra } = fields
  const pet = store.add({
    name: name as string,
    categoryId: (categoryId as JsonNumber).integer as bigint,
    ...(typeof status === 'string' ? { status: status as PetStatus } : {}),
    extra: Object.fromEntries(
      Object.entries(extra).map(([key, value]) => [key, value instanceof JsonNumber || isJsonObject(value) || Array.isArray(value) ? value : toPlain(value)]),
    ),
  })
  return jsonText(201, petJson(pet))
}

function getPet(store: PetStore, petIdText: string): ServiceResponse {
  const petId = /^-?\d+$/.test(petIdText) ? exactInteger(petIdText) : undefined
  if (petId === undefined || !isInt64(petId)) return errorResponse(400, 'invalid_pet_id', 'petId must be an int64 integer')
  const pet = store.get(petId)
  return pet ? jsonText(200, petJson(pet)) : errorResponse(404, 'not_found', `no pet with id ${petIdText}`)
}

/** A path segment with its escapes decoded; undefined for a broken escape (`%1`) or one that is not UTF-8. */
export function decodedSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

export function createReferenceHandler(options: ReferenceOptions): Handler {
  const store = options.store ?? new PetStore()
  return async (request) => {
    // Outside the base path there is no interface: the server's own 404, before any key is read.
    if (request.outside) return errorResponse(404, 'not_found', `the interface is under ${BASE_PATH}`)
    const token = bearerToken(request.headers.authorization)
    if (token === undefined || !sameSecret(token, options.apiKey)) return unauthorized(request)
    // Paths are case-sensitive (RFC 3986 §6.2.2.1 normalises only the scheme and host): /V1 is no path of the interface.
    if (request.basePath !== undefined && request.basePath !== BASE_PATH) return errorResponse(404, 'not_found', `the interface is under ${BASE_PATH}`)
    // HEAD is GET without content (RFC 9110 §9.3.2): the server writes no body to it.
    const reads = request.method === 'GET' || request.method === 'HEAD'
    if (request.path === '/pets') {
      if (reads) return listPets(store, request.query)
      if (request.method === 'POST') return createPet(store, request.body)
      return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed on /pets`, { allow: 'GET, HEAD, POST' })
    }
    const match = /^\/pets\/([^/]+)$/.exec(request.path)
    if (match?.[1] !== undefined) {
      if (!reads) return errorResponse(405, 'method_not_allowed', `${request.method} is not allowed on /pets/{petId}`, { allow: 'GET, HEAD' })
      const petIdText = decodedSegment(match[1])
      return petIdText === undefined ? errorResponse(400, 'invalid_pet_id', 'petId holds a broken percent-escape') : getPet(store, petIdText)
    }
    return errorResponse(404, 'not_found', `no operation at ${request.path}`)
  }
}
