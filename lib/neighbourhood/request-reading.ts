/**
 * A request read once, from its head and body as they go on the wire: its method, its target as path segments and
 * query, its field lines and body, whether it carries the key, the forms HTTP/1.1 defines that it takes, and why an
 * HTTP layer may refuse it in its own words. The edit oracle judges this value, the exchange carries it, and the
 * rules of every answer judge it again from there: nothing reads the head a second time.
 */
import { fieldValues, hostOtherThan, type KeyedReading, keyOfWire, readWire, refusableInOwnWords } from '../http/wire-reading.js'
import { type ReadRequest, splitOnce } from './operation-judgements.js'

/** A request read once from its head and body: what every judgement of it reads (the route, the key, the meaning). */
export interface RequestReading extends ReadRequest, KeyedReading {
  head: string
  /** The request-target in origin-form, as written. */
  target: string
}

interface Written {
  head: string
  body?: string | undefined
}

/**
 * Reads a request. `authority`: the Host the plain request names (the base URL's), when this one is an edit of it: a
 * Host that names another is read as such (hostOtherThan), once, here.
 */
export function readRequest(wire: Written, apiKey: string, authority?: string): RequestReading {
  const read = readWire(wire.head)
  const [path = '', query] = splitOnce(read.target, '?')
  const hostElsewhere = authority === undefined || read.invalid ? undefined : hostOtherThan(read.fields, authority)
  const reading = {
    ...read,
    head: wire.head,
    path: path.split('/').slice(1),
    query,
    body: wire.body,
    key: keyOfWire(wire.head, apiKey, read.fields),
    ...(hostElsewhere !== undefined ? { hostElsewhere } : {}),
  }
  const ownWords = refusableInOwnWords(reading)
  return ownWords === undefined ? reading : { ...reading, ownWords }
}

/** An edit of a plain request, read against the authority the plain one names. */
export function readEdit(plain: RequestReading, edited: Written, apiKey: string): RequestReading {
  return readRequest(edited, apiKey, fieldValues(plain.fields, 'host')[0])
}

/** A plain request and an edit of it, each read once: the edit against the authority the plain one names. */
export function readEdited(plain: Written, edited: Written, apiKey: string): { plain: RequestReading; edited: RequestReading } {
  const plainReading = readRequest(plain, apiKey)
  return { plain: plainReading, edited: readEdit(plainReading, edited, apiKey) }
}
