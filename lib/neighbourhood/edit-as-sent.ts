/**
 * An edit of the neighbourhood as it goes on the wire, and read once: the plain request and the edit written with the
 * create's number, each read as sent (request-reading.ts). An edit that HTTP ends where it ends the plain request (a
 * read without a body, or a body that one Content-Length counts) may share a connection: its head then says nothing
 * of closing. Anything else, or anything an HTTP layer may refuse in its own words, has one of its own, so that no
 * other request is read with what it leaves behind. explore.ts sends it; the edit-judging benchmark measures the same.
 */
import { fieldValues } from '../http/wire-reading.js'
import { bodyOctetsOf, type RequestModel, type WireRequest, wireOf } from '../spec/request-model.js'
import { numberedCreate } from './plain-requests.js'
import { type RequestReading, readEdit, readRequest } from './request-reading.js'

export interface EditAsSent {
  /** The plain request, written with the same number, as read. */
  plainReading: RequestReading
  wire: WireRequest
  reading: RequestReading
  keptAlive: boolean
}

/**
 * The largest body an edit sends on a shared connection: a server that answers before it reads a body must read the
 * rest or close (RFC 9112 §9.3), and warp resets a connection whose unread body passed 8 KiB, losing whatever request
 * came next on it; a larger body goes on a connection of its own.
 */
export const KEPT_ALIVE_BODY_OCTETS = 8 * 1024

/** Fields that change what a connection does after the request (RFC 9110 §7.6.1, §7.8; RFC 9112 §9.6): a request with one has a connection of its own. */
const CONNECTION_FIELDS: ReadonlySet<string> = new Set(['connection', 'upgrade', 'keep-alive', 'te', 'trailer', 'proxy-connection'])

/** Whether the edit, by its parts alone, may end where HTTP reads the plain request's end: a GET without a body, or a POST whose body one Content-Length counts. */
function mayKeepAlive(model: RequestModel, body: string | undefined): boolean {
  if (model.version !== 'HTTP/1.1') return false
  if (body === undefined) return model.method === 'GET'
  return model.method === 'POST' && model.framing === 'Content-Length' && body.length <= KEPT_ALIVE_BODY_OCTETS
}

/** Whether the edit, as read, ends there too: HTTP takes it as written, and no field of it frames its body otherwise or changes what the connection does. */
function endsAsPlain(reading: RequestReading, body: string | undefined): boolean {
  if (reading.invalid !== undefined) return false
  if (body === undefined) return true
  // A Transfer-Encoding is a chunked body (an other form) or a message HTTP refuses: both returned above or here.
  if (reading.ownWords !== undefined || reading.otherForms.length > 0 || reading.fields.some((field) => CONNECTION_FIELDS.has(field.name.toLowerCase()))) return false
  const lengths = fieldValues(reading.fields, 'content-length')
  return lengths.length === 1 && lengths[0] === String(body.length)
}

/**
 * The plain requests as read, by model: a read's plain request is written the same for every edit of it, and read once
 * (a create's carries the edit's number, and is written and read for each).
 */
const plainReadings = new WeakMap<RequestModel, { apiKey: string; reading: RequestReading }>()

/** The plain request written with the create's number, as read. */
function plainAsSent(model: RequestModel, number: number, apiKey: string): RequestReading {
  const kept = plainReadings.get(model)
  if (kept?.apiKey === apiKey) return kept.reading
  const unnumbered = wireOf(model)
  const wire = numberedCreate(unnumbered, number)
  const reading = readRequest(wire, apiKey)
  if (wire === unnumbered) plainReadings.set(model, { apiKey, reading })
  return reading
}

export function editAsSent(edit: { plain: { model: RequestModel }; model: RequestModel; bodyOctets?: string | undefined }, number: number, apiKey: string): EditAsSent {
  const plain = plainAsSent(edit.plain.model, number, apiKey)
  const body = edit.bodyOctets ?? bodyOctetsOf(edit.model)
  if (mayKeepAlive(edit.model, body)) {
    const wire = numberedCreate(wireOf(edit.model, edit.bodyOctets, { keptAlive: true }), number)
    const reading = readEdit(plain, wire, apiKey)
    if (endsAsPlain(reading, wire.body)) return { plainReading: plain, wire, reading, keptAlive: true }
  }
  // On a connection of its own, and read as written so.
  const wire = numberedCreate(wireOf(edit.model, edit.bodyOctets), number)
  return { plainReading: plain, wire, reading: readEdit(plain, wire, apiKey), keptAlive: false }
}
