/**
 * Faults that other rules once took the blame for: a service with one of them failed requirements it meets, because
 * one exchange varied two inputs, a check demanded a status another rule names, or a connection the service closed
 * lost a request. Each must fail exactly the rules it breaks (`onlyCatches`), at every seed.
 */
import { isJsonObject, JsonNumber, parseJson } from '../../lib/http/json.js'
import { errorResponse } from '../../reference/handler.js'
import type { ServiceResponse } from '../../reference/http-types.js'
import { authorised, isCreatePet, isListPets, type Variant } from '../variant.js'

const TWO_TO_53 = 2n ** 53n

/**
 * The reference, but for the creates with the key whose NewPet object `answer` answers itself (a service reads the
 * key before the body: auth/401-before-400).
 */
function answeringCreates(answer: (body: Record<string, unknown>) => ServiceResponse | undefined): Variant['wrap'] {
  return (reference, { apiKey }) =>
    async (request) => {
      const body = isCreatePet(request) && authorised(request, apiKey) ? newPetOf(request.body) : undefined
      return (body && answer(body)) ?? reference(request)
    }
}

/** The NewPet object of a create, when its body is one. */
function newPetOf(body: string): Record<string, unknown> | undefined {
  const parsed = parseJson(body)
  return parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined
}

export const attributionFaults: Variant[] = [
  {
    name: 'categoryId-beyond-2^53-refused',
    description:
      'a validator (zod, joi) refuses a categoryId beyond ±(2^53 - 1) with 400, "Number must be a safe integer"; any name is stored exactly, the hazardous ones included',
    catches: ['createPet/integer-edges-round-trip', 'createPet/returns-201-pet'],
    onlyCatches: true,
    wrap: answeringCreates(({ categoryId }) =>
      categoryId instanceof JsonNumber && categoryId.integer !== undefined && (categoryId.integer >= TWO_TO_53 || categoryId.integer <= -TWO_TO_53)
        ? errorResponse(400, 'invalid_body', 'categoryId: Number must be a safe integer')
        : undefined,
    ),
  },
  {
    name: 'nul-in-name-refused',
    description: 'a Python REST framework refuses a name holding NUL with 400, "Null characters are not allowed"; every categoryId round-trips',
    catches: ['createPet/hazardous-names', 'createPet/returns-201-pet'],
    onlyCatches: true,
    wrap: answeringCreates(({ name }) =>
      typeof name === 'string' && name.includes('\u0000') ? errorResponse(400, 'invalid_body', 'name: Null characters are not allowed.') : undefined,
    ),
  },
  {
    name: 'long-names-500-then-connection-reset',
    description:
      'a name over 1,000 characters overflows a column: 500 text/plain, after which the ASGI server gives the connection up without Connection: close, resetting the next request that comes on it',
    catches: ['createPet/long-names-kept', 'createPet/returns-201-pet', 'responses/no-server-error', 'responses/close-announced'],
    onlyCatches: true,
    wrap: answeringCreates(({ name }) =>
      typeof name === 'string' && name.length > 1_000
        ? { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Internal Server Error', delivery: { resetNextRequest: true } }
        : undefined,
    ),
  },
  {
    name: 'name-type-500-then-connection-reset',
    description:
      'a name that is not a string raises a type error: 500 text/plain, after which the ASGI server gives the connection up without Connection: close, resetting the next request that comes on it (whichever check sent it)',
    catches: ['createPet/invalid-body-400', 'responses/no-server-error', 'responses/close-announced'],
    onlyCatches: true,
    wrap: answeringCreates((body) =>
      'name' in body && typeof body.name !== 'string'
        ? { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Internal Server Error', delivery: { resetNextRequest: true } }
        : undefined,
    ),
  },
  {
    name: 'sold-list-500-json',
    description: 'GET /pets?status=sold fails with 500 and an Error body, correctly labelled application/json; every other request is answered right',
    // Its 500 to status=sold&limit=0 also breaks limit-out-of-range, whose words name "never a 5xx".
    catches: ['responses/no-server-error', 'listPets/limit-out-of-range'],
    onlyCatches: true,
    wrap:
      (reference, { apiKey }) =>
      async (request) => {
        if (isListPets(request) && request.query.get('status') === 'sold' && authorised(request, apiKey))
          return errorResponse(500, 'internal', 'the sold pets are archived elsewhere')
        return reference(request)
      },
  },
]
