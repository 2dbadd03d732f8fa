/**
 * The drop and duplicate operators' edits (policy §2b): a part taken away, or given twice, with the unit it belongs
 * to (the segment, parameter, field, credentials or member) where it is a name, alone where it is a value.
 */
import { clone, membersOf, type PartKind, type PartRef, type RequestModel, readPart, writePart } from '../spec/request-model.js'

/** The unit a part belongs to, for drop and duplicate: the segment, parameter, field or member it is a part of. */
type Unit = 'method' | 'segments' | 'query' | 'headers' | 'authorization' | 'members' | 'body' | 'message form'

function unitOf(kind: PartKind): Unit {
  if (kind === 'version' || kind === 'target form' || kind === 'framing') return 'message form'
  if (kind === 'segment') return 'segments'
  if (kind === 'query name' || kind === 'query value' || kind === 'query') return 'query'
  if (kind === 'header name' || kind === 'header value' || kind === 'header fields') return 'headers'
  if (kind.startsWith('auth')) return 'authorization'
  if (kind === 'member name' || kind === 'member value') return 'members'
  return kind === 'body text' || kind === 'content' ? 'body' : 'method'
}

/** Parts whose text is a value within a unit: dropping one leaves the unit with an empty value (`limit=`, `Accept: `, `Bearer KEY` without its separator). */
const VALUE_PARTS: ReadonlySet<PartKind> = new Set(['query value', 'header value', 'auth scheme', 'auth separator', 'auth token', 'member value'])

/**
 * The request without a part: a value left empty (`limit=`, `Accept: `, `BearerKEY` without its separator); a
 * name taken with its unit (the parameter, the field, the member); the segment gone; the method or body left empty.
 */
export function dropUnit(model: RequestModel, part: PartRef): RequestModel {
  if (VALUE_PARTS.has(part.kind)) return writePart(model, part, '')
  const edited = clone(model)
  const remove = <T>(items: T[]) => items.splice(part.index, 1)
  switch (unitOf(part.kind)) {
    case 'message form':
      throw new Error(`the ${part.label} is no text to drop`)
    case 'method':
      edited.method = ''
      break
    case 'segments':
      remove(edited.segments)
      break
    case 'query':
      remove(edited.query)
      break
    case 'headers':
      remove(edited.headers)
      break
    case 'authorization':
      edited.authorization = []
      break
    case 'members':
      remove(membersOf(edited))
      break
    case 'body':
      edited.body = { text: '' }
      break
  }
  return edited
}

/** The request with the unit a part belongs to given twice, the copy right after it. */
export function duplicateUnit(model: RequestModel, part: PartRef): RequestModel {
  const edited = clone(model)
  const twice = <T>(items: T[]) => {
    const item = items[part.index]
    if (item !== undefined) items.splice(part.index + 1, 0, structuredClone(item))
  }
  switch (unitOf(part.kind)) {
    case 'message form':
      throw new Error(`the ${part.label} is no text to give twice`)
    case 'method':
      edited.method = `${model.method}${model.method}`
      break
    case 'segments':
      twice(edited.segments)
      break
    case 'query':
      twice(edited.query)
      break
    case 'headers':
      twice(edited.headers)
      break
    case 'authorization':
      twice(edited.authorization)
      break
    case 'members':
      twice(membersOf(edited))
      break
    case 'body': {
      const text = readPart(model, part)
      edited.body = { text: `${text}${text}` }
      break
    }
  }
  return edited
}
