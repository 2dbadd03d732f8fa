/**
 * What a request means, as a value two requests can be compared on (policy §2b: an edit that keeps the meaning
 * gets the plain request's answer). Equivalences come from the standards: RFC 3986 §6.2.2 (percent-encoded
 * unreserved octets, the case of an escape's hex digits), RFC 9110 (field names in any case, whitespace around a
 * value, the order of fields of different names, media types and the auth scheme in any case, Accept ranges that
 * admit JSON) and RFC 8259 (the same JSON value however it is spelled). A relaxation names an equivalence the
 * policy holds only as a SHOULD: each is left out of the strict reading and tried alone, so a difference is charged
 * to the one rule that would have made the two requests the same.
 */
import { JsonNumber, type JsonValue, parseJson } from '../http/json.js'
import { fieldValues, keyInValue, type WireField } from '../http/wire-reading.js'

export type Relaxation = 'fixed segments decoded' | 'scheme in any case' | 'spaces after the scheme' | 'fields without meaning ignored' | 'host in any case' | 'message forms read'

export const RELAXATIONS: readonly Relaxation[] = [
  'fixed segments decoded',
  'scheme in any case',
  'spaces after the scheme',
  'fields without meaning ignored',
  'host in any case',
  'message forms read',
]

const UNRESERVED = /[A-Za-z0-9\-._~]/

/** RFC 3986 §6.2.2: escapes of unreserved octets decoded, other escapes' hex digits in upper case. */
export function normalisedUriPart(text: string): string {
  return text.replace(/%([0-9A-Fa-f]{2})/g, (escaped, digits: string) => {
    const octet = String.fromCharCode(Number.parseInt(digits, 16))
    return UNRESERVED.test(octet) ? octet : escaped.toUpperCase()
  })
}

/** Every escape decoded: what a query or path value means to the service, octets as characters. */
export function decodedUriPart(text: string): string | undefined {
  if (/%(?![0-9A-Fa-f]{2})/.test(text)) return undefined
  const octets = text.replace(/%([0-9A-Fa-f]{2})/g, (_escape, digits: string) => String.fromCharCode(Number.parseInt(digits, 16)))
  const bytes = Buffer.from(octets, 'latin1')
  const decoded = new TextDecoder('utf-8', { fatal: false }).decode(bytes)
  return decoded
}

/** A text less the whitespace HTTP strips around its parts (OWS: SP and HTAB, RFC 9110 §5.6.3), and no other: U+00A0 stays. */
const withoutOws = (text: string) => text.replace(/^[ \t]+|[ \t]+$/g, '')

/** The media type of a Content-Type value, in lower case with its parameters (RFC 9110 §8.3.1), or undefined when it is none. */
export function mediaTypeOf(value: string): string | undefined {
  const [type, ...parameters] = value.split(';')
  const essence = withoutOws(type ?? '').toLowerCase()
  if (!/^[!#$%&'*+\-.^_`|~0-9a-z]+\/[!#$%&'*+\-.^_`|~0-9a-z]+$/.test(essence)) return undefined
  const params = parameters.map((parameter) => {
    const [name = '', ...rest] = parameter.split('=')
    const raw = withoutOws(rest.join('='))
    const unquoted = /^"(.*)"$/.exec(raw)?.[1] ?? raw
    const lowered = withoutOws(name).toLowerCase()
    return `${lowered}=${lowered === 'charset' ? unquoted.toLowerCase() : unquoted}`
  })
  return [essence, ...params].join(';')
}

/** The pieces of a field value split at `separator` where it stands outside a quoted string (RFC 9110 §5.6.4: `x="a,b"` is one parameter). */
function outsideQuotes(value: string, separator: ',' | ';'): string[] {
  return value.match(separator === ',' ? /(?:[^,"]|"(?:[^"\\]|\\.)*"?)+|(?<=^|,)(?=,|$)/g : /(?:[^;"]|"(?:[^"\\]|\\.)*"?)+|(?<=^|;)(?=;|$)/g) ?? ['']
}

/**
 * Whether an Accept value admits application/json (RFC 9110 §12.5.1): the most specific range that covers it
 * (application/json, then application/*, then * /*) gives it a q above 0. Absent, Accept admits everything; present
 * and empty, or holding no range that covers JSON, it admits none. Its octets are read as they are: an escape such as
 * `%69` means nothing in a field value (RFC 9110 §5.5), so `applicat%69on/json` is no range that covers JSON.
 */
export function acceptAdmitsJson(value: string | undefined): boolean {
  if (value === undefined) return true
  let best: { specificity: number; q: number } | undefined
  for (const range of outsideQuotes(value, ',')) {
    const [type = '', ...parameters] = outsideQuotes(range, ';').map(withoutOws)
    const specificity = ({ 'application/json': 3, 'application/*': 2, '*/*': 1 } as Record<string, number>)[type.toLowerCase()]
    if (specificity === undefined || (best && best.specificity >= specificity)) continue
    const weight = parameters.find((parameter) => /^q\s*=/i.test(parameter))
    const q = weight === undefined ? 1 : Number(/^q\s*=\s*([01](?:\.\d{0,3})?)$/i.exec(weight)?.[1] ?? Number.NaN)
    best = { specificity, q: Number.isNaN(q) ? 0 : q }
  }
  return (best?.q ?? 0) > 0
}

/** The Accept of a request as one list (several field lines of it are one list, RFC 9110 §5.3), or undefined without one. */
export function acceptOf(values: readonly string[]): string | undefined {
  return values.length === 0 ? undefined : values.join(', ')
}

/**
 * The relaxations an Authorization value needs to be the spec's own `Bearer <key>`: another letter case of the
 * scheme, or more than one space after it (the policy's SHOULD rows "Bearer scheme case" and "Bearer spacing").
 */
export function keySpellingRelaxations(value: string): Relaxation[] {
  const match = /^[ \t]*(\S*)( *)/.exec(value)
  const relaxations: Relaxation[] = []
  if (match?.[1] !== 'Bearer') relaxations.push('scheme in any case')
  if (match?.[2] !== ' ') relaxations.push('spaces after the scheme')
  return relaxations
}

/** A JSON value written with sorted members and numbers by their exact value (RFC 8259: `1.0` is `1`); undefined where a name repeats. */
function canonicalJson(value: JsonValue): string {
  if (value instanceof JsonNumber) return value.integer !== undefined ? value.integer.toString() : value.text.toLowerCase()
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(value[name] as JsonValue)}`)
      .join(',')}}`
  }
  return JSON.stringify(value)
}

/** The meaning of a body: its JSON value, or its octets when it is not JSON (or a member name repeats, which RFC 8259 §4 leaves open). */
export function bodyMeaning(octets: string | undefined): string {
  if (octets === undefined) return 'no body'
  const text = Buffer.from(octets, 'latin1').toString('utf8')
  const parsed = parseJson(text)
  if (!parsed.ok || hasRepeatedName(text)) return `octets ${octets}`
  return `json ${canonicalJson(parsed.value)}`
}

/** Whether a JSON text writes some member name twice in one object (a scan, strings respected). */
export function hasRepeatedName(text: string): boolean {
  const names: Array<Set<string>> = []
  let index = 0
  while (index < text.length) {
    const character = text[index]
    if (character === '{') names.push(new Set())
    else if (character === '}') names.pop()
    else if (character === '"') {
      let end = index + 1
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      const string = text.slice(index, end + 1)
      index = end
      const after = text.slice(index + 1).trimStart()
      const current = names.at(-1)
      if (after.startsWith(':') && current) {
        if (current.has(string)) return true
        current.add(string)
      }
    }
    index += 1
  }
  return false
}

/** The fields that frame a message or keep its connection: no part of what it asks. */
const FRAMING_FIELDS = new Set(['connection', 'content-length', 'transfer-encoding', 'trailer', 'expect'])

export interface MeaningInput {
  method: string
  /** The segments of the path, and which are the fixed ones (the base URL's and `pets`). */
  segments: Array<{ text: string; fixed: boolean }>
  query: string | undefined
  fields: readonly WireField[]
  body: string | undefined
  /** The forms of the message beside the plain ones (wire-reading.ts: HTTP/1.0, an absolute-form target, a chunked body, Expect: 100-continue). */
  otherForms: readonly string[]
  apiKey: string
  /** Names of fields that carry no meaning for this API (the dictionary's), in lower case. */
  meaningless: ReadonlySet<string>
}

/**
 * What a request means, read once: the parts no relaxation changes as one string, and each part a relaxation
 * changes as the strict reading takes it and as the relaxation does. Two requests are compared under a reading by
 * `meaningUnder`, which only joins strings: the body's JSON value, the costly part, is read once per request.
 */
export interface RequestMeaning {
  /** Method, query, Accept, Content-Type and body: no relaxation changes them. */
  unrelaxed: string
  forms: string
  segments: { strict: string; decoded: string }
  /** Each Authorization value: whether it carries the key, its scheme as written and the spaces after it. */
  key: ReadonlyArray<{ state: string; scheme: string; spaces: number }>
  host: { strict: string; lowered: string }
  fields: { strict: string; meaningful: string }
}

/**
 * The fields read apart from the others: how the message is framed and whether its connection stays open say nothing
 * of what it asks (RFC 9112 §6, §7, §9.6; the forms the framing takes are in otherForms), and the four the API reads.
 */
const READ_APART = new Set([...FRAMING_FIELDS, 'authorization', 'accept', 'content-type', 'host'])

/** The other fields by name in lower case, sorted, each name's values in order and trimmed; framing fields and Authorization, Accept, Content-Type and Host apart. */
function otherFields(fields: readonly WireField[], skip: ReadonlySet<string>): string {
  const byName = new Map<string, string[]>()
  for (const field of fields) {
    const name = field.name.toLowerCase()
    if (skip.has(name) || READ_APART.has(name)) continue
    byName.set(name, [...(byName.get(name) ?? []), field.value.replace(/^[ \t]+|[ \t]+$/g, '')])
  }
  return JSON.stringify([...byName.entries()].sort(([a], [b]) => (a < b ? -1 : 1)))
}

/** Reads what a request means, once (see RequestMeaning). */
export function readMeaning(input: MeaningInput): RequestMeaning {
  const trimmed = (name: string) => fieldValues(input.fields, name).map((value) => value.replace(/^[ \t]+|[ \t]+$/g, ''))
  const accept = trimmed('accept')
  const contentType = trimmed('content-type')
  const host = trimmed('host')
  const present = (values: string[]) => (values.length === 0 ? undefined : values)
  return {
    unrelaxed: JSON.stringify({
      method: input.method,
      query: input.query === undefined ? [] : input.query.split('&').map(normalisedUriPart),
      accept: accept.length === 0 || acceptAdmitsJson(acceptOf(accept)) ? 'admits json' : accept,
      contentType: present(contentType)?.map((value) => mediaTypeOf(value) ?? value),
      body: bodyMeaning(input.body),
    }),
    // HTTP/1.0, absolute-form, chunked and 100-continue mean what the plain forms mean (RFC 9112 §2.3, §3.2.2, §7.1; RFC
    // 9110 §10.1.1), but no policy row says so: a SHOULD, read alone.
    forms: JSON.stringify(input.otherForms),
    segments: {
      strict: JSON.stringify(input.segments.map((segment) => (segment.fixed ? segment.text : normalisedUriPart(segment.text)))),
      decoded: JSON.stringify(input.segments.map((segment) => normalisedUriPart(segment.text))),
    },
    // The scheme in any case and one space or several after it are the same credentials (RFC 9110 §11.1, RFC 6750 §2.1:
    // 1*SP), but both are the policy's SHOULD: each is part of the strict reading, and relaxed alone.
    key: fieldValues(input.fields, 'authorization').map((value) => {
      const [, scheme = '', spaces = ''] = /^[ \t]*(\S*)( *)/.exec(value) ?? []
      return { state: keyInValue(value, input.apiKey), scheme, spaces: spaces.length }
    }),
    host: { strict: JSON.stringify(present(host)), lowered: JSON.stringify(present(host)?.map((value) => value.toLowerCase())) },
    fields: { strict: otherFields(input.fields, new Set()), meaningful: otherFields(input.fields, input.meaningless) },
  }
}

/** A request's meaning under the strict reading less the given relaxations, as a string two requests are compared on. */
export function meaningUnder(meaning: RequestMeaning, relaxed: ReadonlySet<Relaxation>): string {
  const key = meaning.key.map(({ state, scheme, spaces }) =>
    [state, relaxed.has('scheme in any case') ? '' : scheme, relaxed.has('spaces after the scheme') ? '' : spaces].join(' '),
  )
  return [
    meaning.unrelaxed,
    relaxed.has('message forms read') ? '[]' : meaning.forms,
    relaxed.has('fixed segments decoded') ? meaning.segments.decoded : meaning.segments.strict,
    JSON.stringify(key),
    relaxed.has('host in any case') ? meaning.host.lowered : meaning.host.strict,
    relaxed.has('fields without meaning ignored') ? meaning.fields.meaningful : meaning.fields.strict,
  ].join('\n')
}
