/**
 * Faults of reading input: each a habit of a framework or a standard library that reads one spelling of a value
 * otherwise than the spec and HTTP mean it (the input catalogue's classes, lib/spec/input-catalogue.ts).
 */
import { posix } from 'node:path'
import { isJsonObject } from '../../lib/http/json.js'
import { decimalDigitValue } from '../../lib/spec/spellings.js'
import { decodedSegment, errorResponse } from '../../reference/handler.js'
import type { ServiceRequest } from '../../reference/http-types.js'
import { acceptedAsValid, authorised, isCreatePet, isGetPet, isListPets, mapAnswers, mapJsonBody, rewritingNewPet, type Variant } from '../variant.js'

/** The raw request-target's path and query, as they came (nothing decoded). */
function rawTarget(request: ServiceRequest): { path: string; query: string } {
  const target = request.target ?? request.path
  const at = target.indexOf('?')
  return at < 0 ? { path: target, query: '' } : { path: target.slice(0, at), query: target.slice(at + 1) }
}

/** The petId as it came in the raw path, when the request is GET /pets/{id}. */
function rawPetId(request: ServiceRequest): string | undefined {
  const match = /^\/pets\/([^/]+)$/.exec(rawTarget(request).path)
  return isGetPet(request) ? match?.[1] : undefined
}

/** GET /pets/{id} read as if its id were `id`. */
function asPet(request: ServiceRequest, id: bigint | number): ServiceRequest {
  return { ...request, path: `/pets/${id}` }
}

/** A decoded string decoded once more as the inside of a JSON string (left as it is where that fails). */
function unescapedAgain(text: string): string {
  try {
    return JSON.parse(`"${text.replace(/"/g, '\\"')}"`) as string
  } catch {
    return text
  }
}

/** A C0 or C1 control character, DEL included. */
function isControl(character: string): boolean {
  const code = character.charCodeAt(0)
  return code < 0x20 || (code >= 0x7f && code <= 0x9f)
}

function htmlEscaped(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

export const spellingFaults: Variant[] = [
  {
    name: 'query-values-not-percent-decoded',
    description: 'the query string is split on & and = but its values are not percent-decoded: status=%61vailable is an unknown status (400)',
    catches: ['listPets/equivalent-spellings'],
    wrap: (reference) => async (request) => {
      if (!isListPets(request)) return reference(request)
      const query = new URLSearchParams()
      for (const pair of rawTarget(request).query.split('&').filter(Boolean)) {
        const [name = '', value = ''] = pair.split('=')
        query.append(name, value)
      }
      return reference({ ...request, query })
    },
  },
  {
    name: 'path-matched-undecoded',
    description: 'the router matches the path as it came, undecoded: GET /v1/%70ets is a plain-text 404',
    catches: ['listPets/path-spelling-equivalent'],
    wrap: (reference) => async (request) =>
      /%/.test(rawTarget(request).path) && !/^\/pets\/[^/]+$/.test(rawTarget(request).path)
        ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not Found' }
        : reference(request),
  },
  {
    name: 'petId-not-percent-decoded',
    description: 'the petId segment is read as it came: GET /pets/%33%30 is no integer (400)',
    catches: ['getPet/equivalent-spellings'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      return raw !== undefined && /%/.test(raw) ? errorResponse(400, 'invalid_pet_id', `petId ${raw} is not an integer`) : reference(request)
    },
  },
  {
    name: 'petId-read-with-Number',
    description: "the petId is read with JavaScript's Number(): 0x1E, 0o36 and 0b11110 are 30",
    catches: ['getPet/other-notations'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      const read = raw !== undefined && /^0[xob]/i.test(raw) ? Number(raw) : Number.NaN
      return Number.isSafeInteger(read) ? reference(asPet(request, read)) : reference(request)
    },
  },
  {
    name: 'petId-read-in-octal-after-a-leading-zero',
    description: "the petId is read with Ruby's Integer(), which takes a leading zero for octal (as C's strtol and Go's ParseInt with base 0 do): 010 is pet 8, and 08 is refused",
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      if (raw === undefined || !/^0\d+$/.test(raw)) return reference(request)
      return /^0[0-7]+$/.test(raw) ? reference(asPet(request, BigInt(`0o${raw.slice(1)}`))) : errorResponse(400, 'invalid_pet_id', `invalid value for Integer(): ${raw}`)
    },
  },
  {
    name: 'decoded-values-end-at-nul',
    description:
      "the path and the query's values are handed over decoded, as C strings, as libmicrohttpd hands them to a handler: a value ends at an escaped NUL, so /pets/1%00x is pet 1 and status=sold%00x lists sold pets",
    catches: ['getPet/other-notations', 'listPets/status-spelled-otherwise'],
    provenByEdits: ['percent'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      const cutId = raw === undefined ? undefined : /^(.*?)%00/.exec(raw)?.[1]
      const query = new URLSearchParams([...request.query].map(([name, value]): [string, string] => [name, value.split('\0')[0] as string]))
      const cut = { ...request, query }
      return cutId === undefined ? reference(cut) : reference({ ...cut, path: `/pets/${decodedSegment(cutId) ?? cutId}` })
    },
  },
  {
    name: 'undecodable-escapes-answered-500',
    description:
      "the path and the query are decoded as UTF-8 once the key is checked, and a decoding error is not caught, as Pyramid's route matching and WebOb's request.params raise: /pets/1%FF and status=sold%FF are answered 500",
    catches: ['responses/no-server-error'],
    provenByEdits: ['percent'],
    wrap:
      (reference, { apiKey }) =>
      async (request) => {
        const { path, query } = rawTarget(request)
        // A `%` that starts no escape is left as it is, as Python's unquote leaves it; an escape of an octet UTF-8 never holds raises.
        const raises = (text: string) => {
          try {
            decodeURIComponent(text.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))
            return false
          } catch {
            return true
          }
        }
        return authorised(request, apiKey) && (raises(path) || raises(query)) ? errorResponse(500, 'internal_error', 'internal server error') : reference(request)
      },
  },
  {
    name: 'petId-read-in-parentheses',
    description: "the petId is read with Haskell's read, as scotty's param reads an Int64: (30) and ( 30 ) are 30",
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      const inside = raw === undefined ? undefined : /^(?:%28|\()(?:%20)*(\d+)(?:%20)*(?:%29|\))$/i.exec(raw)?.[1]
      return inside === undefined ? reference(request) : reference(asPet(request, BigInt(inside)))
    },
  },
  {
    name: 'petId-wraps-past-int64',
    description: "the petId's digits are read into 64 bits and wrap, as Haskell's read :: Int64 does: 18446744073709551617 (2^64 + 1) is pet 1",
    catches: ['getPet/invalid-id'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      return raw !== undefined && /^\d{20,}$/.test(raw) ? reference(asPet(request, BigInt.asIntN(64, BigInt(raw)))) : reference(request)
    },
  },
  {
    name: 'petId-wraps-past-int32',
    description: 'the petId is kept in 32 bits and wraps, as a service whose id column is an int does: 4294967297 (2^32 + 1) is pet 1',
    catches: ['getPet/returns-pet'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      return raw !== undefined && /^\d{10,}$/.test(raw) ? reference(asPet(request, BigInt.asIntN(32, BigInt(raw)))) : reference(request)
    },
  },
  {
    name: 'petId-decoded-and-read-with-Number',
    description:
      "the petId is percent-decoded and read with JavaScript's Number(), as an Express route reading Number(req.params.petId) does: ' 30', '30\\n', '30.' and '.30e2' are 30",
    catches: ['getPet/other-notations'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      if (raw === undefined) return reference(request)
      let text: string
      try {
        text = decodeURIComponent(raw)
      } catch {
        return reference(request)
      }
      const read = Number(text)
      // Radix prefixes are petId-read-with-Number's: this one stands for what only the padding and the points show.
      const plainOrRadix = /^-?\d+$/.test(text) || /^\s*[+-]?0[xob]/i.test(text)
      return plainOrRadix || !Number.isSafeInteger(read) ? reference(request) : reference(asPet(request, read))
    },
  },
  {
    name: 'escaped-slash-redirected-to-pet',
    description:
      "the router matches the decoded path, and a trailing slash is redirected away (gin's RedirectTrailingSlash on URL.Path): GET /pets/1%2F is a 301 to /pets/1, after auth (notation)",
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap:
      (reference, { apiKey }) =>
      async (request) => {
        const raw = rawPetId(request)
        const id = raw === undefined ? undefined : /^(.+)%2F$/i.exec(raw)?.[1]
        if (id === undefined || request.headers.authorization !== `Bearer ${apiKey}`) return reference(request)
        return { status: 301, headers: { location: `/v1/pets/${id}`, 'content-type': 'text/html' }, body: `<a href="/v1/pets/${id}">Moved Permanently</a>.` }
      },
  },
  {
    name: 'path-decoded-then-dot-segments-removed',
    description:
      "the path is percent-decoded and its dot segments then removed, as Jetty's servlet path does: GET /pets/5%2F..%2F4 is pet 4, and /pets/.%2F5 pet 5, where the segment as written is no integer",
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      if (raw === undefined || !/%2F/i.test(raw)) return reference(request)
      const resolved = posix.normalize(`/pets/${decodeURIComponent(raw)}`)
      return /^\/pets\/\d+$/.test(resolved) ? reference({ ...request, path: resolved }) : reference(request)
    },
  },
  {
    name: 'pet-read-from-the-first-segment',
    description:
      "the id is the first segment after /pets and the rest of the path is handed on unread (Twisted's isLeaf resource gets it as postpath): GET /pets/4/../5 is pet 4, where the path names pet 5 once its dot segments are removed",
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const first = request.method === 'GET' ? /^\/pets\/([^/]+)\/./.exec(rawTarget(request).path)?.[1] : undefined
      return first === undefined ? reference(request) : reference({ ...request, path: `/pets/${first}` })
    },
  },
  {
    name: 'pet-read-from-the-last-segment',
    description: "the id is the path's last segment, whatever comes between (Go's path.Base(r.URL.Path) on every path below /pets/): GET /pets/1/2 is pet 2",
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const segments = request.method === 'GET' ? /^\/pets\/(.+)$/.exec(rawTarget(request).path)?.[1]?.split('/') : undefined
      return segments && segments.length > 1 && !segments.includes('..') && !segments.includes('.')
        ? reference({ ...request, path: `/pets/${segments.at(-1)}` })
        : reference(request)
    },
  },
  {
    name: 'petId-decoded-twice',
    description:
      "the petId is percent-decoded once more after the router decoded it (Go's url.PathUnescape on r.URL.Path, a framework behind a proxy that decoded already): GET /pets/%2531 is pet 1",
    catches: ['getPet/other-notations'],
    provenByEdits: ['percent'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      if (raw === undefined || !raw.includes('%25')) return reference(request)
      let text: string
      try {
        text = decodeURIComponent(decodeURIComponent(raw))
      } catch {
        return reference(request)
      }
      return /^-?\d+$/.test(text) ? reference(asPet(request, BigInt(text))) : reference(request)
    },
  },
  {
    name: 'query-values-decoded-twice',
    description:
      "the query's values are percent-decoded once more after the framework decoded them (a handler that unquotes what web.py's input() already decoded, a service behind a proxy that decoded the target): status=pen%2564ing lists the pending pets",
    catches: ['listPets/status-spelled-otherwise'],
    provenByEdits: ['percent'],
    wrap: (reference) => async (request) => {
      if (!isListPets(request)) return reference(request)
      const again = (value: string) => {
        try {
          return decodeURIComponent(value)
        } catch {
          return value
        }
      }
      return reference({ ...request, query: new URLSearchParams([...request.query].map(([name, value]): [string, string] => [name, again(value)])) })
    },
  },
  {
    name: 'status-filter-ends-at-nul',
    description:
      'the status filter is compared as a C string (a service that hands the decoded query value to C, as libmicrohttpd hands it a handler): status=sold%00x lists the sold pets',
    catches: ['listPets/status-spelled-otherwise'],
    provenByEdits: ['percent'],
    wrap: (reference) => async (request) => {
      const status = isListPets(request) ? request.query.get('status') : null
      if (status === null || !status.includes('\0')) return reference(request)
      const query = new URLSearchParams(request.query)
      query.set('status', status.split('\0')[0] as string)
      return reference({ ...request, query })
    },
  },
  {
    name: 'numbers-past-4300-digits-500',
    description: "petId and limit are read with CPython's int(), which refuses a text of more than 4,300 digits with a ValueError the service does not catch: 500",
    catches: ['responses/no-server-error', 'getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const limit = isListPets(request) ? request.query.get('limit') : null
      const raw = rawPetId(request) ?? limit ?? ''
      return /\d{4301}/.test(raw) ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'Internal Server Error' } : reference(request)
    },
  },
  {
    name: 'petId-read-with-python-int',
    description: "the petId is read with Python's int(): digits of any script (٣٠, ３０) and underscores (3_0) are 30",
    catches: ['getPet/other-notations'],
    wrap: (reference) => async (request) => {
      const raw = rawPetId(request)
      if (raw === undefined) return reference(request)
      const text = decodedSegment(raw) ?? ''
      if (!/^[\p{Nd}_]+$/u.test(text) || /^\d+$/.test(text)) return reference(request)
      const digits = [...text.replace(/_/g, '')].map((digit) => decimalDigitValue(digit.codePointAt(0) as number))
      return reference(asPet(request, Number(digits.join(''))))
    },
  },
  {
    name: 'content-type-matched-exactly',
    description: 'POST /pets refuses any Content-Type but exactly "application/json" with 415: application/json; charset=utf-8 included',
    catches: ['createPet/equivalent-spellings'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && request.headers['content-type'] !== 'application/json' ? errorResponse(415, 'unsupported_media_type', 'send application/json') : reference(request),
  },
  {
    name: 'integer-with-fraction-refused',
    description: "categoryId is read as Go's encoding/json reads an int64: 1.0 and 1e0 are refused with 400",
    catches: ['createPet/equivalent-spellings'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && /"categoryId"\s*:\s*-?\d*[.eE]/.test(request.body) ? errorResponse(400, 'invalid_body', 'categoryId must be an integer') : reference(request),
  },
  {
    name: 'json-read-in-member-order',
    description: 'a hand-written reader that wants name first: a NewPet whose members come in another order is refused with 400',
    catches: ['createPet/equivalent-spellings'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && /^\s*\{\s*"(?!name")/.test(request.body) && /"name"/.test(request.body)
        ? errorResponse(400, 'invalid_body', 'name must come first')
        : reference(request),
  },
  {
    name: 'accept-matched-exactly',
    description: 'GET /pets answers 406 unless Accept is exactly application/json: */*, application/* and no Accept included',
    catches: ['listPets/equivalent-spellings'],
    wrap: (reference) => async (request) =>
      isListPets(request) && request.headers.accept !== 'application/json' ? errorResponse(406, 'not_acceptable', 'accept application/json') : reference(request),
  },
  {
    name: 'accept-split-at-every-comma',
    description:
      'Accept is split at every comma, quoted strings or not, as Rails\' MIME parser does, and a range it cannot read makes the whole field 406: text/plain;x="a,b", application/json gets 406',
    catches: ['listPets/equivalent-spellings'],
    wrap: (reference) => async (request) => {
      const ranges = (request.headers.accept ?? '').split(',').map((range) => range.trim())
      const unreadable = ranges.some((range) => range !== '' && !/^[\w.+*-]+\/[\w.+*-]+(\s*;\s*[\w.+-]+=("[^",]*"|[\w.+-]+))*$/.test(range))
      return unreadable ? errorResponse(406, 'not_acceptable', 'the Accept field could not be read') : reference(request)
    },
  },
  {
    name: 'other-media-type-500',
    description: 'a body labelled anything but application/json (or nothing) crashes the body reader: 500',
    catches: ['createPet/request-media-types'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && !/^application\/json/i.test(request.headers['content-type'] ?? '') ? errorResponse(500, 'internal', 'cannot read body') : reference(request),
  },
  {
    name: 'json-surrogate-escapes-decoded-one-by-one',
    description:
      'a hand-written JSON string reader decodes each \\u escape on its own: an escaped surrogate pair (\\ud83d\\udc3e for 🐾) becomes two lone surrogates, which UTF-8 then writes as two U+FFFD (a character past the BMP sent as itself is read right)',
    catches: ['createPet/equivalent-spellings'],
    wrap: (reference) => async (request) =>
      isCreatePet(request)
        ? reference({ ...request, body: request.body.replace(/\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}/g, '\\ufffd\\ufffd') })
        : reference(request),
  },
  {
    name: 'name-control-characters-stripped',
    description: 'a sanitizer strips the C0 and C1 control characters (NUL included) from every name before it is stored',
    catches: ['createPet/hazardous-names'],
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: [...fields.name].filter((character) => !isControl(character)).join('') } : fields)),
  },
  {
    name: 'name-backslash-escapes-read-twice',
    description: 'names are unescaped once more after JSON decoding: the text \\n becomes a line break, \\u0041 an A',
    catches: ['createPet/hazardous-names'],
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' && fields.name.includes('\\') ? { ...fields, name: unescapedAgain(fields.name) } : fields)),
  },
  {
    name: 'name-html-escaped-when-stored',
    description: 'names are HTML-escaped when stored: <b> comes back as &lt;b&gt;, a quote as &quot;',
    catches: ['createPet/hazardous-names'],
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: htmlEscaped(fields.name) } : fields)),
  },
  {
    name: 'token-trimmed-as-latin1',
    description: "the Authorization value, read as ISO-8859-1 (Node's reading), is trimmed with String.prototype.trim: the key next to the single octet 0xA0 passes",
    catches: ['auth/key-lookalike-401'],
    wrap: acceptedAsValid((request, apiKey) => request.headers.authorization?.trim() === `Bearer ${apiKey}`),
  },
  {
    name: 'token-split-on-spaces',
    description: 'the token is the second word of the Authorization value: "Bearer <key> extra" passes',
    catches: ['auth/key-lookalike-401'],
    wrap: acceptedAsValid((request, apiKey) => request.headers.authorization?.split(' ')[1] === apiKey),
  },
  {
    name: 'body-read-before-auth',
    description: 'the body is parsed before auth runs: malformed JSON without a key is answered 400, a text/plain body 415',
    catches: ['auth/401-before-400'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request)) return reference(request)
      if (!/^application\/json/i.test(request.headers['content-type'] ?? '')) return errorResponse(415, 'unsupported_media_type', 'send application/json')
      try {
        JSON.parse(request.body)
      } catch {
        return errorResponse(400, 'invalid_body', 'malformed JSON')
      }
      return reference(request)
    },
  },
]

/** A JSON text that holds a lone surrogate escape (as a serializer writes one). */
const LONE_SURROGATE = /\\u(d[89ab][0-9a-f]{2})(?!\\u(dc|dd|de|df))|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i

/** A body that held bytes that are not UTF-8, as the reference's reader decodes it (each bad sequence as U+FFFD). */
const NOT_UTF8 = /\ufffd/

/** A UTF-16 surrogate with no partner, in a decoded string. */
const LONE_SURROGATE_CHARACTER = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

export const illFormedTextFaults: Variant[] = [
  {
    name: 'invalid-utf8-body-500',
    description: 'a body whose bytes are not UTF-8 crashes a strict decoder: 500',
    catches: ['createPet/ill-formed-text'],
    wrap: (reference) => async (request) => (isCreatePet(request) && NOT_UTF8.test(request.body) ? errorResponse(500, 'internal', 'invalid UTF-8') : reference(request)),
  },
  {
    name: 'utf8-checked-before-auth',
    description: 'the body is checked for UTF-8 before auth runs: bytes that are not UTF-8 without a key are answered 400',
    catches: ['auth/401-before-400'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && NOT_UTF8.test(request.body) ? errorResponse(400, 'invalid_body', 'the body is not UTF-8') : reference(request),
  },
  {
    name: 'lone-surrogate-create-500',
    description: 'a name holding a lone surrogate crashes the create (a UTF-8 encoder that throws): 500',
    catches: ['createPet/ill-formed-text'],
    wrap: (reference) => async (request) => (isCreatePet(request) && LONE_SURROGATE.test(request.body) ? errorResponse(500, 'internal', 'invalid UTF-16') : reference(request)),
  },
  {
    name: 'lone-surrogate-pets-left-out-of-lists',
    description: 'a pet whose name holds a lone surrogate is stored and read back by id, but the lists leave it out (a serializer that skips what it cannot encode)',
    catches: ['createPet/ill-formed-text'],
    wrap: mapAnswers((answer, request) =>
      isListPets(request) && answer.status === 200
        ? mapJsonBody(answer, (pets) =>
            Array.isArray(pets) ? pets.filter((pet) => !(isJsonObject(pet) && typeof pet.name === 'string' && LONE_SURROGATE_CHARACTER.test(pet.name))) : pets,
          )
        : answer,
    ),
  },
  {
    name: 'lone-surrogate-written-as-cesu8',
    description:
      'a lone surrogate is written back as the three bytes CESU-8 gives it (ED A0 80 for U+D800), as a Java writer does, where UTF-8 holds no surrogate: the answers that show it are no UTF-8',
    catches: ['getPet/body-schema', 'listPets/body-schema', 'createPet/body-schema'],
    wrap: mapAnswers((answer) => {
      if (!LONE_SURROGATE.test(answer.body)) return answer
      const cesu8 = (unit: string) => {
        const code = Number.parseInt(unit, 16)
        return String.fromCharCode(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f))
      }
      // Every other character as its UTF-8 octets, each lone surrogate escape as its CESU-8 octets.
      const octets = Buffer.from(answer.body, 'utf8')
        .toString('latin1')
        .replace(/\\u(d[89ab][0-9a-f]{2})(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})/gi, (_escape, high?: string, low?: string) => cesu8(high ?? low ?? ''))
      return { ...answer, body: octets, delivery: { ...answer.delivery, octets: true } }
    }),
  },
  {
    name: 'lone-surrogate-breaks-later-reads',
    description: 'a name holding a lone surrogate is stored, and every later answer that would show it fails with 500 (the store cannot encode it on the way out)',
    catches: ['createPet/ill-formed-text'],
    wrap: mapAnswers((answer, request) =>
      !isCreatePet(request) && answer.status === 200 && LONE_SURROGATE.test(answer.body) ? errorResponse(500, 'internal', 'cannot encode') : answer,
    ),
  },
]
