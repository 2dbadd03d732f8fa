/** How a conformant service may take a create where the spec and the policy leave it open: ids sent, unknown members, text that is not Unicode, media types, codings, sizes. */
import { gunzipSync } from 'node:zlib'
import { integerField, isJsonObject, type JsonValue, nestingDepth, parseJson, stringifyJson } from '../../lib/http/json.js'
import { errorResponse } from '../../reference/handler.js'
import type { Handler, ServiceRequest } from '../../reference/http-types.js'
import { authorised, bodyOver, createdId, isCreatePet, isGetPet, isListPets, rewritingNewPet, type VariantContext } from '../variant.js'
import type { Allowance } from './allowance.js'
import { refusedAfterAuth } from './list-pets.js'

/** A lone surrogate escape in a JSON text: `\ud800` not followed by a low one, or a low one alone. */
const LONE_SURROGATE = /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f][0-9a-f]{2})|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i

/** The 64 KiB the policy says every service accepts; beyond it a body may be refused with 413. */
const BODY_LIMIT_BYTES = 64 * 1024

const tooLarge = (request: ServiceRequest) => bodyOver(request, BODY_LIMIT_BYTES)

/** A JSON object's top-level members as written (`"name":value`), split outside strings and nested values; undefined when the text is no object. */
function membersAsWritten(text: string): string[] | undefined {
  const trimmed = text.trim()
  if (!trimmed.startsWith('{') || !trimmed.endsWith('}')) return undefined
  const inside = trimmed.slice(1, -1)
  const members: string[] = []
  let depth = 0
  let inString = false
  let start = 0
  for (let index = 0; index < inside.length; index++) {
    const character = inside[index]
    if (inString) {
      if (character === '\\') index += 1
      else if (character === '"') inString = false
    } else if (character === '"') inString = true
    else if (character === '{' || character === '[') depth += 1
    else if (character === '}' || character === ']') depth -= 1
    else if (character === ',' && depth === 0) {
      members.push(inside.slice(start, index))
      start = index + 1
    }
  }
  members.push(inside.slice(start))
  return members
}

/** A member's name, decoded, as written at the start of its text. */
function nameOf(member: string): string | undefined {
  const name = /^\s*("(?:[^"\\]|\\.)*")\s*:/.exec(member)?.[1]
  return name === undefined ? undefined : (JSON.parse(name) as string)
}

/**
 * A JSON object's text with each top-level member name kept once, its first or its last value, the rest cut out as
 * written (so every number keeps its digits); undefined when the text is no object.
 */
export function withNamesOnce(text: string, keep: 'first' | 'last'): string | undefined {
  const members = membersAsWritten(text)
  if (members === undefined) return undefined
  const order = keep === 'first' ? members : [...members].reverse()
  const seen = new Set<string>()
  const kept = order.filter((member) => {
    const name = nameOf(member)
    if (name === undefined) return true
    if (seen.has(name)) return false
    seen.add(name)
    return true
  })
  return `{${(keep === 'first' ? kept : kept.reverse()).join(',')}}`
}

/** The members the spec names in a NewPet (and the id a client must not set). */
const SPEC_MEMBERS = new Set(['name', 'categoryId', 'status', 'id'])

/**
 * A document store: the members of a NewPet the schema does not name are kept as written (at any depth, the ones the
 * run itself nests 512 and 10,000 arrays deep included) and written back after the pet's own in every view of it.
 */
function unknownMembersKept(inner: Handler): Handler {
  const kept = new Map<bigint, string[]>()
  const withKept = (pet: JsonValue): string => {
    const text = stringifyJson(pet)
    const members = isJsonObject(pet) ? kept.get(integerField(pet.id) ?? -1n) : undefined
    return members ? `${text.slice(0, -1)},${members.join(',')}}` : text
  }
  return async (request) => {
    // The store reads the members it knows and keeps the others as they came: only JSON, checked whole, is taken apart.
    const members = isCreatePet(request) && isJsonText(request.body) ? membersAsWritten(request.body) : undefined
    const unknown = (members ?? []).filter((member) => !SPEC_MEMBERS.has(nameOf(member) ?? 'id'))
    const known = (members ?? []).filter((member) => !unknown.includes(member))
    const answer = await inner(unknown.length > 0 ? { ...request, body: `{${known.join(',')}}` } : request)
    const id = unknown.length > 0 ? createdId(answer) : undefined
    if (id !== undefined) kept.set(id, unknown)
    if (![200, 201].includes(answer.status) || !(isCreatePet(request) || isGetPet(request) || isListPets(request))) return answer
    const parsed = parseJson(answer.body)
    if (!parsed.ok) return answer
    return { ...answer, body: Array.isArray(parsed.value) ? `[${parsed.value.map(withKept).join(',')}]` : withKept(parsed.value) }
  }
}

/** Whether a text is JSON to a parser that lets names repeat (JSON.parse keeps the last). */
function isJsonText(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Members named twice, read first one wins or last one wins, as parsers that do not refuse them do. */
function duplicateMembersRead(keep: 'first' | 'last'): (inner: Handler) => Handler {
  return (inner) => async (request) => {
    if (!isCreatePet(request) || parseJson(request.body).ok || !isJsonText(request.body)) return inner(request)
    const once = withNamesOnce(request.body, keep)
    return inner(once === undefined ? request : { ...request, body: once })
  }
}

/** The body's octets read as UTF-8, or undefined where they are not UTF-8. */
function strictUtf8(request: ServiceRequest): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(request.octets ?? Buffer.from(request.body, 'utf8'))
  } catch {
    return undefined
  }
}

/** Refused with 415 and an Error body once the key is read, when `refuses` holds (a 415 that still created the pet would break the leakage rule). */
function unsupportedAfterAuth(status: 400 | 415, refuses: (request: ServiceRequest) => boolean): (inner: Handler, context: VariantContext) => Handler {
  return refusedAfterAuth(status, status === 415 ? 'unsupported_media_type' : 'invalid_body', (request) => isCreatePet(request) && refuses(request))
}

/** The media type as a strict parser reads it (hapi's): only SP and HTAB around it stripped, so `application/json` and U+00A0 is another type. */
const mediaTypeOf = (request: ServiceRequest) =>
  request.headers['content-type']
    ?.split(';')[0]
    ?.replace(/^[ \t]+|[ \t]+$/g, '')
    .toLowerCase()

/** The auth precedence row's grant both body limits in front of the key take. */
const A_413_MAY_COME_FIRST = {
  source: { policy: 'auth precedence' },
  allowedBy: 'A 413 for a body over a size limit may come first (gateways commonly refuse large bodies before any service sees them; INFO)',
} as const

export const createPetAllowances: Allowance[] = [
  {
    id: 'client-id-refused-400',
    does: 'a NewPet that carries an id is refused with 400 and an Error body',
    source: { policy: 'a client-sent `id`' },
    allowedBy: 'The answer is either 201 with an id the service chose, … or 400 with an Error body. SHOULD: 201',
    layer: 'service',
    warns: ['createPet/client-id-accepted'],
    wrap: (inner) => async (request) => {
      if (!isCreatePet(request)) return inner(request)
      const parsed = parseJson(request.body)
      return parsed.ok && isJsonObject(parsed.value) && 'id' in parsed.value ? errorResponse(400, 'invalid_body', 'id is assigned by the service') : inner(request)
    },
  },
  {
    id: 'unknown-members-dropped',
    does: 'members of a NewPet outside the schema are read and dropped: the pet is stored and shown with name, categoryId and status only',
    source: { policy: 'what counts as valid' },
    allowedBy: 'unknown extra properties are allowed (the schemas are open)',
    layer: 'service',
    group: 'unknown members',
    wrap: rewritingNewPet((fields) => Object.fromEntries(Object.entries(fields).filter(([name]) => ['name', 'categoryId', 'status', 'id'].includes(name)))),
  },
  {
    id: 'unknown-members-kept',
    does: 'members of a NewPet outside the schema are stored as written, however deep, and written back after the pet’s own in the 201, GET /pets/{id} and the lists (a document store)',
    source: { policy: 'what counts as valid' },
    allowedBy: 'unknown extra properties are allowed (the schemas are open)',
    layer: 'service',
    group: 'unknown members',
    wrap: unknownMembersKept,
  },
  {
    id: 'lone-surrogates-refused-400',
    does: 'a name holding a lone surrogate escape is refused with 400 and an Error body (a strict UTF-16 check)',
    source: { policy: 'text that is not Unicode' },
    allowedBy: 'gets either 400 with an Error body (nothing created) or 201 with the name read back the same in every view (INFO: which)',
    layer: 'service',
    group: 'lone surrogates',
    wrap: (inner) => async (request) =>
      isCreatePet(request) && LONE_SURROGATE.test(request.body) ? errorResponse(400, 'invalid_body', 'name is not well-formed Unicode') : inner(request),
  },
  {
    id: 'lone-surrogates-stored-as-replacement',
    does: 'a lone surrogate in a name is stored as U+FFFD, and shown so in the 201, the GET and the lists alike',
    source: { policy: 'text that is not Unicode' },
    allowedBy: 'or 201 with the name read back the same in every view (INFO: which)',
    layer: 'service',
    group: 'lone surrogates',
    wrap: rewritingNewPet((fields) =>
      typeof fields.name === 'string' ? { ...fields, name: fields.name.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd') } : fields,
    ),
  },
  {
    id: 'non-utf8-bodies-refused-400',
    does: 'a body whose octets are not UTF-8 is refused with 400 and an Error body, after auth (a strict decoder)',
    source: { policy: 'text that is not Unicode' },
    allowedBy: 'a body whose bytes are not UTF-8 gets either 400 with an Error body (nothing created) or 201 with the name read back the same in every view',
    layer: 'service',
    group: 'non-UTF-8 bodies',
    wrap: unsupportedAfterAuth(400, (request) => strictUtf8(request) === undefined),
  },
  {
    id: 'non-utf8-bodies-read-as-latin1',
    does: 'a body whose octets are not UTF-8 is read as ISO-8859-1, each octet a character, and the pet stored with that name in every view',
    source: { policy: 'text that is not Unicode' },
    allowedBy: 'or 201 with the name read back the same in every view (INFO: which)',
    layer: 'service',
    group: 'non-UTF-8 bodies',
    wrap: (inner) => async (request) =>
      isCreatePet(request) && strictUtf8(request) === undefined ? inner({ ...request, body: (request.octets ?? Buffer.alloc(0)).toString('latin1') }) : inner(request),
  },
  {
    id: 'deep-json-refused-400',
    does: 'a body nested deeper than 64 levels is refused with 400 and an Error body before it is read',
    source: { policy: 'RFC 8259 §9 lets parsers set limits' },
    allowedBy: 'Its `i_` cases, and `y_` fragments inside a NewPet, are INFO (RFC 8259 §9 lets parsers set limits)',
    layer: 'service',
    wrap: refusedAfterAuth(400, 'too_deep', (request) => isCreatePet(request) && nestingDepth(request.body, 65) > 64),
  },
  {
    id: 'duplicate-members-last-wins',
    does: 'a member named twice is read from its last value (JSON.parse), not refused',
    source: { policy: 'JSON text' },
    allowedBy: 'Duplicate member names: INFO (RFC 8259 §4 leaves the result open)',
    layer: 'service',
    group: 'duplicate members',
    wrap: duplicateMembersRead('last'),
  },
  {
    id: 'duplicate-members-first-wins',
    does: 'a member named twice is read from its first value, not refused',
    source: { policy: 'JSON text' },
    allowedBy: 'Duplicate member names: INFO (RFC 8259 §4 leaves the result open)',
    layer: 'service',
    group: 'duplicate members',
    wrap: duplicateMembersRead('first'),
  },
  {
    id: 'other-media-types-415',
    does: 'a body not labelled application/json (its media type read case-insensitively, parameters allowed) is refused with 415 and an Error body, after auth; no label at all too',
    source: { policy: 'request media types' },
    allowedBy: 'a body labelled with another media type … or with none: 415 or 400 with an Error body, or 201 when the body is a valid NewPet as JSON text (INFO: which)',
    layer: 'service',
    group: 'media types',
    wrap: unsupportedAfterAuth(415, (request) => mediaTypeOf(request) !== 'application/json'),
  },
  {
    id: 'other-media-types-400',
    does: 'a body not labelled application/json, or with no label, is refused with 400 and an Error body, after auth',
    source: { policy: 'request media types' },
    allowedBy: 'a body labelled with another media type … or with none: 415 or 400 with an Error body',
    layer: 'service',
    group: 'media types',
    wrap: unsupportedAfterAuth(400, (request) => mediaTypeOf(request) !== 'application/json'),
  },
  {
    id: 'other-charsets-refused-415',
    does: "a body labelled application/json with a charset not named utf-* is refused with 415 and an Error body, after auth, whatever its octets (Express's body-parser)",
    source: { rfc: 'RFC 9110 §8.3.1 (a charset names the encoding of the octets); RFC 9110 §15.5.16 (415)' },
    allowedBy:
      'the charset parameter … indicates the character encoding; 415 (Unsupported Media Type): the content is in a format not supported by this method on the target resource',
    layer: 'service',
    warns: ['createPet/charset-label-ignored'],
    wrap: unsupportedAfterAuth(415, (request) => {
      const charset = /;\s*charset\s*=\s*"?([^";\s]*)/i.exec(request.headers['content-type'] ?? '')?.[1]
      return charset !== undefined && !charset.toLowerCase().startsWith('utf-')
    }),
  },
  {
    id: 'content-encoding-refused-415',
    does: 'a request body with any Content-Encoding is refused with 415 and an Error body, after auth',
    source: { policy: 'a request body with a `Content-Encoding`' },
    allowedBy: 'the service decodes it, refuses it with 400 or 415 and an Error body, or ignores the header and reads the octets as sent (INFO: which)',
    layer: 'service',
    group: 'content coding',
    wrap: unsupportedAfterAuth(415, (request) => (request.headers['content-encoding'] ?? '').trim() !== ''),
  },
  {
    id: 'content-encoding-gzip-decoded',
    does: 'a request body with Content-Encoding: gzip is inflated before it is read; one that does not inflate, or another coding, is refused with 400 and an Error body',
    source: { policy: 'a request body with a `Content-Encoding`' },
    allowedBy: 'the service decodes it, refuses it with 400 or 415 and an Error body, or ignores the header',
    layer: 'service',
    group: 'content coding',
    wrap:
      (inner, { apiKey }) =>
      async (request) => {
        const coding = (request.headers['content-encoding'] ?? '').trim().toLowerCase()
        if (!isCreatePet(request) || coding === '' || !authorised(request, apiKey)) return inner(request)
        if (coding !== 'gzip') return errorResponse(400, 'invalid_body', `content coding ${coding} is not supported`)
        try {
          const inflated = gunzipSync(request.octets ?? Buffer.alloc(0))
          return inner({ ...request, body: inflated.toString('utf8'), octets: inflated })
        } catch {
          return errorResponse(400, 'invalid_body', 'the body does not inflate')
        }
      },
  },
  {
    id: 'body-limit-64kib-413-at-the-edge',
    does: 'a gateway in front refuses a request body over 64 KiB with 413 and an Error body, before the service reads the key',
    ...A_413_MAY_COME_FIRST,
    layer: 'edge',
    group: 'body limit',
    wrap: (inner) => async (request) => (tooLarge(request) ? errorResponse(413, 'payload_too_large', 'the body is over 64 KiB') : inner(request)),
  },
  {
    id: 'keyless-body-limit-16kib-413',
    does: 'a request without a valid key whose body is over 16 KiB is refused with 413 and an Error body before the key is read (a smaller limit for requests nobody is known to have sent); with the key, bodies are read as the reference reads them',
    ...A_413_MAY_COME_FIRST,
    layer: 'edge',
    group: 'body limit',
    wrap:
      (inner, { apiKey }) =>
      async (request) =>
        !authorised(request, apiKey) && bodyOver(request, 16 * 1024) ? errorResponse(413, 'payload_too_large', 'the body is over 16 KiB') : inner(request),
  },
  {
    id: 'body-limit-64kib-413',
    does: 'the service refuses a create whose body is over 64 KiB with 413 and an Error body, after it reads the key',
    source: { policy: 'name lengths' },
    allowedBy: 'Beyond 64 KiB a service may refuse the body with 413 and an Error body (INFO: the limit found)',
    layer: 'service',
    group: 'body limit',
    wrap: refusedAfterAuth(413, 'payload_too_large', (request) => isCreatePet(request) && tooLarge(request)),
  },
  {
    id: 'body-limit-64kib-413-then-reset',
    does: 'a body over 64 KiB is refused with 413 and an Error body, unread, and the connection is reset right after the answer without Connection: close (warp resets a connection whose request body it left unread past 8 KiB)',
    source: { policy: 'name lengths' },
    allowedBy: 'Beyond 64 KiB a service may refuse the body with 413 and an Error body (INFO: the limit found)',
    layer: 'edge',
    group: 'body limit',
    warns: ['responses/close-announced'],
    wrap: (inner) => async (request) =>
      tooLarge(request) ? { ...errorResponse(413, 'payload_too_large', 'the body is over 64 KiB'), delivery: { resetAfterAnswer: true } } : inner(request),
  },
]
