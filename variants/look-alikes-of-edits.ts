/**
 * Conformant services that answer edited requests in ways the policy allows but the plain request does not get
 * (policy §2b): a request the spec does not describe refused with 400, a Referer refused, a method read in any
 * case, a JSON text nested deeper than a parser's limit refused. Each must pass, warning only where it declares.
 * Every one refuses after auth: 401 comes before every other answer (policy §2, auth precedence).
 */
import { nestingDepth } from '../lib/http/json.js'
import { errorResponse } from '../reference/handler.js'
import type { ServiceRequest } from '../reference/http-types.js'
import { authorised, isCreatePet, isListPets, type Variant } from './variant.js'

/** Refused with `status` after auth when `refuses` holds; otherwise the reference's answer. */
function refusedAfterAuth(status: number, code: string, refuses: (request: ServiceRequest) => boolean): Variant['wrap'] {
  return (reference, { apiKey }) =>
    async (request) =>
      authorised(request, apiKey) && refuses(request) ? errorResponse(status, code, 'the request is not one this service reads') : reference(request)
}

export const editLookAlikes: Variant[] = [
  {
    name: 'unknown-query-parameters-refused-400',
    description: 'a list request with a query parameter the spec does not name (Limit, limit in another case, a duplicate name) is refused with 400 and an Error body',
    wrap: refusedAfterAuth(400, 'unknown_parameter', (request) => isListPets(request) && [...request.query.keys()].some((name) => name !== 'limit' && name !== 'status')),
  },
  {
    name: 'repeated-fields-refused-400',
    description:
      'a request that gives a query parameter twice, or Content-Type twice, is refused with 400 and an Error body (RFC 9110 §5.3 lets a recipient refuse a singleton field given twice; Accept is a list, and two of it are one list)',
    wrap: refusedAfterAuth(400, 'repeated_field', (request) => {
      const names = [...request.query.keys()]
      return new Set(names).size !== names.length || (request.headers['content-type'] ?? '').includes(', ')
    }),
  },
  {
    name: 'foreign-referer-refused-403',
    description: 'a request whose Referer is another site is refused with 403 and an Error body (RFC 9110 §10.1.3 lets servers refuse on Referer; the policy warns)',
    allowedWarnings: ['responses/meaningless-fields-ignored'],
    wrap: refusedAfterAuth(403, 'foreign_referer', (request) => request.headers.referer !== undefined),
  },
  {
    name: 'lower-case-methods-served',
    description: 'a method in another letter case (get, Post) is served as the method it spells (RFC 9110 §9.1 makes methods case-sensitive; the policy only records it)',
    wrap: (reference) => async (request) => reference(/^(get|post)$/i.test(request.method) ? { ...request, method: request.method.toUpperCase() } : request),
  },
  {
    name: 'deep-json-refused-400',
    description: 'a body nested deeper than 64 levels is refused with 400 and an Error body before it is read (RFC 8259 §9 lets a parser limit nesting)',
    wrap: refusedAfterAuth(400, 'too_deep', (request) => isCreatePet(request) && nestingDepth(request.body, 65) > 64),
  },
]
