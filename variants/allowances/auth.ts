/** How a conformant service may read the key and say it wants one: the SHOULDs of the Bearer scheme and of the challenge. */
import { errorResponse } from '../../reference/handler.js'
import type { Handler } from '../../reference/http-types.js'
import { mapAnswers, withoutHeader } from '../variant.js'
import type { Allowance } from './allowance.js'

/** Refuses with 401 and an Error body, before anything else, the Authorization values `refuses` picks. */
function refusesKeyWritten(refuses: (authorization: string) => boolean): (inner: Handler) => Handler {
  return (inner) => async (request) => {
    const authorization = request.headers.authorization
    return authorization !== undefined && refuses(authorization)
      ? errorResponse(401, 'unauthorized', 'the API key is missing or invalid', { 'www-authenticate': 'Bearer realm="petstore", error="invalid_token"' })
      : inner(request)
  }
}

export const authAllowances: Allowance[] = [
  {
    id: 'bearer-scheme-case-sensitive',
    does: 'the scheme is read only as "Bearer": bearer or BEARER is refused with 401',
    source: { policy: 'Bearer scheme case' },
    allowedBy: 'SHOULD: accept `bearer` in any letter case (RFC 9110 §11.1)',
    layer: 'auth',
    warns: ['auth/scheme-case-insensitive'],
    wrap: refusesKeyWritten((authorization) => /^[ \t]*[Bb][Ee][Aa][Rr][Ee][Rr]\b/.test(authorization) && !/^[ \t]*Bearer\b/.test(authorization)),
  },
  {
    id: 'bearer-one-space-only',
    does: 'the key is read only after exactly one space: "Bearer  <key>" (two spaces) is refused with 401 and an Error body',
    source: { policy: 'Bearer spacing' },
    allowedBy: 'A service that refuses two spaces with 401 and an Error body gets a warning, never a failure',
    layer: 'auth',
    warns: ['auth/bearer-spacing'],
    wrap: refusesKeyWritten((authorization) => /^[ \t]*bearer {2,}/i.test(authorization)),
  },
  {
    id: 'www-authenticate-left-out',
    does: 'a 401 carries no WWW-Authenticate challenge',
    source: { policy: '401 challenge' },
    allowedBy: 'SHOULD: `WWW-Authenticate: Bearer …` on 401',
    layer: 'answers',
    group: 'challenge',
    warns: ['auth/www-authenticate'],
    wrap: mapAnswers((answer) => (answer.status === 401 ? withoutHeader(answer, 'www-authenticate') : answer)),
  },
  {
    id: 'www-authenticate-several-challenges',
    does: 'a 401 offers two challenges in one WWW-Authenticate field, Basic first, then Bearer with a scope',
    source: { rfc: 'RFC 9110 §11.6.1' },
    allowedBy: 'A server may generate a WWW-Authenticate field with more than one challenge (RFC 9110 §11.6.1); the Bearer one is there',
    layer: 'answers',
    group: 'challenge',
    wrap: mapAnswers((answer) =>
      answer.status === 401
        ? { ...answer, headers: { ...answer.headers, 'www-authenticate': 'Basic realm="legacy", Bearer realm="petstore", scope="pets:read pets:write"' } }
        : answer,
    ),
  },
]
