/**
 * An edit of the neighbourhood as it goes on the wire, and read once: the plain request and the edit written with the
 * create's number, each read as sent (request-reading.ts). A read HTTP takes as written may share a connection (its
 * head then says nothing of closing); anything else has one of its own. explore.ts sends it; the edit-judging
 * benchmark measures the same.
 */
import { type RequestModel, type WireRequest, wireOf } from '../spec/request-model.js'
import { numberedCreate } from './plain-requests.js'
import { type RequestReading, readEdited } from './request-reading.js'

export interface EditAsSent {
  /** The plain request, written with the same number, as read. */
  plainReading: RequestReading
  wire: WireRequest
  reading: RequestReading
  keptAlive: boolean
}

export function editAsSent(edit: { plain: { model: RequestModel }; model: RequestModel; bodyOctets?: string | undefined }, number: number, apiKey: string): EditAsSent {
  const plain = numberedCreate(wireOf(edit.plain.model), number)
  const mayKeepAlive = edit.model.method === 'GET' && edit.model.body === undefined && edit.model.version === 'HTTP/1.1'
  let wire = numberedCreate(wireOf(edit.model, edit.bodyOctets, { keptAlive: mayKeepAlive }), number)
  let read = readEdited(plain, wire, apiKey)
  if (mayKeepAlive && read.edited.invalid !== undefined) {
    // HTTP refuses it as written: on a connection of its own, and read as written so.
    wire = numberedCreate(wireOf(edit.model, edit.bodyOctets), number)
    read = readEdited(plain, wire, apiKey)
  }
  return { plainReading: read.plain, wire, reading: read.edited, keptAlive: mayKeepAlive && read.edited.invalid === undefined }
}
