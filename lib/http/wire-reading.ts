/**
 * A request's head read the way RFC 9112 reads it, for the invariants: its method, target and fields, and
 * whether HTTP itself refuses the message as written (then the HTTP layer may answer 400 with a body of its own,
 * or close the connection, and that is no fault of the API). The key is read here too: whether the request
 * carries the valid Bearer key, may carry it in a lenient reading, or does not carry it at all.
 */

import { RecentlyUsed } from './recently-used.js'

export interface WireField {
  name: string
  value: string
}

export interface WireReading {
  method: string
  /** The target in origin-form: an absolute-form target's path and query (RFC 9112 §3.2.2: its authority stands in for Host). */
  target: string
  fields: readonly WireField[]
  /** Why HTTP/1.1 refuses the message as written, when it does. */
  invalid?: string
  /**
   * The forms HTTP/1.1 defines that the plain request does not take, in words: `HTTP/1.0`, `an absolute-form target`,
   * `a chunked body`, `Expect: 100-continue`. Such a message means what the plain one means (RFC 9112 §2.3, §3.2.2,
   * §7.1; RFC 9110 §10.1.1), but the HTTP layer in front of a service may refuse it in its own words.
   */
  otherForms: readonly string[]
  /**
   * The request line is longer than LONG_REQUEST_LINE octets: within the 8,000 RFC 9112 §3 recommends a server take,
   * beyond what some do (gunicorn: 4,094), which answer 414 or 400 in their own words (§3: a target longer than a
   * server wishes to parse gets 414).
   */
  longLine?: true
  /**
   * The version a server may read in a request line HTTP refuses and refuse with 505 (RFC 9110 §15.6.6): the line ended
   * at its first bare CR or LF (RFC 9112 §2.2 lets a recipient end a line at a bare LF), its words split at spaces, and
   * neither HTTP/1.0 nor 1.1 where the version stands (`GET /pets/1` alone is the HTTP/0.9 form, which Jetty answers
   * 505; `HTTP/1.2`, which RFC 9110 §2.5 has a server read as 1.1, so that a 505 to it warns).
   */
  unsupportedVersion?: string
  /** A tab stands around the Host value: whitespace to HTTP (RFC 9110 §5.5), part of the host to nginx 1.22. */
  tabbedHost?: true
}

/** The request-line length past which a server may refuse a request in its HTTP layer's own words (gunicorn's limit is 4,094). */
export const LONG_REQUEST_LINE = 4_000

/** A head read, with whether it carries the key (keyOfWire): what the oracle and the rules of every answer read of an edited request. */
export interface KeyedReading extends WireReading {
  key: KeyState
  /** The Host as written, when it names another authority than the plain request's (hostOtherThan). */
  hostElsewhere?: string
  /** Why an HTTP layer may refuse it in its own words (refusableInOwnWords), worked out once, with the reading. */
  ownWords?: string
}

/** `%2F` in a path: a slash that is data (RFC 3986 §2.2), which many HTTP layers will not pass on. */
const ESCAPED_SLASH = /%2F/i
/** `%00` in a path: an octet no file or route name holds, which nginx refuses (400) before any service reads the request. */
const ESCAPED_NUL = /%00/

/**
 * Fields of one value (no list, RFC 9110 §5.3) that an HTTP layer reads for itself: a sender MUST NOT give one twice,
 * and a recipient need not recover from a message that does (RFC 9110 §2.2). lighttpd refuses a Content-Type given
 * twice with its own 400 before any handler reads the request (Host twice is a message HTTP refuses, RFC 9112 §3.2).
 */
const READ_ONCE_BY_HTTP_LAYERS = ['Content-Type'] as const

/**
 * Why an HTTP layer may answer the request with a refusal in its own words, whatever the service's rules say: HTTP
 * refuses the message as written, its request line is longer than some layers take (RFC 9112 §3: 414), its Host
 * names an authority the service may not serve (RFC 9110 §7.4, §4.2.1) or has a tab around it, its path holds an
 * escaped slash or an escaped NUL, or a field of one value an HTTP layer reads for itself is given twice.
 */
export function refusableInOwnWords(reading: Omit<KeyedReading, 'ownWords'>): string | undefined {
  if (reading.invalid) return `HTTP refuses the message as written (${reading.invalid})`
  if (reading.hostElsewhere !== undefined)
    return `the Host ${JSON.stringify(reading.hostElsewhere)} names another authority than the plain request's, which a server may refuse (RFC 9110 §7.4, §4.2.1)`
  if (reading.tabbedHost)
    return 'a tab around the Host value, which is whitespace to HTTP (RFC 9110 §5.5) and part of the host to nginx 1.22, which refuses it (400) before any service reads the request'
  if (reading.longLine) return `a request line over ${LONG_REQUEST_LINE.toLocaleString('en')} octets, which some HTTP layers refuse (RFC 9112 §3: 414)`
  const path = reading.target.split('?')[0] ?? ''
  if (ESCAPED_SLASH.test(path))
    return 'an escaped slash in the path, which HTTP layers refuse before any service reads it (Apache httpd, AllowEncodedSlashes Off: 404; Tomcat: 400)'
  if (ESCAPED_NUL.test(path)) return 'an escaped NUL in the path, which an HTTP layer may refuse before any service reads it (nginx: 400)'
  const doubled = READ_ONCE_BY_HTTP_LAYERS.find((name) => fieldValues(reading.fields, name).length > 1)
  if (doubled !== undefined)
    return `a ${doubled} field given twice, which a sender must not send (RFC 9110 §5.3) and an HTTP layer may refuse before any service reads the request (lighttpd: 400)`
  if ((reading.method === 'GET' || reading.method === 'HEAD') && carriesContent(reading.fields))
    return `content on a ${reading.method}, which has no meaning there and which some implementations refuse (RFC 9110 §9.3.1)`
  if (reading.method === 'POST' && !framesContent(reading.fields))
    return 'a POST without Content-Length or Transfer-Encoding, which a server may refuse with 411 (RFC 9110 §15.5.12; CherryPy does)'
  return undefined
}

/** Whether the head frames content: a Transfer-Encoding, or a Content-Length other than 0 (RFC 9112 §6.3). */
function carriesContent(fields: readonly WireField[]): boolean {
  return fields.some(({ name, value }) => {
    const lower = name.toLowerCase()
    return lower === 'transfer-encoding' || (lower === 'content-length' && value.trim() !== '0')
  })
}

/** Whether the head says how long its content is: a Transfer-Encoding or a Content-Length, 0 included. */
function framesContent(fields: readonly WireField[]): boolean {
  return fields.some(({ name }) => ['transfer-encoding', 'content-length'].includes(name.toLowerCase()))
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
/** A field value's octets: VCHAR, obs-text, SP and HTAB (RFC 9110 §5.5). */
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
/** A Host field's value: `uri-host [ ":" port ]` (RFC 9110 §7.2, RFC 3986 §3.2.2): an IP literal, or a reg-name of unreserved, escaped and sub-delims octets (an IPv4 address among them), then digits. */
const HOST_VALUE = /^(\[[0-9A-Fa-f:.vV]+\]|(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*)(:\d*)?$/

/** An absolute-form target (RFC 9112 §3.2.2): the scheme and authority, then the path and query, if any. */
const ABSOLUTE_FORM = /^(https?:\/\/[^/?#]+)([/?].*)?$/i

/** The octets a request-target may hold (RFC 3986 pchar, `/`, `?`, and `%` of an escape). */
const TARGET = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]+$/

/** The heads read most recently: a plain request's head is read once per edit of it, and every head by the oracle and the rules of every answer. */
const recentReadings = new RecentlyUsed<string, WireReading>({ maxEntries: 64, maxWeight: 4 * 2 ** 20, weigh: (head) => head.length })

/** Reads a head as RFC 9112 does: lines end in CRLF, the request line first. */
export function readWire(head: string): WireReading {
  const reading = recentReadings.get(head) ?? readHead(head)
  recentReadings.set(head, reading)
  return reading
}

/** WireReading.invalid's words for a head whose Content-Length fields differ, which HTTP has a server answer 400 and close (RFC 9112 §6.3). */
export const DIFFERING_LENGTHS = 'Content-Length is given with differing values, which a server MUST answer 400 (RFC 9112 §6.3)'

/** WireReading.invalid's words for a request line that is not method, target and HTTP/1.0 or 1.1, one space apart. */
export const REQUEST_LINE_PROBLEM = 'the request line is not method, target and version (HTTP/1.1 or HTTP/1.0) with one space between'

/** HTTP/1.0 and HTTP/1.1: the versions a request line of HTTP/1.1 carries (a later minor version, `HTTP/1.2`, is one a server may refuse too). */
const HTTP1 = /^HTTP\/1\.[01]$/

/** WireReading.unsupportedVersion: the version word a lenient reader finds in the request line, when it is neither HTTP/1.0 nor 1.1. */
function unsupportedVersionOf(requestLine: string): string | undefined {
  const words = (requestLine.split(/[\r\n]/)[0] ?? '').split(' ').filter((word) => word !== '')
  if (words.length < 3) return 'none (the HTTP/0.9 form)'
  const last = words[words.length - 1] as string
  const third = words[2] as string
  if (!HTTP1.test(last)) return last
  return HTTP1.test(third) ? undefined : third
}

function readHead(head: string): WireReading {
  const lines = head.replace(/\r\n\r\n$/, '').split('\r\n')
  const requestLine = lines[0] ?? ''
  const parts = requestLine.split(' ')
  const method = parts.length === 3 ? (parts[0] ?? '') : (requestLine.split(' ')[0] ?? '')
  const target = parts.length === 3 ? (parts[1] ?? '') : parts.slice(1, -1).join(' ')
  const fields: WireField[] = []
  const problems: string[] = []
  const otherForms: string[] = []
  const version = parts[2]
  if (parts.length !== 3 || (version !== 'HTTP/1.1' && version !== 'HTTP/1.0')) problems.push(REQUEST_LINE_PROBLEM)
  else if (version === 'HTTP/1.0') otherForms.push('HTTP/1.0')
  if (!TOKEN.test(method)) problems.push('the method is not a token')
  // absolute-form (RFC 9112 §3.2.2): read as the origin-form it names.
  const absolute = ABSOLUTE_FORM.exec(target)
  const originForm = absolute ? absolute[2] || '/' : target
  if (absolute) otherForms.push('an absolute-form target')
  if (!TARGET.test(originForm) || !originForm.startsWith('/') || /%(?![0-9A-Fa-f]{2})/.test(originForm))
    problems.push('the target holds an octet a URI may not, or a broken escape')
  // CONNECT takes an authority-form target only (RFC 9112 §3.2.3).
  if (method === 'CONNECT') problems.push('CONNECT with a target that is no authority-form')
  let tabbedHost = false
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    const name = colon < 0 ? line : line.slice(0, colon)
    const written = colon < 0 ? '' : line.slice(colon + 1)
    const value = written.replace(/^[ \t]+|[ \t]+$/g, '')
    if (name.toLowerCase() === 'host' && /^[ \t]*\t|\t[ \t]*$/.test(written)) tabbedHost = true
    if (colon < 0 || !TOKEN.test(name)) problems.push(`a field line with no valid name: ${JSON.stringify(line.slice(0, 40))}`)
    else if (!FIELD_VALUE.test(value) || /[\r\n]/.test(line)) problems.push(`the ${name} field holds a control octet`)
    fields.push({ name, value })
  }
  const hosts = fields.filter((field) => field.name.toLowerCase() === 'host')
  // HTTP/1.0 has no Host field of its own (RFC 9112 §3.2: a 1.1 request MUST carry one).
  if (hosts.length > 1 || (hosts.length === 0 && version !== 'HTTP/1.0')) problems.push(hosts.length === 0 ? 'there is no Host field' : 'there is more than one Host field')
  else if (hosts.length === 1 && !HOST_VALUE.test(hosts[0]?.value ?? '')) problems.push('the Host field is no uri-host [ ":" port ] (RFC 9112 §3.2: a server MUST answer 400)')
  const codings = fieldValues(fields, 'transfer-encoding')
  if (codings.length > 0) {
    // chunked, last and once, is the one coding every HTTP/1.1 recipient reads (RFC 9112 §6.1, §7.1); beside a Content-Length it is a message to refuse (§6.3).
    if (codings.join(',').replace(/[ \t]/g, '').toLowerCase() !== 'chunked') problems.push(`Transfer-Encoding: ${codings.join(', ')} is not chunked alone`)
    else if (fieldValues(fields, 'content-length').length > 0) problems.push('both Transfer-Encoding and Content-Length')
    else otherForms.push('a chunked body')
  }
  // Content-Length given with differing values (in two fields, or a list): no framing a server may pick from (RFC 9112 §6.3).
  const lengths = new Set(fieldValues(fields, 'content-length').flatMap((value) => value.split(',').map((length) => length.trim())))
  if (codings.length === 0 && lengths.size > 1) problems.push(DIFFERING_LENGTHS)
  const expectations = fieldValues(fields, 'expect')
  if (expectations.length > 0) {
    if (expectations.length === 1 && expectations[0]?.toLowerCase() === '100-continue') otherForms.push('Expect: 100-continue')
    else problems.push(`Expect: ${expectations.join(', ')} is no expectation HTTP defines (a server may answer 417)`)
  }
  const unsupported = problems.length > 0 ? unsupportedVersionOf(requestLine) : undefined
  return {
    method,
    target: originForm,
    fields,
    otherForms,
    ...(problems.length > 0 ? { invalid: problems.join('; ') } : {}),
    ...(unsupported !== undefined ? { unsupportedVersion: unsupported } : {}),
    ...(requestLine.length > LONG_REQUEST_LINE ? { longLine: true as const } : {}),
    ...(tabbedHost ? { tabbedHost: true as const } : {}),
  }
}

/**
 * The one Host a head carries, when it names another authority than `authority` (compared in any letter case, which the
 * host is: RFC 3986 §6.2.2.1): one left empty, spelled with escapes, given another octet. A server may refuse a target
 * it does not serve (RFC 9110 §7.4, 421) and must refuse an http URI with an empty host (§4.2.1), as a host filter
 * (Django's ALLOWED_HOSTS) or an edge does, in its own words and before any key is read.
 */
export function hostOtherThan(fields: readonly WireField[], authority: string): string | undefined {
  const hosts = fieldValues(fields, 'host')
  if (hosts.length !== 1) return undefined
  const host = (hosts[0] as string).replace(/^[ \t]+|[ \t]+$/g, '')
  return host.toLowerCase() === authority.replace(/^[ \t]+|[ \t]+$/g, '').toLowerCase() ? undefined : host
}

/** The values of one field, by its name in any letter case (field names are case-insensitive, RFC 9110 §5.1). */
export function fieldValues(fields: readonly WireField[], name: string): string[] {
  const wanted = name.toLowerCase()
  return fields.filter((field) => field.name.toLowerCase() === wanted).map((field) => field.value)
}

/** `valid`: the request carries the key; `lenient`: a reading some servers take finds it; `none`: no reading does. */
export type KeyState = 'valid' | 'lenient' | 'none'

/** The key as an octet string, as it goes on the wire. */
const octetsOfKey = (key: string) => Buffer.from(key, 'utf8').toString('latin1')

/**
 * Whether an Authorization value is `Bearer <key>`: the scheme in any letter case (RFC 9110 §11.1), one or more
 * spaces (RFC 6750 §2.1), whitespace around the value stripped (RFC 9110 §5.5). CR, LF and NUL may be read as a
 * space (RFC 9110 §5.5), and a tab as a separator, by lenient readers: such a value is `lenient`.
 */
export function keyInValue(value: string, key: string): KeyState {
  const keyOctets = octetsOfKey(key)
  const strict = value.replace(/^[ \t]+|[ \t]+$/g, '')
  const match = /^([Bb][Ee][Aa][Rr][Ee][Rr]) +(.*)$/s.exec(strict)
  if (match && match[2] === keyOctets) return 'valid'
  // Only what HTTP lets a reader take for whitespace: SP, HTAB, and CR, LF and NUL read as SP (never U+00A0 and the like).
  const lenient = value.replace(/[\r\n\0]/g, ' ').replace(/^[ \t]+|[ \t]+$/g, '')
  const loose = /^bearer[ \t]+(.*)$/is.exec(lenient)
  return loose && loose[1] === keyOctets ? 'lenient' : 'none'
}

/** Whether a request whose fields are these carries the key (`valid` as soon as one Authorization field does). */
export function keyOfFields(fields: readonly WireField[], key: string): KeyState {
  const states = fieldValues(fields, 'authorization').map((value) => keyInValue(value, key))
  return states.includes('valid') ? 'valid' : states.includes('lenient') ? 'lenient' : 'none'
}

/** A CR not followed by LF, or an LF not after a CR. */
const BARE_LINE_END = /\r(?!\n)|(?<!\r)\n/

/**
 * Whether a head carries the key, read strictly and leniently: a field line that a bare LF splits may still carry it
 * to a server that ends lines there (RFC 9112 §2.2 lets a recipient take a bare LF as a line end). A bare CR is no
 * line end: a recipient MUST read it as invalid or as SP (§2.2), so `Bearer <key>\rx` is no key, and a field line
 * after a bare CR is no field.
 */
export function keyOfWire(head: string, key: string, fields: readonly WireField[] = readWire(head).fields): KeyState {
  const strict = keyOfFields(fields, key)
  // Without a bare CR or LF, and with no whitespace around a field's name, a lenient reader's fields are the strict ones, whose values keyInValue already read leniently.
  if (strict === 'valid' || (!BARE_LINE_END.test(head) && fields.every((field) => field.name === field.name.trim()))) return strict
  const split = head
    .replace(/\r\n\r\n$/, '')
    .split(/\r\n|\n/)
    .slice(1)
  const leniently = keyOfFields(
    split.map((line) => ({ name: line.slice(0, Math.max(0, line.indexOf(':'))).trim(), value: line.slice(line.indexOf(':') + 1) })),
    key,
  )
  return strict === 'lenient' || leniently !== 'none' ? 'lenient' : 'none'
}
