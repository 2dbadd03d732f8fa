/** Faults of authentication: keys accepted that must not be, and 401 answered too late or without its challenge. */
import { parseJson } from '../../lib/http/json.js'
import { schemaViolations } from '../../lib/spec/schemas.js'
import { bearerToken, errorResponse } from '../../reference/handler.js'
import { acceptedAsValid, isCreatePet, isGetPet, isListPets, mapAnswers, type Variant, withValidKey } from '../variant.js'

export const authFaults: Variant[] = [
  {
    name: 'auth-skipped-on-getPet',
    description: 'GET /pets/{petId} answers without checking the key',
    catches: ['auth/missing-key-401', 'auth/wrong-key-401'],
    wrap: acceptedAsValid(isGetPet),
  },
  {
    name: 'missing-header-allowed-on-list',
    description: 'GET /pets without an Authorization header is answered as if the key were valid',
    catches: ['auth/missing-key-401'],
    wrap: acceptedAsValid((request) => isListPets(request) && request.headers.authorization === undefined),
  },
  {
    name: 'wrong-key-accepted-on-create',
    description: 'POST /pets accepts any Bearer token',
    catches: ['auth/wrong-key-401'],
    wrap: acceptedAsValid((request) => isCreatePet(request) && (bearerToken(request.headers.authorization) ?? '') !== ''),
  },
  {
    name: 'empty-token-accepted',
    description: '"Authorization: Bearer" with an empty token is accepted',
    catches: ['auth/empty-token-401'],
    wrap: acceptedAsValid((request) => /^bearer\s*$/i.test(request.headers.authorization ?? 'x')),
  },
  {
    name: 'any-scheme-accepted',
    description: 'the key is accepted under any scheme (Basic, Token, …), not only Bearer',
    catches: ['auth/other-scheme-401'],
    wrap: acceptedAsValid((request, apiKey) => /^\S+ +(\S+)$/.exec(request.headers.authorization ?? '')?.[1] === apiKey),
  },
  {
    name: 'key-prefix-accepted',
    description: 'a token that starts with the key is accepted',
    catches: ['auth/key-lookalike-401'],
    wrap: acceptedAsValid((request, apiKey) => bearerToken(request.headers.authorization)?.startsWith(apiKey) === true),
  },
  {
    name: 'key-suffix-accepted',
    description: 'a token that ends with the key is accepted',
    catches: ['auth/key-lookalike-401'],
    wrap: acceptedAsValid((request, apiKey) => bearerToken(request.headers.authorization)?.endsWith(apiKey) === true),
  },
  {
    name: 'not-found-before-auth',
    description: 'GET /pets/{unknown id} answers 404 even without a valid key',
    catches: ['auth/401-before-404'],
    wrap:
      (reference, { apiKey }) =>
      async (request) => {
        if (!isGetPet(request)) return reference(request)
        const answer = await reference(withValidKey(request, apiKey))
        return answer.status === 404 ? answer : reference(request)
      },
  },
  {
    name: 'validation-before-auth',
    description: 'an invalid request (limit=0, petId abc, a bad NewPet) is answered 400 before the key is checked',
    catches: ['auth/401-before-400'],
    wrap:
      (reference, { apiKey }) =>
      async (request) => {
        if (isCreatePet(request)) {
          // Validate the body first, without storing anything.
          const parsed = parseJson(request.body)
          const invalid = !parsed.ok || schemaViolations('NewPet', parsed.value).length > 0
          return invalid ? errorResponse(400, 'invalid_body', 'the body is not a valid NewPet') : reference(request)
        }
        const answer = await reference(withValidKey(request, apiKey))
        return answer.status === 400 ? answer : reference(request)
      },
  },
  {
    name: 'scheme-case-sensitive',
    description: 'only the exact spelling "Bearer" is accepted; "bearer" and "BEARER" get 401',
    catches: ['auth/scheme-case-insensitive'],
    wrap: (reference) => async (request) => {
      const scheme = /^(\S+) /.exec(request.headers.authorization ?? '')?.[1]
      return scheme && scheme !== 'Bearer' && scheme.toLowerCase() === 'bearer'
        ? reference({ ...request, headers: { ...request.headers, authorization: undefined } })
        : reference(request)
    },
  },
  {
    name: 'no-www-authenticate',
    description: '401 answers carry no WWW-Authenticate challenge',
    catches: ['auth/www-authenticate'],
    wrap: mapAnswers((answer) => {
      if (answer.status !== 401) return answer
      const { 'www-authenticate': _dropped, ...headers } = answer.headers
      return { ...answer, headers }
    }),
  },
]
