/**
 * Faulty implementations: the reference with exactly one deviation from the spec or the policy.
 * Each names the requirements that must catch it; the self-tests run the real command against each.
 */
import { isJsonObject } from '../lib/json.js'
import { bearerToken, createReferenceHandler, errorResponse, json, petBody } from '../reference/handler.js'
import { type PetStatus, PetStore } from '../reference/pet-store.js'
import { createBodyFaults } from './create-body-faults.js'
import { mapJsonBody, type Variant } from './variant.js'

export const faults: Variant[] = [
  {
    name: 'default-limit-25',
    description: 'GET /pets without limit returns up to 25 pets',
    catches: ['listPets/limit-default-20'],
    wrap: (reference) => async (request) => {
      if (request.path === '/pets' && request.method === 'GET' && !request.query.has('limit')) {
        const query = new URLSearchParams(request.query)
        query.set('limit', '25')
        return reference({ ...request, query })
      }
      return reference(request)
    },
  },
  {
    name: 'limit-off-by-one',
    description: 'limit=N returns N+1 pets',
    catches: ['listPets/limit-caps-size'],
    wrap:
      (reference, { store }) =>
      async (request) => {
        const answer = await reference(request)
        const limit = Number(request.query.get('limit'))
        if (answer.status !== 200 || request.path !== '/pets' || !request.query.has('limit')) return answer
        const status = request.query.get('status') as PetStatus | null
        return json(200, store.list({ limit: limit + 1, ...(status ? { status } : {}) }).map(petBody))
      },
  },
  {
    name: 'auth-skipped-on-getPet',
    description: 'GET /pets/{petId} answers without checking the key',
    catches: ['auth/missing-key-401', 'auth/wrong-key-401'],
    wrap:
      (reference, { apiKey }) =>
      async (request) =>
        request.method === 'GET' && request.path.startsWith('/pets/')
          ? reference({ ...request, headers: { ...request.headers, authorization: `Bearer ${apiKey}` } })
          : reference(request),
  },
  {
    name: 'key-prefix-accepted',
    description: 'a token that starts with the key is accepted',
    catches: ['auth/key-lookalike-401'],
    wrap:
      (reference, { apiKey }) =>
      async (request) => {
        const token = bearerToken(request.headers.authorization)
        return token?.startsWith(apiKey) ? reference({ ...request, headers: { ...request.headers, authorization: `Bearer ${apiKey}` } }) : reference(request)
      },
  },
  {
    name: 'not-found-before-auth',
    description: 'GET /pets/{unknown id} answers 404 even without a valid key',
    catches: ['auth/401-before-404'],
    wrap:
      (reference, { apiKey, store }) =>
      async (request) => {
        const match = /^\/pets\/(-?\d+)$/.exec(request.path)
        if (request.method === 'GET' && match && store.get(BigInt(match[1] as string)) === undefined) {
          return reference({ ...request, headers: { ...request.headers, authorization: `Bearer ${apiKey}` } })
        }
        return reference(request)
      },
  },
  {
    name: 'error-without-status',
    description: 'Error bodies lack the status field',
    catches: ['errors/body-schema'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return answer.status >= 400 ? mapJsonBody(answer, (body) => (isJsonObject(body) ? { code: body.code, message: body.message } : body)) : answer
    },
  },
  {
    name: 'error-status-always-400',
    description: 'Error bodies say status 400 whatever the HTTP status',
    catches: ['errors/status-matches-http'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return answer.status >= 400 ? mapJsonBody(answer, (body) => (isJsonObject(body) ? { ...body, status: 400 } : body)) : answer
    },
  },
  {
    name: 'create-answers-200',
    description: 'POST /pets answers 200 instead of 201',
    catches: ['createPet/returns-201-pet'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return request.method === 'POST' && answer.status === 201 ? { ...answer, status: 200 } : answer
    },
  },
  {
    name: 'list-wrapped-in-object',
    description: 'GET /pets answers {"pets": [...]} instead of a bare array',
    catches: ['listPets/returns-pets', 'listPets/body-schema'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return request.path === '/pets' && request.method === 'GET' && answer.status === 200 ? mapJsonBody(answer, (body) => ({ pets: body })) : answer
    },
  },
  {
    name: 'status-filter-ignored',
    description: 'GET /pets ignores the status filter',
    catches: ['listPets/status-filter-matches'],
    wrap: (reference) => async (request) => {
      if (request.path !== '/pets' || request.method !== 'GET' || !['available', 'pending', 'sold'].includes(request.query.get('status') ?? '')) return reference(request)
      const query = new URLSearchParams(request.query)
      query.delete('status')
      return reference({ ...request, query })
    },
  },
  {
    name: 'list-labelled-text-plain',
    description: 'GET /pets labels its JSON text/plain',
    catches: ['responses/json-content-type'],
    wrap: (reference) => async (request) => {
      const answer = await reference(request)
      return request.path === '/pets' && request.method === 'GET' ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain' } } : answer
    },
  },
  {
    name: 'categoryId-rounded',
    description: 'POST /pets reads the body with JSON.parse, so categoryId above 2^53 is rounded',
    catches: ['createPet/echoes-fields'],
    wrap: (reference) => async (request) => {
      if (request.method !== 'POST') return reference(request)
      try {
        return reference({ ...request, body: JSON.stringify(JSON.parse(request.body)) })
      } catch {
        return reference(request)
      }
    },
  },
  {
    name: 'invalid-limit-500',
    description: 'limit=0 makes GET /pets fail with 500',
    catches: ['listPets/limit-out-of-range', 'responses/no-server-error'],
    wrap: (reference) => async (request) =>
      request.path === '/pets' && request.query.get('limit') === '0' && bearerToken(request.headers.authorization)
        ? errorResponse(500, 'internal', 'division by zero')
        : reference(request),
  },
  {
    name: 'created-never-stored',
    description: 'POST /pets answers 201 with an id but the pet goes to a store nobody reads',
    catches: ['createPet/round-trip-get', 'createPet/created-pet-listed'],
    wrap: (reference, { apiKey }) => {
      const scratch = createReferenceHandler({ apiKey, store: new PetStore(1_000_000n) })
      return async (request) => (request.method === 'POST' ? scratch(request) : reference(request))
    },
  },
  ...createBodyFaults,
]
