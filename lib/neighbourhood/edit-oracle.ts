/**
 * What the policy requires of the answer to an edited request, worked out from the request as it went on the
 * wire, never from the edit's name: so an octet, a notation or a field nobody listed is judged by the same rules
 * as the ones somebody did. In order: whether HTTP refuses the message as written (the HTTP layer may then answer
 * 400 on its own or close the connection); whether the request carries the key; whether it means what the plain
 * request means (then it gets the plain answer); and otherwise what the request names: an operation of the spec
 * with its own rules for the id, the list parameters and the body, or a path the spec does not name.
 */
import { classifyNewPet } from '../data/new-pet-oracle.js'
import { integerField, isJsonObject, nestingDepth, parseJson } from '../http/json.js'
import type { RequirementId } from '../spec/catalogue.js'
import { isPetStatus, type Operation } from '../spec/petstore-api.js'
import type { Edit } from './edit-operators.js'
import { FIELD_DICTIONARY } from './field-dictionary.js'
import { decodedUriPart, hasRepeatedName, type MeaningInput, meaningOf, mediaTypeOf, RELAXATIONS, type Relaxation } from './request-meaning.js'
import { fieldValues, type KeyState, keyOfWire, readWire } from './wire-reading.js'

/** The rules of one answer beyond the invariants every answer is held to (incidental-checks.ts). */
export type Judgement =
  | { kind: 'plain answer'; level: 'MUST' | 'SHOULD'; requirementId: RequirementId; why: string }
  | { kind: 'refused'; statuses: readonly number[]; requirementId: RequirementId; why: string }
  | { kind: 'no access'; requirementId: RequirementId; why: string }
  | { kind: 'pet'; id: bigint; why: string }
  | { kind: 'lenient pet'; value: bigint; why: string }
  | { kind: 'list'; limits: readonly bigint[]; status?: string; invalidLimit?: string; invalidStatus?: boolean; why: string }
  | { kind: 'created'; pet: SentPet; level: 'MUST' | 'SHOULD'; requirementId: RequirementId; why: string }
  | { kind: 'media type'; why: string }
  | { kind: 'content coding'; why: string }
  | { kind: 'recorded'; requirementId: RequirementId; why: string }
  | { kind: 'invariants'; why: string }

/** The spec's members of a valid NewPet as sent: what a 201 must echo. */
export interface SentPet {
  name: string
  categoryId: bigint
  status?: string
}

export interface Expectation {
  key: KeyState
  /** Why HTTP refuses the message as written: a 400 of the HTTP layer's own, or a closed connection, answers it. */
  invalidMessage?: string
  /** A method the spec does not name: 405, or 501 (RFC 9110 §9.1), answers it. */
  otherMethod: boolean
  route?: Operation
  /** The path is under the base URL's own path (a path the service answers for, whether or not the spec names it). */
  underBase: boolean
  judgement: Judgement
}

export interface OracleContext {
  apiKey: string
  /** The base URL's own segments (`v1`). */
  baseSegments: readonly string[]
}

const MEANINGLESS = new Set(FIELD_DICTIONARY.filter((field) => field.meaning === 'no meaning').map((field) => field.name.toLowerCase()))

const RELAXATION_RULE: Record<Relaxation, RequirementId> = {
  'fixed segments decoded': 'listPets/path-spelling-equivalent',
  'scheme in any case': 'auth/scheme-case-insensitive',
  'fields without meaning ignored': 'responses/meaningless-fields-ignored',
  'host in any case': 'responses/meaningless-fields-ignored',
}

const EQUIVALENT_RULE: Record<Operation, RequirementId> = {
  listPets: 'listPets/equivalent-spellings',
  getPet: 'getPet/equivalent-spellings',
  createPet: 'createPet/equivalent-spellings',
}

interface ReadRequest {
  method: string
  path: string[]
  query: string | undefined
  fields: ReturnType<typeof readWire>['fields']
  body: string | undefined
}

function readRequest(head: string, body: string | undefined): ReadRequest & { invalid?: string } {
  const wire = readWire(head)
  const [path = '', query] = splitOnce(wire.target, '?')
  return { method: wire.method, path: path.split('/').slice(1), query, fields: wire.fields, body, ...(wire.invalid ? { invalid: wire.invalid } : {}) }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator)
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)]
}

/** The operation a path and method name under the spec's reading (escapes of unreserved octets decoded), and the id segment. */
function routeOf(request: ReadRequest, base: readonly string[]): { route?: Operation; idSegment?: string } {
  const decoded = request.path.map((segment) => decodedUriPart(segment))
  const fixed = [...base, 'pets']
  const matches = fixed.every((segment, index) => decoded[index] === segment)
  if (!matches || request.path.some((segment) => segment.includes('#'))) return {}
  if (decoded.length === fixed.length) return request.method === 'POST' ? { route: 'createPet' } : request.method === 'GET' ? { route: 'listPets' } : {}
  // An empty segment is no petId (`/pets/` is a spelling of the list's path the spec does not name).
  const idSegment = request.path[fixed.length]
  if (decoded.length === fixed.length + 1 && request.method === 'GET' && idSegment) return { route: 'getPet', idSegment }
  return {}
}

function meaningInput(request: ReadRequest, context: OracleContext): MeaningInput {
  const fixedCount = context.baseSegments.length + 1
  return {
    method: request.method,
    segments: request.path.map((text, index) => ({ text, fixed: index < fixedCount })),
    query: request.query,
    fields: request.fields,
    body: request.body,
    apiKey: context.apiKey,
    meaningless: MEANINGLESS,
  }
}

/** The strict reading first; then each relaxation alone: the rule a difference is charged to. */
function sameMeaning(plain: MeaningInput, edited: MeaningInput): { level: 'MUST' } | { level: 'SHOULD'; relaxation: Relaxation } | undefined {
  if (meaningOf(plain, new Set()) === meaningOf(edited, new Set())) return { level: 'MUST' }
  for (const relaxation of RELAXATIONS) {
    if (meaningOf(plain, new Set([relaxation])) === meaningOf(edited, new Set([relaxation]))) return { level: 'SHOULD', relaxation }
  }
  return undefined
}

/** How a text reads as an integer: `decimal` under every reading, `lenient` under one (a sign, leading zeros, a JSON number), or none. */
export function integerReading(text: string): { kind: 'decimal' | 'lenient'; value: bigint } | undefined {
  if (/^(0|-?[1-9]\d*)$/.test(text)) return { kind: 'decimal', value: BigInt(text) }
  if (/^[+-]?\d+$/.test(text)) return { kind: 'lenient', value: BigInt(text) }
  const number = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text)
  if (!number) return undefined
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = number
  const exponent = Number(exponentText)
  if (Math.abs(exponent) > 40) return undefined
  const digits = `${whole}${fraction}`
  const scale = exponent - fraction.length
  if (scale >= 0) return { kind: 'lenient', value: BigInt(`${sign}${digits}${'0'.repeat(scale)}`) }
  const cut = digits.slice(0, digits.length + scale)
  return /^0*$/.test(digits.slice(digits.length + scale)) ? { kind: 'lenient', value: BigInt(`${sign}${cut || '0'}`) } : undefined
}

const INT64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n }

function getPetJudgement(idSegment: string): Judgement {
  const decoded = decodedUriPart(idSegment)
  const reading = decoded === undefined ? undefined : integerReading(decoded)
  if (reading?.kind === 'decimal' && reading.value >= INT64.min && reading.value <= INT64.max) {
    return { kind: 'pet', id: reading.value, why: `the id ${reading.value} is a decimal integer: that pet, or 404` }
  }
  if (reading?.kind === 'lenient') return { kind: 'lenient pet', value: reading.value, why: `${JSON.stringify(decoded)} is ${reading.value} in one reading of the spec (INFO)` }
  return {
    kind: 'refused',
    statuses: [400, 404],
    requirementId: 'getPet/other-notations',
    why: `${JSON.stringify(decoded ?? idSegment)} is not a decimal integer: 400 or 404 with an Error body, never a pet`,
  }
}

/** The largest of some integers (at least one). */
function largestOf(values: readonly bigint[]): bigint {
  let largest = values[0] ?? 0n
  for (const value of values) if (value > largest) largest = value
  return largest
}

function listJudgement(query: string | undefined): Judgement {
  const parameters = (query ?? '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => splitOnce(pair, '='))
    .map(([name, value]) => ({ name: decodedUriPart(name), value: value === undefined ? undefined : decodedUriPart(value) }))
  const limits = parameters.filter((parameter) => parameter.name === 'limit').map((parameter) => parameter.value ?? '')
  const statuses = parameters.filter((parameter) => parameter.name === 'status').map((parameter) => parameter.value ?? '')
  const readings = limits.map((limit) => integerReading(limit))
  const valid = readings.flatMap((reading) => (reading?.kind === 'decimal' && reading.value >= 1n && reading.value <= 100n ? [reading.value] : []))
  const invalidLimit = limits.length === 1 && valid.length === 0 && readings[0]?.kind !== 'lenient' ? limits[0] : undefined
  const status = statuses.length === 1 && isPetStatus(statuses[0]) ? statuses[0] : undefined
  return {
    kind: 'list',
    // Several limits: the list is within the largest a service may have taken, when every one is valid.
    limits: limits.length === 0 ? [20n] : valid.length === limits.length ? [largestOf(valid)] : [],
    ...(status ? { status } : {}),
    ...(invalidLimit !== undefined ? { invalidLimit } : {}),
    ...(statuses.length === 1 && !status ? { invalidStatus: true } : {}),
    why: `GET /pets with limit ${limits.length ? limits.map((limit) => JSON.stringify(limit)).join(' and ') : 'absent'} and status ${statuses.length ? statuses.map((value) => JSON.stringify(value)).join(' and ') : 'absent'}`,
  }
}

function createJudgement(request: ReadRequest, edit: Edit): Judgement {
  if (edit.field?.name === 'Content-Encoding')
    return { kind: 'content coding', why: `Content-Encoding: ${edit.field.value}${edit.field.codesBody ? ' on a gzipped body' : ' on a body without that coding'}` }
  if (edit.operator === 'add-field' && edit.field?.meaning === 'may change') return { kind: 'invariants', why: `${edit.field.name} may change the answer (RFC 9110)` }
  const contentTypes = fieldValues(request.fields, 'content-type')
  const type = contentTypes.length === 1 ? mediaTypeOf(contentTypes[0] as string) : undefined
  if (contentTypes.length > 1) return { kind: 'invariants', why: 'Content-Type is given twice' }
  // application/json with any parameters is JSON (policy §2, equivalent spellings).
  if (type === undefined || !/^application\/json(;|$)/.test(type)) return { kind: 'media type', why: `the body is labelled ${contentTypes[0] ?? 'with no Content-Type'}` }
  const octets = request.body ?? ''
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(octets, 'latin1'))
  if (Buffer.from(text, 'utf8').toString('latin1') !== octets) {
    return { kind: 'recorded', requirementId: 'createPet/ill-formed-text', why: 'the body is not UTF-8: 400, or 201 with the name read back the same (INFO: which)' }
  }
  if (edit.corpus === 'i_' || edit.corpus === 'y_')
    return { kind: 'recorded', requirementId: 'createPet/json-implementation-limits', why: `${edit.label}: RFC 8259 §9 lets a parser take or refuse it (INFO)` }
  if (nestingDepth(text, 64) > 64) {
    return {
      kind: 'recorded',
      requirementId: 'createPet/json-implementation-limits',
      why: 'a valid NewPet with a member nested past 64 levels: 201, or 400 or 413 where the parser sets a limit (RFC 8259 §9)',
    }
  }
  if (hasRepeatedName(text)) return { kind: 'invariants', why: 'a member name is written twice (RFC 8259 §4 leaves the result open)' }
  const classification = classifyNewPet(text)
  if (!classification.valid)
    return {
      kind: 'refused',
      statuses: [400],
      requirementId: 'createPet/invalid-body-400',
      why: `not a valid NewPet (${classification.rules.join(', ')}): exactly 400 with an Error body`,
    }
  const parsed = parseJson(text)
  const body = parsed.ok && isJsonObject(parsed.value) ? parsed.value : {}
  const pet: SentPet = { name: String(body.name), categoryId: integerField(body.categoryId) ?? 0n, ...(typeof body.status === 'string' ? { status: body.status } : {}) }
  return { kind: 'created', pet, level: 'MUST', requirementId: 'createPet/echoes-fields', why: 'a valid NewPet: 201 with the pet as sent' }
}

/** The rules an edited request's answer is held to, from the plain request and the edited one as written. */
export function expectationOf(plain: { head: string; body?: string }, edited: { head: string; body?: string }, edit: Edit, context: OracleContext): Expectation {
  const plainRequest = readRequest(plain.head, plain.body)
  const request = readRequest(edited.head, edited.body)
  const key = keyOfWire(edited.head, context.apiKey)
  const { route, idSegment } = routeOf(request, context.baseSegments)
  const otherMethod = request.method !== 'GET' && request.method !== 'POST'
  const underBase = context.baseSegments.every((segment, index) => request.path[index] === segment)
  const base = { key, otherMethod, underBase, ...(request.invalid ? { invalidMessage: request.invalid } : {}), ...(route ? { route } : {}) }
  if (key === 'lenient') return { ...base, judgement: { kind: 'invariants', why: 'a lenient reading of the field lines finds the key' } }
  if (key === 'none') {
    const hasField = fieldValues(request.fields, 'authorization').length > 0
    if (route && !request.invalid) {
      return {
        ...base,
        judgement: {
          kind: 'refused',
          statuses: [401],
          requirementId: hasField ? 'auth/key-lookalike-401' : 'auth/missing-key-401',
          why: 'an operation of the spec without a valid key: 401 before every other answer',
        },
      }
    }
    return { ...base, judgement: { kind: 'no access', requirementId: 'auth/no-access-without-key', why: 'no valid key: no 2xx and no pet data' } }
  }
  // A message HTTP refuses as written reaches the service, if at all, as its HTTP layer repaired it: only the invariants judge it.
  if (request.invalid) return { ...base, judgement: { kind: 'invariants', why: `HTTP refuses the message as written (${request.invalid})` } }
  // Authorization takes one credential (RFC 9110 §11.6.2), so a field line of it twice is no list (§5.3): a service may read either line, or refuse.
  if (fieldValues(request.fields, 'authorization').length > 1) {
    return {
      ...base,
      judgement: { kind: 'invariants', why: 'Authorization is given twice, which RFC 9110 does not let a client send: a service may read either line, or refuse the request' },
    }
  }
  const plainRoute = routeOf(plainRequest, context.baseSegments).route
  const same = sameMeaning(meaningInput(plainRequest, context), meaningInput(request, context))
  if (same && plainRoute === 'createPet') {
    const created = createJudgement(request, edit)
    const requirementId = same.level === 'MUST' ? EQUIVALENT_RULE.createPet : RELAXATION_RULE[same.relaxation]
    if (created.kind === 'created') return { ...base, judgement: { ...created, level: same.level, requirementId, why: `the plain request in other words: ${created.why}` } }
  }
  if (same && plainRoute && plainRoute !== 'createPet') {
    const requirementId = same.level === 'MUST' ? EQUIVALENT_RULE[plainRoute] : RELAXATION_RULE[same.relaxation]
    return {
      ...base,
      judgement: {
        kind: 'plain answer',
        level: same.level,
        requirementId,
        why: same.level === 'MUST' ? 'the same request in other words' : `the same request once ${same.relaxation}`,
      },
    }
  }
  if (edit.field?.meaning === 'no meaning' && route === 'createPet') {
    return { ...base, judgement: { kind: 'invariants', why: `${edit.field.name} carries no meaning, and a create is not compared with another` } }
  }
  if (!route) return { ...base, judgement: { kind: 'invariants', why: otherMethod ? 'a method the spec does not name' : 'a path the spec does not name' } }
  if (edit.operator === 'add-field' && edit.field?.meaning === 'may change' && route !== 'createPet') {
    return { ...base, judgement: { kind: 'invariants', why: `${edit.field.name} may change the answer (RFC 9110)` } }
  }
  if (fieldValues(request.fields, 'accept').some((value) => !/json|\*\/\*|application\/\*/i.test(value))) {
    return { ...base, judgement: { kind: 'invariants', why: 'an Accept that may not admit JSON: 406, or the answer in JSON' } }
  }
  if (route === 'getPet') return { ...base, judgement: getPetJudgement(idSegment ?? '') }
  if (route === 'listPets') return { ...base, judgement: listJudgement(request.query) }
  return { ...base, judgement: createJudgement(request, edit) }
}
