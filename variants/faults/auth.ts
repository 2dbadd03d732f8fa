/** Faults of authentication: keys accepted that must not be, and 401 answered too late or without its challenge. */
import { parseJson } from '../../lib/http/json.js'
import { schemaViolations } from '../../lib/spec/schemas.js'
import { bearerToken, decodedSegment, errorResponse } from '../../reference/handler.js'
import { type Allowance, warnedFaultOf } from '../allowances/allowance.js'
import { authAllowances } from '../allowances/auth.js'
import { acceptedAsValid, authorised, cookiePairs, fieldNamesAsSent, isCreatePet, isGetPet, isListPets, mapAnswers, type Variant, withoutHeader, withValidKey } from '../variant.js'

/** A field value read as a list: split at commas, each element stripped of the optional whitespace around it (SP, HTAB). */
const listElements = (value: string | undefined) => (value ?? '').split(',').map((element) => element.replace(/^[ \t]+|[ \t]+$/g, ''))

export const authFaults: Variant[] = [
  {
    name: 'auth-skipped-on-getPet',
    description: 'GET /pets/{petId} answers without checking the key',
    catches: ['auth/missing-key-401', 'auth/wrong-key-401'],
    wrap: acceptedAsValid(isGetPet),
  },
  {
    name: 'key-read-from-create-body',
    description: "passport-http-bearer's places for the token (RFC 6750 §2.2): without an Authorization header, POST /pets takes the key from the body's access_token member",
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => {
      if (!isCreatePet(request) || request.headers.authorization !== undefined) return false
      const parsed = parseJson(request.body)
      return (
        parsed.ok && typeof parsed.value === 'object' && parsed.value !== null && !Array.isArray(parsed.value) && (parsed.value as Record<string, unknown>).access_token === apiKey
      )
    }),
  },
  {
    name: 'path-decoded-before-auth-400',
    description: "hapi's router percent-decodes the path before auth runs, and answers 400 to an escape that is no UTF-8 (GET /pets/%FF1), with or without the key",
    catches: ['auth/401-before-400'],
    wrap: (reference) => async (request) => {
      const raw = (request.rawTarget ?? '').split('?')[0] ?? ''
      try {
        decodeURIComponent(raw)
        return reference(request)
      } catch {
        return errorResponse(400, 'bad_request', 'Bad Request')
      }
    },
  },
  {
    name: 'cookies-parsed-before-auth',
    description:
      'hapi parses the Cookie header before auth: a cookie RFC 6265 would not write (a space in a value, an open quote) is answered 400 Invalid cookie value, with or without the key',
    catches: ['auth/missing-key-401', 'responses/meaningless-fields-ignored'],
    provenByEdits: ['add-field'],
    wrap: (reference) => async (request) => {
      const cookie = request.headers.cookie
      const malformed = cookie?.split(';').some((pair) => /^[^=]*=\s*(?:"[^"]*"|[^\s",;\\]*)\s*$/.test(pair) === false) ?? false
      return malformed ? errorResponse(400, 'bad_request', 'Invalid cookie value') : reference(request)
    },
  },
  {
    name: 'challenge-only-without-credentials',
    description: 'a 401 carries WWW-Authenticate only when no Authorization came; one to a wrong key has none (RFC 6750 §3 asks for it on both)',
    catches: ['auth/www-authenticate'],
    wrap: mapAnswers((answer, request) => (answer.status === 401 && request.headers.authorization !== undefined ? withoutHeader(answer, 'www-authenticate') : answer)),
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
    name: 'credentials-split-at-commas-last-read',
    description:
      'the Authorization value is read as a list (a layer joins two lines with ", ", RFC 9110 §5.3, and the service takes the last part): `Bearer other, Bearer <key>` gets in',
    catches: ['auth/key-lookalike-401'],
    wrap: acceptedAsValid((request, apiKey) => bearerToken(listElements(request.headers.authorization).at(-1)) === apiKey),
  },
  {
    name: 'credentials-split-at-commas-first-read',
    description: 'the Authorization value is split at commas and its first part read: `Bearer <key>, Bearer other` gets in',
    catches: ['auth/key-lookalike-401'],
    wrap: acceptedAsValid((request, apiKey) => bearerToken(listElements(request.headers.authorization)[0]) === apiKey),
  },
  {
    name: 'token-unicode-whitespace-trimmed',
    description:
      'the Authorization header is read as UTF-8 and its token trimmed of Unicode whitespace (String.prototype.trim): the key with U+00A0, U+2007 or U+FEFF around it is accepted',
    catches: ['auth/key-lookalike-401'],
    wrap: acceptedAsValid((request, apiKey) => {
      const header = Buffer.from(request.headers.authorization ?? '', 'latin1').toString('utf8')
      return /^Bearer /i.test(header) && header.slice('Bearer '.length).trim() === apiKey
    }),
  },
  {
    name: 'auth-value-start-trimmed-of-unicode-whitespace',
    description:
      "a header's value is taken after Perl's \\s* past the colon, as Mojo::Headers reads it under unicode_strings: NBSP or NEL before the scheme goes, and `Authorization:\\xA0Bearer <key>` gets in",
    catches: ['auth/key-lookalike-401'],
    provenByEdits: ['octet'],
    wrap: acceptedAsValid((request, apiKey) => bearerToken((request.headers.authorization ?? '').replace(/^[\s\x85]+/, '')) === apiKey),
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
  // The SHOULD departures the policy allows, and so warns on: the scheme read only as "Bearer", a key refused after two spaces, no challenge.
  ...['bearer-scheme-case-sensitive', 'bearer-one-space-only', 'www-authenticate-left-out'].map((id) =>
    warnedFaultOf(authAllowances.find((allowance) => allowance.id === id) as Allowance),
  ),
  {
    name: 'key-accepted-as-api-key-parameter',
    description: 'the key is also read from the api_key query parameter',
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => request.query.get('api_key') === apiKey),
  },
  {
    name: 'key-accepted-as-access-token-parameter',
    description: 'the key is also read from the access_token query parameter (OAuth style)',
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => request.query.get('access_token') === apiKey),
  },
  {
    name: 'key-accepted-as-form-access-token',
    description:
      "the key is also read from an access_token field of form content, RFC 6750 §2.2's form-encoded body parameter, as a Bearer strategy that reads the request's parameters does: on a create's form body, and on a GET's",
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid(
      (request, apiKey) =>
        (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded') && new URLSearchParams(request.body).get('access_token') === apiKey,
    ),
  },
  {
    name: 'bearer-separator-not-read',
    description: "the key is what follows the scheme and one octet, whatever that octet is, as echo 4's KeyAuth reads auth[7:]: Bearer:KEY and Bearer_KEY get in",
    catches: ['auth/key-lookalike-401', 'auth/no-access-without-key'],
    provenByEdits: ['octet'],
    wrap: acceptedAsValid((request, apiKey) => {
      const value = request.headers.authorization ?? ''
      return value.startsWith('Bearer') && value.length > 7 && value[6] !== ' ' && value.slice(7) === apiKey
    }),
  },
  {
    name: 'key-accepted-in-cookie',
    description: 'the key is also read from an access_token cookie',
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => cookiePairs(request).includes(`access_token=${apiKey}`)),
  },
  {
    name: 'field-names-matched-case-sensitively',
    description:
      'the key is looked for under the field name `Authorization` exactly as written, as fasthttp does with DisableHeaderNamesNormalizing: `authorization: Bearer <key>` is taken for no key, though field names are case-insensitive (RFC 9110 §5.1)',
    catches: ['listPets/equivalent-spellings', 'getPet/equivalent-spellings', 'createPet/equivalent-spellings'],
    provenByEdits: ['case'],
    wrap: (reference) => async (request) => {
      if (request.headers.authorization === undefined || fieldNamesAsSent(request).includes('Authorization')) return reference(request)
      const { authorization: _unread, ...headers } = request.headers
      return reference({ ...request, headers })
    },
  },
  {
    name: 'key-accepted-in-x-auth-token',
    description: 'the key is also read from an X-Auth-Token header, as an API gateway in front reads it',
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => request.headers['x-auth-token'] === apiKey),
  },
  {
    name: 'key-accepted-as-proxy-authorization',
    description: 'the Bearer key is also read from Proxy-Authorization, which an auth layer that looks for "authorization" in a header name finds',
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => bearerToken(request.headers['proxy-authorization']) === apiKey),
  },
  {
    name: 'session-cookie-grants-access',
    description:
      'a keyed answer sets a session cookie (Set-Cookie: petstore_session=…), and the cookie alone is then taken for the key, as a session middleware left on in front of the API does',
    catches: ['auth/key-elsewhere-refused'],
    wrap: (reference, { apiKey }) => {
      const session = 'petstore_session=s3ss10n-7f2c'
      return async (request) => {
        const fromSession = !authorised(request, apiKey) && cookiePairs(request).includes(session)
        const answer = await reference(fromSession ? withValidKey(request, apiKey) : request)
        // A cookie with an Expires date first: its comma is not where a second cookie starts.
        const cookies = `theme=dark; Expires=Wed, 21 Oct 2037 07:28:00 GMT, ${session}; Path=/; HttpOnly`
        return authorised(request, apiKey) ? { ...answer, headers: { ...answer.headers, 'set-cookie': cookies } } : answer
      }
    },
  },
  {
    name: 'key-accepted-in-x-api-key',
    description: 'the key is also read from an X-API-Key header',
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => request.headers['x-api-key'] === apiKey),
  },
  {
    name: 'key-accepted-without-scheme',
    description: '"Authorization: <key>" with no scheme is accepted',
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => request.headers.authorization === apiKey),
  },
  {
    name: 'key-accepted-as-basic-password',
    description: 'Basic credentials whose password is the key are accepted',
    catches: ['auth/key-elsewhere-refused'],
    wrap: acceptedAsValid((request, apiKey) => {
      const encoded = /^basic +(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
      return encoded !== undefined && Buffer.from(encoded, 'base64').toString('utf8').split(':')[1] === apiKey
    }),
  },
  {
    name: 'trailing-slash-unguarded',
    description: 'the auth layer guards /pets and /pets/{id} exactly, while the router also serves them with a trailing slash',
    catches: ['auth/path-spelling-refused'],
    wrap: routedWithoutAuth((path) => (path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : undefined)),
  },
  {
    name: 'case-insensitive-router-unguarded',
    description: 'the router matches paths in any letter case, the auth layer only the exact spelling',
    catches: ['auth/path-spelling-refused'],
    wrap: routedWithoutAuth((path) => (path !== path.toLowerCase() ? path.toLowerCase() : undefined)),
  },
  {
    name: 'doubled-slash-unguarded',
    description: 'the router collapses doubled slashes, the auth layer does not',
    catches: ['auth/path-spelling-refused'],
    wrap: routedWithoutAuth((path) => (path.includes('//') ? path.replace(/\/{2,}/g, '/') : undefined)),
  },
  {
    name: 'percent-decoding-router-unguarded',
    description: 'the router decodes percent-encoded letters, the auth layer compares the raw path',
    catches: ['auth/path-spelling-refused'],
    wrap: routedWithoutAuth((path) => (/%[0-9a-f]{2}/i.test(path) ? decodedSegment(path) : undefined)),
  },
]

/**
 * An auth layer that guards only the canonical spelling of a path, in front of a router that also serves
 * other spellings: `canonical` gives the path the router would serve, or undefined for a canonical one.
 */
function routedWithoutAuth(canonical: (path: string) => string | undefined): Variant['wrap'] {
  return (reference, { apiKey }) =>
    async (request) => {
      // The path as it came (the reference's own path is already normalised), without its query.
      const served = canonical((request.target ?? request.path).split('?')[0] ?? request.path)
      return served === undefined ? reference(request) : reference(withValidKey({ ...request, path: served }, apiKey))
    }
}
