/**
 * What the rules of each operation of the spec say of an edited request that names it (policy §2, §2b): an id that
 * is a decimal integer names a pet, one in another notation is refused or read leniently; a list is held to the list
 * rules for the limit and the filter it asked for; a create's body is a valid NewPet, an invalid one, or one the
 * policy leaves to the service (a media type, a coding, text that is not Unicode, a parser's limits).
 */
import { classifyNewPet } from '../data/new-pet-oracle.js'
import { integerField, isJsonObject, nestingDepth, parseJson } from '../http/json.js'
import { fieldValues, type WireField } from '../http/wire-reading.js'
import type { RequirementId } from '../spec/catalogue.js'
import { isPetStatus } from '../spec/petstore-api.js'
import type { RuleSourceId } from '../spec/rule-sources.js'
import type { Edit } from './edit-operators.js'
import { decodedUriPart, hasRepeatedName, mediaTypeOf } from './request-meaning.js'

/**
 * The rules of one answer beyond the invariants every answer is held to (incidental-checks.ts). Each names its
 * source (a policy row, the spec, an RFC section: lib/spec/rule-sources.ts) and takes its level from it; a judgement
 * charged to a requirement is charged to one of that level.
 */
export type Judgement = { why: string; source: RuleSourceId } & (
  | { kind: 'plain answer'; requirementId: RequirementId }
  /** HEAD in place of GET: the plain request's status, without content (RFC 9110 §9.3.2). */
  | { kind: 'head'; requirementId: RequirementId }
  | { kind: 'refused'; statuses: readonly number[]; requirementId: RequirementId }
  | { kind: 'no access'; requirementId: RequirementId }
  | { kind: 'pet'; id: bigint }
  | { kind: 'lenient pet'; value: bigint }
  /** `invalidStatus`: the one status value given, decoded, when it is none of the enum (what a lenient reader may still take for one). */
  | { kind: 'list'; limits: readonly bigint[]; status?: string; invalidLimit?: string; invalidStatus?: string }
  | { kind: 'created'; pet: SentPet; requirementId: RequirementId }
  /** 201 with a pet, or one of `statuses` with an Error body: which, the policy leaves open (a media type, a content coding, text that is not Unicode). */
  | { kind: 'created or refused'; statuses: readonly number[]; requirementId: RequirementId }
  | { kind: 'recorded'; requirementId: RequirementId }
  | { kind: 'invariants' }
)

/** The spec's members of a valid NewPet as sent: what a 201 must echo. */
export interface SentPet {
  name: string
  categoryId: bigint
  status?: string
}

/** What the oracle reads of an edited request: its method, path segments, query, fields and body octets. */
export interface ReadRequest {
  method: string
  path: string[]
  query: string | undefined
  fields: readonly WireField[]
  body: string | undefined
}

export function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator)
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)]
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

export function getPetJudgement(idSegment: string): Judgement {
  // A `;` as written starts the segment's parameters (RFC 3986 §3.3), which a servlet container takes off before it
  // routes (Jakarta Servlet's path parameters: Tomcat and Jetty read `30;` and `30;x=1` as 30): a reading of the id,
  // recorded, never another pet than the one it names; a segment of parameters alone names no pet (`;30` is /pets/).
  const parameters = idSegment.indexOf(';')
  if (parameters >= 0) {
    const head = idSegment.slice(0, parameters)
    const read = head === '' ? undefined : getPetJudgement(head)
    if (read === undefined)
      return { kind: 'invariants', source: 'lenient readings', why: `${JSON.stringify(idSegment)} is a segment of parameters alone (RFC 3986 §3.3), /pets/ to a servlet container` }
    if (read.kind === 'pet')
      return {
        kind: 'lenient pet',
        value: read.id,
        source: 'lenient readings',
        why: `${JSON.stringify(idSegment)} is ${read.id} with segment parameters (RFC 3986 §3.3), as a servlet container reads it (INFO)`,
      }
    return read
  }
  const decoded = decodedUriPart(idSegment)
  const reading = decoded === undefined ? undefined : integerReading(decoded)
  if (reading?.kind === 'decimal' && reading.value >= INT64.min && reading.value <= INT64.max) {
    return { kind: 'pet', id: reading.value, source: 'the pet the id names', why: `the id ${reading.value} is a decimal integer: that pet, or 404` }
  }
  if (reading?.kind === 'lenient')
    return { kind: 'lenient pet', value: reading.value, source: 'lenient readings', why: `${JSON.stringify(decoded)} is ${reading.value} in one reading of the spec (INFO)` }
  return {
    kind: 'refused',
    statuses: [400, 404],
    requirementId: 'getPet/other-notations',
    source: 'ids in other notations',
    why: `${JSON.stringify(decoded ?? idSegment)} is not a decimal integer: 400 or 404 with an Error body, never a pet`,
  }
}

export function listJudgement(query: string | undefined): Judgement {
  const parameters = (query ?? '')
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => splitOnce(pair, '='))
    .map(([name, value]) => ({ name: decodedUriPart(name), value: value === undefined ? undefined : decodedUriPart(value) }))
  // A name in an array or map form (`limit[]`, `limit[0]`) beside the plain one is another value of it to PHP, Rack and
  // qs (Express 4 read `limit=7&limit[]=7` as the array ['7', '7']): judged as the name given twice. Alone, it is
  // another parameter (RFC 3986 gives a name no structure), which a service may ignore.
  const named = new Set(parameters.map((parameter) => parameter.name))
  const valuesOf = (wanted: string) =>
    parameters.filter(({ name }) => name === wanted || (named.has(wanted) && /^([^[\]]*)\[/.exec(name ?? '')?.[1] === wanted)).map((parameter) => parameter.value ?? '')
  const limits = valuesOf('limit')
  const statuses = valuesOf('status')
  const readings = limits.map((limit) => integerReading(limit))
  const valid = readings.flatMap((reading) => (reading?.kind === 'decimal' && reading.value >= 1n && reading.value <= 100n ? [reading.value] : []))
  const invalidLimit = limits.length === 1 && valid.length === 0 && readings[0]?.kind !== 'lenient' ? limits[0] : undefined
  const status = statuses.length === 1 && isPetStatus(statuses[0]) ? statuses[0] : undefined
  const invalidStatus = statuses.length === 1 && status === undefined ? statuses[0] : undefined
  return {
    kind: 'list',
    source: 'list rules',
    // One valid limit bounds the list. Several are no value the spec defines: a service may take one of them, or read
    // them as one invalid value (Express reads an array, which a number conversion makes NaN) and serve the page the
    // out-of-range row allows, of up to 100.
    limits: limits.length === 0 ? [20n] : limits.length === 1 && valid.length === 1 ? valid : [],
    ...(status ? { status } : {}),
    ...(invalidLimit !== undefined ? { invalidLimit } : {}),
    ...(invalidStatus !== undefined ? { invalidStatus } : {}),
    why: `GET /pets with limit ${limits.length ? limits.map((limit) => JSON.stringify(limit)).join(' and ') : 'absent'} and status ${statuses.length ? statuses.map((value) => JSON.stringify(value)).join(' and ') : 'absent'}`,
  }
}

export function createJudgement(request: ReadRequest, edit: Edit): Judgement {
  if (edit.field?.name === 'Content-Encoding')
    return {
      kind: 'created or refused',
      statuses: [400, 415],
      requirementId: 'createPet/content-encoding',
      source: 'request content codings',
      why: `Content-Encoding: ${edit.field.value}${edit.field.codesBody ? ' on a gzipped body' : ' on a body without that coding'}`,
    }
  if (edit.operator === 'add-field' && edit.field?.meaning === 'may change')
    return { kind: 'invariants', source: 'fields that may change the answer', why: `${edit.field.name} may change the answer (RFC 9110)` }
  const contentTypes = fieldValues(request.fields, 'content-type')
  const type = contentTypes.length === 1 ? mediaTypeOf(contentTypes[0] as string) : undefined
  if (contentTypes.length > 1) return { kind: 'invariants', source: 'a field given twice', why: 'Content-Type is given twice' }
  // application/json with any parameters is JSON (policy §2, equivalent spellings).
  if (type === undefined || !/^application\/json(;|$)/.test(type))
    return {
      kind: 'created or refused',
      statuses: [400, 415],
      requirementId: 'createPet/request-media-types',
      source: 'request media types',
      why: `the body is labelled ${contentTypes[0] ?? 'with no Content-Type'}: 415 or 400 with an Error body, or 201 for a valid NewPet as JSON text`,
    }
  const octets = request.body ?? ''
  const text = new TextDecoder('utf-8', { fatal: false }).decode(Buffer.from(octets, 'latin1'))
  if (Buffer.from(text, 'utf8').toString('latin1') !== octets) {
    return {
      kind: 'created or refused',
      statuses: [400],
      requirementId: 'createPet/ill-formed-text',
      source: 'text that is not Unicode',
      why: 'the body is not UTF-8: 400 with an Error body, or 201 with the name read back the same (INFO: which)',
    }
  }
  if (edit.corpus === 'i_' || edit.corpus === 'y_')
    return {
      kind: 'recorded',
      requirementId: 'createPet/json-implementation-limits',
      source: 'parser limits',
      why: `${edit.label}: RFC 8259 §9 lets a parser take or refuse it (INFO)`,
    }
  if (nestingDepth(text, 64) > 64) {
    return {
      kind: 'recorded',
      requirementId: 'createPet/json-implementation-limits',
      source: 'parser limits',
      why: 'a valid NewPet with a member nested past 64 levels: 201, or 400 or 413 where the parser sets a limit (RFC 8259 §9)',
    }
  }
  if (hasRepeatedName(text)) return { kind: 'invariants', source: 'member names given twice', why: 'a member name is written twice (RFC 8259 §4 leaves the result open)' }
  const classification = classifyNewPet(text)
  if (!classification.valid)
    return {
      kind: 'refused',
      statuses: [400],
      requirementId: 'createPet/invalid-body-400',
      source: 'invalid NewPet',
      why: `not a valid NewPet (${classification.rules.join(', ')}): exactly 400 with an Error body`,
    }
  const parsed = parseJson(text)
  const body = parsed.ok && isJsonObject(parsed.value) ? parsed.value : {}
  const pet: SentPet = { name: String(body.name), categoryId: integerField(body.categoryId) ?? 0n, ...(typeof body.status === 'string' ? { status: body.status } : {}) }
  return { kind: 'created', pet, requirementId: 'createPet/echoes-fields', source: 'created pet', why: 'a valid NewPet: 201 with the pet as sent' }
}
