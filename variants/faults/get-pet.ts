/** Faults of GET /pets/{petId}. */
import { exactInteger } from '../../lib/http/int64.js'
import { JsonNumber } from '../../lib/http/json.js'
import { decodedSegment, errorResponse, json, petBody } from '../../reference/handler.js'
import { PetStore } from '../../reference/pet-store.js'
import { isGetPet, mapAnswers, rewritePets, type Variant } from '../variant.js'

const petIdOf = (path: string) => decodedSegment(path.slice('/pets/'.length)) ?? ''

/** GET /pets/{petId} with its id read as a double, as `Number()` or a float parser reads it: exact only up to 2^53, and in steps above. */
const idReadThroughADouble: Variant['wrap'] = (reference) => async (request) => {
  if (!isGetPet(request)) return reference(request)
  const id = petIdOf(request.path)
  return /^\d+$/.test(id) ? reference({ ...request, path: `/pets/${BigInt(Number(id))}` }) : reference(request)
}

/** The radix of a Lisp number prefix: `#x` 16, `#b` 2, `#o` 8, `#d` and `#e` (exact) 10. */
const LISP_RADIX: Record<string, string> = { x: '0x', b: '0b', o: '0o', d: '', e: '' }

export const getPetFaults: Variant[] = [
  {
    name: 'petId-read-by-a-lisp-reader',
    description: "Racket's integer-arg (string->number): GET /pets/%23x1e, %23b11110, %23e30 and %23d30 read as pet 30",
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const lisp = isGetPet(request) ? /^#([xbode])(-?)([0-9a-fA-F]+)$/.exec(petIdOf(request.path)) : null
      if (!lisp) return reference(request)
      const [, radix = '', sign = '', digits = ''] = lisp
      try {
        return reference({ ...request, path: `/pets/${sign}${BigInt(`${LISP_RADIX[radix]}${digits}`)}` })
      } catch {
        return reference(request)
      }
    },
  },
  {
    name: 'getPet-long-id-414',
    description: "Fastify's default maxParamLength: a path parameter over 100 characters is answered 414 URI Too Long, before the route reads it",
    catches: ['getPet/invalid-id'],
    wrap: (reference) => async (request) =>
      isGetPet(request) && request.path.length - '/pets/'.length > 100 ? errorResponse(414, 'uri_too_long', 'URI Too Long') : reference(request),
  },
  {
    name: 'getPet-long-id-404-before-auth',
    description:
      "Fastify's frameworkErrors without the key check: a path parameter over 100 characters is answered 404 with an Error body before the auth hook runs, with or without the key",
    catches: ['auth/401-before-400', 'getPet/invalid-id'],
    wrap: (reference) => async (request) => (isGetPet(request) && request.path.length - '/pets/'.length > 100 ? errorResponse(404, 'not_found', 'Not found') : reference(request)),
  },
  {
    name: 'getPet-never-answers',
    description: 'GET /pets/{petId} never answers: the request is read and the connection held open, nothing is sent',
    catches: ['getPet/returns-pet'],
    wrap: (reference) => async (request) => (isGetPet(request) ? new Promise<never>(() => {}) : reference(request)),
  },
  {
    name: 'getPet-404-above-id-50',
    description: 'GET /pets/{petId} answers 404 for every id above 50 (shows only with more than 50 pets)',
    catches: ['getPet/returns-pet', 'createPet/round-trip-get'],
    wrap: mapAnswers((answer, request) =>
      isGetPet(request) && answer.status === 200 && (exactInteger(petIdOf(request.path)) ?? 0n) > 50n ? errorResponse(404, 'not_found', 'no such pet') : answer,
    ),
  },
  {
    name: 'getPet-neighbour',
    description: 'GET /pets/{petId} returns the pet stored after the one asked for, when there is one',
    catches: ['getPet/returns-pet', 'createPet/round-trip-get'],
    wrap:
      (reference, { store }) =>
      async (request) => {
        const answer = await reference(request)
        const id = exactInteger(petIdOf(request.path))
        const next = id === undefined ? undefined : store.get(id + 1n)
        return isGetPet(request) && answer.status === 200 && next ? json(200, petBody(next)) : answer
      },
  },
  {
    name: 'getPet-name-upper-cased',
    description: 'GET /pets/{petId} shows the name in upper case',
    catches: ['getPet/matches-listed-pet', 'createPet/round-trip-get'],
    wrap: rewritePets(isGetPet, 200, (pet) => (typeof pet.name === 'string' ? { ...pet, name: pet.name.toUpperCase() } : pet)),
  },
  {
    name: 'getPet-categoryId-as-string',
    description: 'GET /pets/{petId} writes categoryId as a JSON string',
    catches: ['getPet/body-schema'],
    wrap: rewritePets(isGetPet, 200, (pet) => (pet.categoryId instanceof JsonNumber ? { ...pet, categoryId: pet.categoryId.text } : pet)),
  },
  {
    name: 'getPet-rounds-large-ids',
    description: 'GET /pets/{petId} parses the id as a double, so ids above 2^53 are not found (the store assigns ids from 2^60)',
    catches: ['getPet/returns-pet', 'createPet/round-trip-get'],
    store: () => new PetStore(2n ** 60n + 1n),
    wrap: idReadThroughADouble,
  },
  {
    name: 'getPet-neighbour-ids-reach-a-pet',
    description:
      'GET /pets/{petId} parses the id as a double; the store assigns ids 4,096 apart from 2^62, each exact in a double, so every stored pet is found, and the ids next to it read as it',
    catches: ['getPet/returns-pet'],
    store: () => new PetStore(2n ** 62n, 4_096n),
    wrap: idReadThroughADouble,
  },
  {
    name: 'getPet-format-suffix-read',
    description: 'the router reads a format from a suffix of the id, as Mojolicious and Rails do: GET /pets/1.json answers pet 1 (notation)',
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const suffixed = isGetPet(request) ? /^(\d+)\.(json|xml|html|txt)$/.exec(petIdOf(request.path)) : null
      return reference(suffixed ? { ...request, path: `/pets/${suffixed[1]}` } : request)
    },
  },
  {
    name: 'getPet-json-suffix-stripped',
    description:
      'the handler strips a `.json` suffix from the id before it parses it (Rust\'s strip_suffix(".json")), and no other suffix: GET /pets/1.json answers pet 1 (notation)',
    catches: ['getPet/other-notations'],
    provenByEdits: ['notation'],
    wrap: (reference) => async (request) => {
      const suffixed = isGetPet(request) ? /^(\d+)\.json$/.exec(petIdOf(request.path)) : null
      return reference(suffixed ? { ...request, path: `/pets/${suffixed[1]}` } : request)
    },
  },
  {
    name: 'unknown-id-200-empty',
    description: 'GET /pets/{petId} of an unknown id answers 200 with {}',
    catches: ['getPet/unknown-id-404'],
    wrap: mapAnswers((answer, request) => (isGetPet(request) && answer.status === 404 ? json(200, {}) : answer)),
  },
  {
    name: 'unknown-id-404-empty-body',
    description: 'GET /pets/{petId} of an unknown id answers 404 with an empty body',
    catches: ['getPet/unknown-id-404', 'errors/body-schema'],
    wrap: mapAnswers((answer, request) => (isGetPet(request) && answer.status === 404 ? { status: 404, headers: {}, body: '' } : answer)),
  },
  {
    name: 'invalid-id-500',
    description: 'GET /pets/abc fails with 500',
    catches: ['getPet/invalid-id', 'responses/no-server-error'],
    wrap: mapAnswers((answer, request) => (isGetPet(request) && answer.status === 400 ? errorResponse(500, 'internal', 'NumberFormatException') : answer)),
  },
  {
    name: 'invalid-id-parsed-leniently',
    description: 'GET /pets/1.5 reads the id with parseInt and answers 200 with pet 1',
    catches: ['getPet/invalid-id'],
    wrap: (reference) => async (request) => {
      if (!isGetPet(request)) return reference(request)
      const id = petIdOf(request.path)
      const lenient = /^-?\d+\.\d+$/.test(id) ? id.split('.')[0] : undefined
      return lenient ? reference({ ...request, path: `/pets/${lenient}` }) : reference(request)
    },
  },
  {
    name: 'min-int64-500',
    description: 'GET /pets/-9223372036854775808 fails with 500: taking the absolute value overflows',
    catches: ['getPet/int64-edge-ids'],
    wrap: (reference) => async (request) =>
      isGetPet(request) && request.path === '/pets/-9223372036854775808' ? errorResponse(500, 'internal', 'integer overflow') : reference(request),
  },
  {
    name: 'id-zero-means-first',
    description: 'GET /pets/0 answers the first pet of the store (0 read as "no id given")',
    catches: ['getPet/int64-edge-ids'],
    wrap:
      (reference, { store }) =>
      async (request) => {
        const [first] = store.list({ limit: 1 })
        return isGetPet(request) && request.path === '/pets/0' && first && !store.get(0n) ? reference({ ...request, path: `/pets/${first.id}` }) : reference(request)
      },
  },
  {
    name: 'absent-id-zero-answers-a-zero-pet',
    description:
      'Go\'s zero value: GET /pets/0 reads the map entry no pet holds and answers 200 with the struct\'s zero value, {"id":0,"name":"","categoryId":0}, since the lookup\'s miss is judged by `pet.ID != id`',
    catches: ['getPet/int64-edge-ids'],
    freshStore: true,
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return isGetPet(request) && request.path === '/pets/0' && answer.status === 404 ? json(200, { id: 0, name: '', categoryId: 0 }) : answer
    },
  },
  {
    name: 'negative-id-absolute',
    description: 'GET /pets/-N answers pet N: the sign is dropped',
    catches: ['getPet/int64-edge-ids'],
    wrap: (reference) => async (request) =>
      isGetPet(request) && /^\/pets\/-\d+$/.test(request.path) ? reference({ ...request, path: request.path.replace('/-', '/') }) : reference(request),
  },
]
