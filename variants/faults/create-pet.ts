/**
 * Faults of POST /pets. Most rewrite the NewPet before the reference sees it, the way an implementation
 * with that one defect would read it; the generated-body properties must catch those with a minimal
 * counterexample.
 */
import { exactInteger } from '../../lib/http/int64.js'
import { isJsonObject, JsonNumber, parseJson, stringifyJson } from '../../lib/http/json.js'
import { isPetStatus } from '../../lib/spec/petstore-api.js'
import { createReferenceHandler, errorResponse } from '../../reference/handler.js'
import type { ServiceResponse } from '../../reference/http-types.js'
import { PetStore } from '../../reference/pet-store.js'
import { bodyOver, createdId, isCreatePet, isListPets, lagsBehindWrites, mapAnswers, mapJsonBody, rewritePets, rewritingNewPet, type Variant } from '../variant.js'

/** A JSON number whose exponent is read into 64 bits, as aeson's scientific reads it: past ±2^63 it wraps. */
function exponentWrapped(value: unknown): unknown {
  const match = value instanceof JsonNumber ? /^(-?\d+(?:\.\d+)?)[eE]([+-]?\d+)$/.exec(value.text) : null
  if (!match) return value
  const exponent = BigInt(match[2] as string)
  const wrapped = BigInt.asIntN(64, exponent)
  return wrapped === exponent ? value : new JsonNumber(`${match[1]}e${wrapped}`)
}

export const createPetFaults: Variant[] = [
  {
    name: 'json-exponent-wrapped-at-64-bits',
    description:
      "a JSON number's exponent is read into a 64-bit integer, as aeson's scientific reads it under Servant: 1e18446744073709551617 is 1e1, and a categoryId of it is stored as 10",
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) => ({ ...fields, ...(fields.categoryId !== undefined ? { categoryId: exponentWrapped(fields.categoryId) } : {}) }) as typeof fields),
  },
  {
    name: 'json-text-trimmed-of-c-whitespace',
    description:
      "the JSON text is read after C's whitespace is skipped around it, as Servant's decoder wraps aeson's parser in attoparsec's skipSpace: VT and FF before or after the NewPet are taken for whitespace, and the body is created",
    catches: ['createPet/invalid-body-400'],
    provenByEdits: ['octet'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request)) return reference(request)
      const body = request.body.replace(/^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g, '')
      return reference({ ...request, body, octets: Buffer.from(body, 'utf8') })
    },
  },
  {
    name: 'unknown-charset-answered-500',
    description:
      "the body is decoded in the charset its label names, as WebOb's json_body decodes it, and a name no codec has raises past the handler's `except ValueError`: charset=x-unknown is answered 500",
    catches: ['responses/no-server-error'],
    wrap: (reference) => async (request) => {
      const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1]
      if (!isCreatePet(request) || charset === undefined) return reference(request)
      try {
        new TextDecoder(charset)
        return reference(request)
      } catch {
        return errorResponse(500, 'internal_error', `LookupError: unknown encoding: ${charset}`)
      }
    },
  },
  {
    name: 'empty-body-without-content-type-406',
    description:
      "go-restful's reader chosen by Content-Type: a POST with no Content-Type and an empty body finds no reader and is answered 406, after the key is read (a Content-Type given, or a body, is read as before)",
    catches: ['createPet/request-media-types'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return isCreatePet(request) && answer.status !== 401 && request.headers['content-type'] === undefined && (request.body ?? '') === ''
        ? errorResponse(406, 'not_acceptable', '406: Not Acceptable')
        : answer
    },
  },
  {
    name: 'form-bodies-read-as-new-pets',
    description: 'a form body (application/x-www-form-urlencoded) is read as a NewPet, as an Express app with both body parsers does: name=a&categoryId=1 creates a pet',
    catches: ['createPet/request-media-types'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request) || !(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return reference(request)
      const form = new URLSearchParams(request.body)
      const pet = { name: form.get('name'), categoryId: new JsonNumber(form.get('categoryId') ?? ''), ...(form.has('status') ? { status: form.get('status') } : {}) }
      return reference({ ...request, headers: { ...request.headers, 'content-type': 'application/json' }, body: stringifyJson(pet) })
    },
  },
  {
    name: 'pairs-read-as-new-pet',
    description:
      'a body that is an array of [name, value] pairs is read as the object dict() makes of it, as pydantic 1 reads a model: [["name","a"],["categoryId",1]] creates a pet',
    catches: ['createPet/invalid-body-400'],
    wrap: (reference) => async (request) => {
      const parsed = isCreatePet(request) ? parseJson(request.body) : undefined
      const pairs = parsed?.ok && Array.isArray(parsed.value) && parsed.value.length > 0 ? parsed.value : undefined
      if (!pairs?.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string')) return reference(request)
      const fields = Object.fromEntries(pairs.map((pair) => pair as [string, unknown]))
      return reference({ ...request, body: stringifyJson(fields) })
    },
  },
  {
    name: 'create-reads-query-parameters',
    description:
      "the create's query is merged into its parameters over the body, as Rails' params does: POST /pets?name=other stores the name other, and a body without a name takes the query's",
    catches: ['createPet/echoes-fields', 'createPet/invalid-body-400'],
    provenByEdits: ['add-query'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request) || [...request.query.keys()].length === 0) return reference(request)
      const parsed = parseJson(request.body)
      if (!parsed.ok || !isJsonObject(parsed.value)) return reference(request)
      const fields = { ...parsed.value }
      for (const [name, value] of request.query) fields[name] = /^-?\d+$/.test(value) ? new JsonNumber(value) : value
      return reference({ ...request, body: stringifyJson(fields) })
    },
  },
  {
    name: 'xml-bound-by-field-name',
    description:
      "an XML body is bound by the struct's own field names, as echo's DefaultBinder does with Go's encoding/xml: <Name>, <CategoryID> and <Status> make a pet, where an XML body is no JSON NewPet",
    catches: ['createPet/request-media-types'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request) || !/^(application|text)\/xml/i.test(request.headers['content-type'] ?? '')) return reference(request)
      const element = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(request.body)?.[1]
      const [name, categoryId, status] = [element('Name'), element('CategoryID'), element('Status')]
      if (name === undefined || categoryId === undefined) return errorResponse(400, 'invalid_body', 'the body could not be bound')
      const body = stringifyJson({ name, categoryId: new JsonNumber(categoryId), ...(status ? { status } : {}) })
      return reference({ ...request, body, headers: { ...request.headers, 'content-type': 'application/json' } })
    },
  },
  {
    name: 'form-method-override',
    description: "a POST form's _method field is read as the request's method, as Rack's MethodOverride does: POST /pets with _method=GET lists the pets",
    catches: ['createPet/request-media-types'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request) || !(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return reference(request)
      const method = new URLSearchParams(request.body).get('_method')
      return method ? reference({ ...request, method: method.toUpperCase(), body: '' }) : reference(request)
    },
  },
  {
    name: 'identical-bodies-one-pet',
    description: 'a create whose body is byte for byte one created before is answered 201 with that pet (a cache keyed by the body): two creates, one id',
    catches: ['createPet/ids-unique'],
    wrap: (reference) => {
      const answered = new Map<string, ServiceResponse>()
      return async (request) => {
        if (!isCreatePet(request)) return reference(request)
        const earlier = answered.get(request.body)
        if (earlier) return earlier
        const answer = await reference(request)
        if (answer.status === 201) answered.set(request.body, answer)
        return answer
      }
    },
  },
  {
    name: 'name-trimmed',
    description: 'POST /pets trims white space around the name',
    catches: ['createPet/echoes-fields'],
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: fields.name.trim() } : fields)),
  },
  {
    name: 'name-ascii-only',
    description: 'POST /pets replaces every non-ASCII character of the name with "?"',
    catches: ['createPet/echoes-fields'],
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point: everything outside ASCII
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: fields.name.replace(/[^\u0000-\u007f]/gu, '?') } : fields)),
  },
  {
    name: 'body-status-ends-at-nul',
    description:
      'POST /pets reads the status as a C string once the JSON is decoded (a service that hands strings to C): "sold\\u0000x" is stored as sold, where a status outside the enum is refused with 400',
    catches: ['createPet/invalid-body-400'],
    provenByEdits: ['octet'],
    wrap: rewritingNewPet((fields) => (typeof fields.status === 'string' ? { ...fields, status: fields.status.split('\0')[0] as string } : fields)),
  },
  {
    name: 'name-truncated-255',
    description: 'POST /pets keeps only the first 255 UTF-16 units of the name',
    catches: ['createPet/echoes-fields'],
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: fields.name.slice(0, 255) } : fields)),
  },
  {
    name: 'body-limit-32kib-413',
    description:
      'a create whose body is over 32 KiB is refused with 413 and an Error body (a framework default lowered), where the policy says every body up to 64 KiB is accepted',
    catches: ['createPet/long-names-kept'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && bodyOver(request, 32 * 1024) ? errorResponse(413, 'payload_too_large', 'the body is over 32 KiB') : reference(request),
  },
  {
    name: 'body-limit-65535-413',
    description:
      "a create whose body is 65,536 bytes or more is refused with 413 and an Error body (hapi's maxBytes written as 65535), where the policy says every body up to 64 KiB is accepted",
    catches: ['createPet/long-names-kept'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && bodyOver(request, 65_535)
        ? errorResponse(413, 'payload_too_large', 'Payload content length greater than maximum allowed: 65535')
        : reference(request),
  },
  {
    name: 'lists-keyed-by-name',
    description: 'a list keeps one pet of each name (the first it meets): two pets that share a name never meet in a list, though both are stored and read by id',
    catches: ['createPet/repeated-creates'],
    wrap: mapAnswers((answer, request) =>
      isListPets(request) && answer.status === 200
        ? mapJsonBody(answer, (body) => {
            if (!Array.isArray(body)) return body
            const names = new Set<unknown>()
            return body.filter((pet) => {
              const name = isJsonObject(pet) ? pet.name : undefined
              if (names.has(name)) return false
              names.add(name)
              return true
            })
          })
        : answer,
    ),
  },
  {
    name: 'name-cut-at-1024-bytes',
    description: 'names are stored in 1,024 bytes of UTF-8 (a VARCHAR counted in bytes): a longer name is cut at the last whole character that fits',
    catches: ['createPet/long-names-kept'],
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: cutToUtf8Bytes(fields.name, 1_024) } : fields)),
  },
  {
    name: 'categoryId-int32-when-it-fits-32-bits',
    description: 'a categoryId that fits in 32 bits unsigned (0 to 2^32 - 1) is stored as a signed int32: 2^31 reads back as -2^31, 2^32 - 1 as -1',
    catches: ['createPet/integer-edges-round-trip'],
    wrap: rewritingNewPet((fields) => {
      const value = fields.categoryId instanceof JsonNumber ? exactInteger(fields.categoryId.text) : undefined
      return value !== undefined && value >= 0n && value < 2n ** 32n ? { ...fields, categoryId: new JsonNumber(String(BigInt.asIntN(32, value))) } : fields
    }),
  },
  {
    name: 'categoryId-numeric-string-accepted',
    description: 'POST /pets accepts categoryId "42" as the number 42',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) =>
      typeof fields.categoryId === 'string' && /^-?\d+$/.test(fields.categoryId) ? { ...fields, categoryId: new JsonNumber(fields.categoryId) } : fields,
    ),
  },
  {
    name: 'categoryId-fraction-truncated',
    description: 'POST /pets accepts a fractional categoryId and drops the fraction',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) => {
      const { categoryId } = fields
      if (!(categoryId instanceof JsonNumber) || exactInteger(categoryId.text) !== undefined) return fields
      const whole = /^-?\d+/.exec(categoryId.text)?.[0] ?? '0'
      return { ...fields, categoryId: new JsonNumber(whole) }
    }),
  },
  {
    name: 'unknown-status-dropped',
    description: 'POST /pets accepts a status string outside the enum and stores the pet without one',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) => {
      if (typeof fields.status !== 'string' || isPetStatus(fields.status)) return fields
      const { status: _dropped, ...rest } = fields
      return rest
    }),
  },
  {
    name: 'missing-name-defaulted',
    description: 'POST /pets accepts a body without name and stores the pet with an empty name',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) => ('name' in fields ? fields : { ...fields, name: '' })),
  },
  {
    name: 'create-answers-200',
    description: 'POST /pets answers 200 instead of 201',
    catches: ['createPet/returns-201-pet'],
    wrap: mapAnswers((answer, request) => (isCreatePet(request) && answer.status === 201 ? { ...answer, status: 200 } : answer)),
  },
  {
    name: 'categoryId-rounded',
    description: 'POST /pets reads the body with JSON.parse, so categoryId above 2^53 is rounded',
    catches: ['createPet/echoes-fields'],
    wrap: (reference) => async (request) => {
      if (!isCreatePet(request)) return reference(request)
      try {
        return reference({ ...request, body: JSON.stringify(JSON.parse(request.body)) })
      } catch {
        return reference(request)
      }
    },
  },
  {
    name: 'created-never-stored',
    description: 'POST /pets answers 201 with an id but the pet goes to a store nobody reads',
    catches: ['createPet/round-trip-get', 'createPet/created-pet-listed'],
    wrap: (reference, { apiKey }) => {
      const scratch = createReferenceHandler({ apiKey, store: new PetStore(1_000_000n) })
      return async (request) => (isCreatePet(request) ? scratch(request) : reference(request))
    },
  },
  {
    name: 'ids-repeat-in-pairs',
    description: 'the 201 answer gives every even id the id before it, so two pets share an id',
    catches: ['createPet/ids-unique'],
    wrap: rewritePets(isCreatePet, 201, (pet) => (pet.id instanceof JsonNumber ? { ...pet, id: new JsonNumber(String(((pet.id.integer ?? 1n) - 1n) | 1n)) } : pet)),
  },
  {
    name: 'created-status-not-echoed',
    description: 'the 201 answer leaves out the status that was sent (the pet is stored with it)',
    catches: ['createPet/echoes-fields'],
    wrap: rewritePets(isCreatePet, 201, ({ status: _left, ...rest }) => rest),
  },
  {
    name: 'invalid-body-422',
    description: 'an invalid NewPet is answered 422 (with a valid Error body saying 422) instead of 400',
    catches: ['createPet/invalid-body-400'],
    wrap: mapAnswers((answer, request) =>
      isCreatePet(request) && answer.status === 400 ? mapJsonBody({ ...answer, status: 422 }, (body) => (isJsonObject(body) ? { ...body, status: 422 } : body)) : answer,
    ),
  },
  {
    name: 'invalid-status-stored-as-available',
    description: 'a NewPet with a status outside the enum is answered 400, but stored with status available',
    catches: ['createPet/invalid-body-not-created'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      if (!isCreatePet(request) || answer.status !== 400) return answer
      const parsed = parseJson(request.body)
      if (!parsed.ok || !isJsonObject(parsed.value) || typeof parsed.value.status !== 'string') return answer
      await reference({ ...request, body: stringifyJson({ ...parsed.value, status: 'available' }) })
      return answer
    },
  },
  {
    name: 'created-id-as-string',
    description: 'the 201 answer writes the id as a JSON string',
    catches: ['createPet/body-schema', 'createPet/returns-201-pet'],
    wrap: rewritePets(isCreatePet, 201, (pet) => (pet.id instanceof JsonNumber ? { ...pet, id: pet.id.text } : pet)),
  },
  {
    name: 'create-conflict-500-on-duplicate-name',
    description: 'POST /pets fails with 500 when a pet of the same name exists (the spec does not make names unique)',
    catches: ['responses/no-server-error', 'createPet/returns-201-pet'],
    wrap:
      (reference, { store }) =>
      async (request) => {
        if (!isCreatePet(request)) return reference(request)
        const parsed = parseJson(request.body)
        const name = parsed.ok && isJsonObject(parsed.value) ? parsed.value.name : undefined
        const taken = typeof name === 'string' && store.list({ limit: Number.POSITIVE_INFINITY }).some((pet) => pet.name === name)
        return taken ? errorResponse(500, 'internal', 'duplicate key value violates unique constraint') : reference(request)
      },
  },
  {
    name: 'client-id-honoured',
    description: 'an id sent in the body is used for the new pet when no pet holds it',
    catches: ['createPet/client-id-not-honoured'],
    wrap: honoursSentId('when no pet holds it'),
  },
  {
    name: 'client-id-overwrites',
    description: 'a create that carries the id of an existing pet replaces that pet (201 with its id)',
    catches: ['createPet/client-id-not-honoured'],
    wrap: honoursSentId('when a pet holds it'),
  },
  {
    name: 'client-id-updates-existing',
    description: 'a create that carries the id of an existing pet gets a new id, but also writes its fields into that pet',
    catches: ['createPet/client-id-not-honoured'],
    wrap:
      (reference, { store }) =>
      async (request) => {
        const sentId = isCreatePet(request) ? sentIdOf(request.body) : undefined
        const answer = await reference(request)
        const id = createdId(answer)
        const created = id === undefined ? undefined : store.get(id)
        if (sentId !== undefined && created && store.get(sentId)) store.update(sentId, { ...created })
        return answer
      },
  },
  {
    name: 'client-id-refused-422',
    description: 'a NewPet that carries an id is refused with 422 (the policy allows 201 or 400)',
    catches: ['createPet/client-id-not-honoured', 'createPet/client-id-accepted'],
    wrap: (reference) => async (request) =>
      isCreatePet(request) && sentIdOf(request.body) !== undefined ? errorResponse(422, 'unprocessable', 'id must not be sent') : reference(request),
  },
  {
    name: 'no-known-field-defaults',
    description: 'a body object with none of name, categoryId, status ({} or unknown properties only) creates a pet with defaults',
    catches: ['createPet/invalid-body-edges'],
    wrap: rewritingNewPet((fields) => (['name', 'categoryId', 'status'].some((key) => key in fields) ? fields : { ...fields, name: '', categoryId: new JsonNumber('0') })),
  },
  {
    name: 'single-field-accepted',
    description: 'a body with only name, or only categoryId, is taken as a pet with the other defaulted',
    catches: ['createPet/invalid-body-edges'],
    wrap: rewritingNewPet((fields) => {
      const keys = Object.keys(fields)
      if (keys.length !== 1) return fields
      return keys[0] === 'name' ? { ...fields, categoryId: new JsonNumber('0') } : keys[0] === 'categoryId' ? { ...fields, name: 'unnamed' } : fields
    }),
  },
  {
    name: 'ids-racy-under-concurrency',
    description: 'the id is read (store size + 1) before the write completes, so creates that overlap get the same id and the later one overwrites the earlier',
    catches: ['createPet/concurrent-creates', 'createPet/ids-unique'],
    wrap:
      (reference, { store }) =>
      async (request) => {
        if (!isCreatePet(request)) return reference(request)
        const id = BigInt(store.size) + 1n
        // The write happens a turn later, as it would after a database round trip.
        await new Promise((resolve) => setImmediate(resolve))
        const answer = await reference(request)
        const assigned = createdId(answer)
        return assigned === undefined ? answer : movedTo(store, answer, assigned, id)
      },
  },
  {
    name: 'identical-bodies-answered-with-first-pet',
    description: 'a POST whose body, byte for byte, was seen before is answered 201 with the pet that body created (creates cached by body)',
    catches: ['createPet/repeated-creates'],
    wrap: answeredWithFirstPet(() => true),
  },
  {
    name: 'double-submit-protection-1s',
    description: 'the same body posted again within 1 s is taken for a double submit and answered with the first pet',
    catches: ['createPet/repeated-creates'],
    wrap: answeredWithFirstPet((firstAt) => Date.now() - firstAt < 1_000),
  },
  {
    name: 'replica-lags-8s',
    description: 'reads come from a replica 8 s behind the writes: longer than the 5 s consistency window',
    catches: ['createPet/round-trip-get', 'createPet/created-pet-listed'],
    wrap: lagsBehindWrites(8_000),
  },
  {
    name: 'numbers-read-as-python-decimals',
    description:
      "the body's numbers are read as Python's Decimal, to keep integers exact: an exponent of more digits than Decimal takes (5e99999999999999999999) raises InvalidOperation, unguarded, and the create fails with 500",
    catches: ['createPet/invalid-body-400', 'responses/no-server-error'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      if (isCreatePet(request) && /\d[eE][+-]?\d{19,}/.test(request.body)) throw new Error('decimal.InvalidOperation: [<class decimal.ConversionSyntax>]')
      return reference(request)
    },
  },
]

/** The longest start of `text` whose UTF-8 encoding fits in `bytes`, never cutting a character in two. */
function cutToUtf8Bytes(text: string, bytes: number): string {
  let used = 0
  let kept = ''
  for (const character of text) {
    used += Buffer.byteLength(character, 'utf8')
    if (used > bytes) break
    kept += character
  }
  return kept
}

/** A POST whose exact body created a pet before is answered with that pet's 201 answer, while `stillSame(when it was first seen)` holds. */
function answeredWithFirstPet(stillSame: (firstAt: number) => boolean): Variant['wrap'] {
  return (reference) => {
    const first = new Map<string, { answer: Promise<ServiceResponse>; at: number }>()
    return async (request) => {
      if (!isCreatePet(request)) return reference(request)
      const seen = first.get(request.body)
      if (seen && stillSame(seen.at)) return seen.answer
      const answer = reference(request)
      first.set(request.body, { answer, at: Date.now() })
      return answer
    }
  }
}

/** The pet just created moved to `id` (replacing any pet there), and its 201 answer saying so. */
function movedTo(store: PetStore, answer: ServiceResponse, from: bigint, id: bigint): ServiceResponse {
  store.rekey(from, id)
  return mapJsonBody(answer, (body) => (isJsonObject(body) ? { ...body, id } : body))
}

/** A create that takes the id sent in its body, either only when no pet holds it, or only when one does. */
function honoursSentId(when: 'when no pet holds it' | 'when a pet holds it'): Variant['wrap'] {
  return (reference, { store }) =>
    async (request) => {
      const sentId = isCreatePet(request) ? sentIdOf(request.body) : undefined
      const answer = await reference(request)
      const id = createdId(answer)
      if (sentId === undefined || id === undefined || (store.get(sentId) !== undefined) !== (when === 'when a pet holds it')) return answer
      return movedTo(store, answer, id, sentId)
    }
}

/** The integer id a POST body carries, if any. */
function sentIdOf(body: string): bigint | undefined {
  const parsed = parseJson(body)
  return parsed.ok && isJsonObject(parsed.value) && parsed.value.id instanceof JsonNumber ? parsed.value.id.integer : undefined
}
