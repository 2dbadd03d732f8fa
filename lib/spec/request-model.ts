/**
 * A request as a value with parts (policy §2b, the neighbourhood of a request): the method, each path segment
 * (the base URL's own included), each query parameter, each header field (its name and value, the
 * `Authorization` value split into scheme, separator and token) and the body, as JSON members or as text. Every
 * text is octets, one per character (latin1), as it goes on the wire: an edit may put any octet anywhere, and
 * the request is written exactly as its parts say, with nothing normalised.
 */

import { FRAMINGS, type Framing, framingLines } from './body-framing.js'
import type { Operation } from './operations.js'

export { FRAMINGS, type Framing }

export interface Field {
  name: string
  value: string
}

/** `Authorization: Bearer <key>` in its parts. */
export interface Credentials {
  name: string
  scheme: string
  separator: string
  token: string
}

export type SegmentRole = 'base' | 'fixed' | 'id'

export interface Segment {
  role: SegmentRole
  text: string
}

/** A flat JSON object's member: its name as written between the quotes, its value as JSON text. */
export interface Member {
  name: string
  value: string
}

/** The body as members of a flat object (written `{"a":1,"b":2}`), or as text once an edit no longer keeps it one. */
export type Body = { members: Member[] } | { text: string }

/** The request-target's form (RFC 9112 §3.2): origin-form (`/v1/pets`), or absolute-form (`http://host/v1/pets`), which a server MUST accept. */
export type TargetForm = 'origin' | 'absolute'

export interface RequestModel {
  operation: Operation
  method: string
  /** The HTTP version of the request line: `HTTP/1.1`, or `HTTP/1.0`. */
  version: string
  targetForm: TargetForm
  /** The scheme and authority an absolute-form target is written with (`http://127.0.0.1:8080`). */
  origin: string
  /** How the body is framed; a request without a body has none. */
  framing: Framing
  segments: Segment[]
  query: Field[]
  headers: Field[]
  /**
   * Fields the run puts on every request (its User-Agent, the extra headers a gateway needs): sent as they are,
   * never edited (an extra header's value is a secret, and a gateway's key is not the interface's).
   */
  carried: Field[]
  /** None on a plain request without the key; two when an edit gives the field twice. */
  authorization: Credentials[]
  body?: Body
}

export type PartKind =
  | 'method'
  | 'version'
  | 'target form'
  | 'framing'
  | 'segment'
  | 'query name'
  | 'query value'
  | 'header name'
  | 'header value'
  | 'auth name'
  | 'auth scheme'
  | 'auth separator'
  | 'auth token'
  | 'header fields'
  | 'query'
  | 'content'
  | 'body text'
  | 'member name'
  | 'member value'

/** One part of a request: its kind, and which one (the segment, parameter, field or member by its index). */
export interface PartRef {
  kind: PartKind
  index: number
  /** The part in words, stable from run to run: `segment v1`, `query value limit`, `header name Accept`. */
  label: string
}

/** Text as octets: its UTF-8 bytes, one character each. */
export function octetsOf(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1')
}

/** The JSON text of a body. */
export function bodyText(body: Body): string {
  return 'text' in body ? body.text : `{${body.members.map((member) => `"${member.name}":${member.value}`).join(',')}}`
}

/** Every part of a request, in a stable order. */
export function partsOf(model: RequestModel): PartRef[] {
  const parts: PartRef[] = [
    { kind: 'method', index: 0, label: 'method' },
    { kind: 'version', index: 0, label: 'HTTP version' },
    { kind: 'target form', index: 0, label: 'request-target form' },
  ]
  model.segments.forEach((segment, index) => {
    parts.push({ kind: 'segment', index, label: `${segment.role} segment ${segment.role === 'id' ? '{petId}' : segment.text}` })
  })
  model.query.forEach((field, index) => {
    parts.push({ kind: 'query name', index, label: `query name ${field.name}` }, { kind: 'query value', index, label: `query value ${field.name}` })
  })
  // A request without a query (a create, a read of one pet) may still be sent one: the query it lacks is a part too.
  if (model.query.length === 0) parts.push({ kind: 'query', index: 0, label: 'query (none)' })
  model.headers.forEach((field, index) => {
    parts.push({ kind: 'header name', index, label: `header name ${field.name}` }, { kind: 'header value', index, label: `header value ${field.name}` })
  })
  if (model.authorization.length > 0) {
    for (const kind of ['auth name', 'auth scheme', 'auth separator', 'auth token'] as const) parts.push({ kind, index: 0, label: kind.replace('auth', 'Authorization') })
  }
  parts.push({ kind: 'header fields', index: 0, label: 'header fields' })
  // A request without content (a read) may still be sent one: the content it lacks is a part too.
  if (!model.body) parts.push({ kind: 'content', index: 0, label: 'content (none)' })
  if (model.body) {
    parts.push({ kind: 'framing', index: 0, label: 'body framing' }, { kind: 'body text', index: 0, label: 'body text' })
    if ('members' in model.body) {
      model.body.members.forEach((member, index) => {
        parts.push({ kind: 'member name', index, label: `member name ${member.name}` }, { kind: 'member value', index, label: `member value ${member.name}` })
      })
    }
  }
  return parts
}

function cloneBody(body: Body): Body {
  return 'members' in body ? { members: body.members.map((member) => ({ ...member })) } : { text: body.text }
}

/** A copy of a request whose parts can be changed without changing the original's. */
export function clone(model: RequestModel): RequestModel {
  return {
    ...model,
    segments: model.segments.map((segment) => ({ ...segment })),
    query: model.query.map((field) => ({ ...field })),
    headers: model.headers.map((field) => ({ ...field })),
    authorization: model.authorization.map((credentials) => ({ ...credentials })),
    ...(model.body ? { body: cloneBody(model.body) } : {}),
  }
}

const AUTH_PART = { 'auth name': 'name', 'auth scheme': 'scheme', 'auth separator': 'separator', 'auth token': 'token' } as const

export function membersOf(model: RequestModel): Member[] {
  if (!model.body || !('members' in model.body)) throw new Error('the body has no members')
  return model.body.members
}

/** The text of a part (the whole field list, for `header fields`, is none). */
export function readPart(model: RequestModel, part: PartRef): string {
  switch (part.kind) {
    case 'method':
      return model.method
    case 'version':
      return model.version
    case 'target form':
      return model.targetForm
    case 'framing':
      return model.framing
    case 'segment':
      return model.segments[part.index]?.text ?? ''
    case 'query name':
      return model.query[part.index]?.name ?? ''
    case 'query value':
      return model.query[part.index]?.value ?? ''
    case 'header name':
      return model.headers[part.index]?.name ?? ''
    case 'header value':
      return model.headers[part.index]?.value ?? ''
    case 'auth name':
    case 'auth scheme':
    case 'auth separator':
    case 'auth token':
      return model.authorization[0]?.[AUTH_PART[part.kind]] ?? ''
    case 'header fields':
    case 'query':
    case 'content':
      return ''
    case 'body text':
      return model.body ? bodyText(model.body) : ''
    case 'member name':
      return membersOf(model)[part.index]?.name ?? ''
    case 'member value':
      return membersOf(model)[part.index]?.value ?? ''
  }
}

/** The request with one part's text replaced. */
export function writePart(model: RequestModel, part: PartRef, text: string): RequestModel {
  const edited = clone(model)
  const at = <T>(items: T[]): T => {
    const item = items[part.index]
    if (item === undefined) throw new Error(`no ${part.label}`)
    return item
  }
  switch (part.kind) {
    case 'method':
      edited.method = text
      break
    case 'version':
      edited.version = text
      break
    case 'target form':
      edited.targetForm = text === 'absolute' ? 'absolute' : 'origin'
      break
    case 'framing':
      edited.framing = FRAMINGS.find((framing) => framing === text) ?? 'Content-Length'
      break
    case 'segment':
      at(edited.segments).text = text
      break
    case 'query name':
      at(edited.query).name = text
      break
    case 'query value':
      at(edited.query).value = text
      break
    case 'header name':
      at(edited.headers).name = text
      break
    case 'header value':
      at(edited.headers).value = text
      break
    case 'auth name':
    case 'auth scheme':
    case 'auth separator':
    case 'auth token':
      at(edited.authorization)[AUTH_PART[part.kind]] = text
      break
    case 'header fields':
      throw new Error('the field list has no text of its own')
    case 'query':
    case 'content':
      throw new Error(`a request without ${part.kind} has no text to write`)
    case 'body text':
      edited.body = { text }
      break
    case 'member name':
      at(membersOf(edited)).name = text
      break
    case 'member value':
      at(membersOf(edited)).value = text
      break
  }
  return edited
}

/** The query as written: `name=value` joined by `&`. */
export function queryText(query: readonly Field[]): string {
  return query.map((field) => `${field.name}=${field.value}`).join('&')
}

/** The request-target: the segments joined, and the query; in absolute-form, after the scheme and authority. */
export function targetOf(model: RequestModel): string {
  const path = `/${model.segments.map((segment) => segment.text).join('/')}`
  const target = model.query.length === 0 ? path : `${path}?${queryText(model.query)}`
  return model.targetForm === 'absolute' ? `${model.origin}${target}` : target
}

/** The header fields as sent, in order, the Authorization fields last. */
export function fieldLines(model: RequestModel): Field[] {
  return [
    ...model.headers,
    ...model.carried,
    ...model.authorization.map((credentials) => ({ name: credentials.name, value: `${credentials.scheme}${credentials.separator}${credentials.token}` })),
  ]
}

/** The body's octets (JSON text written as octets), or undefined without a body. */
export function bodyOctetsOf(model: RequestModel): string | undefined {
  return model.body ? bodyText(model.body) : undefined
}

/**
 * The request's head as it goes on the wire, octet for octet: the request line, every field as the parts say,
 * `Connection: close` unless the request may share a connection (a request whose edit may break the framing has
 * a connection of its own, so it breaks no other request), and the fields that frame a body of `bodyLength` octets.
 */
export function wireHead(model: RequestModel, { keptAlive = false, bodyLength }: { keptAlive?: boolean; bodyLength?: number | undefined } = {}): string {
  const body = bodyOctetsOf(model)
  const lines = [
    `${model.method} ${targetOf(model)} ${model.version}`,
    ...fieldLines(model).map((field) => `${field.name}: ${field.value}`),
    ...(keptAlive ? [] : ['Connection: close']),
  ]
  if (body !== undefined) lines.push(...framingLines(model.framing, bodyLength ?? body.length))
  return `${lines.join('\r\n')}\r\n\r\n`
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
