/** How a conformant service may answer a petId the spec does not make an id: 404 for 400, 400 for ids it never assigns, lenient readings the policy records. */
import { errorResponse } from '../../reference/handler.js'
import { isGetPet, mapAnswers } from '../variant.js'
import type { Allowance } from './allowance.js'

export const getPetAllowances: Allowance[] = [
  {
    id: 'invalid-id-404',
    does: 'a petId that is not an int64 is answered 404 (not 400)',
    source: { policy: 'non-integer or out-of-int64 `petId`' },
    allowedBy: 'MUST: 400 or 404 with a valid Error body, never 2xx or 5xx',
    layer: 'service',
    wrap: mapAnswers((answer, request) => (isGetPet(request) && answer.status === 400 ? errorResponse(404, 'not_found', 'no such pet') : answer)),
  },
  {
    id: 'negative-ids-400',
    does: 'a negative petId is refused with 400 (ids are never negative here) instead of 404',
    source: { policy: 'ids at the edges of int64 in the path' },
    allowedBy: 'else 404 (400 accepted) with an Error body',
    layer: 'service',
    wrap: mapAnswers((answer, request) =>
      isGetPet(request) && answer.status === 404 && /^\/pets\/-/.test(request.path) ? errorResponse(400, 'invalid_pet_id', 'petId must not be negative') : answer,
    ),
  },
  {
    id: 'top-int64-ids-400',
    does: 'GET /pets/{id} of the two highest int64 ids (2^63-2, 2^63-1) is refused with 400 and a valid Error body (its ids stop short of them) instead of 404',
    source: { policy: 'ids at the edges of int64 in the path' },
    allowedBy: 'else 404 (400 accepted) with an Error body',
    layer: 'service',
    wrap: mapAnswers((answer, request) =>
      answer.status === 404 && isGetPet(request) && /^\/pets\/922337203685477580[67]$/.test(request.path)
        ? errorResponse(400, 'invalid_pet_id', 'petId is beyond the ids this store assigns')
        : answer,
    ),
  },
  {
    id: 'lenient-id-notations-read',
    does: 'GET /pets/{id} reads +30, 030, 30.0 and 30e0 as the id 30',
    source: { policy: 'other notations' },
    allowedBy: 'INFO only, since readings differ: `+5`, `05`, `5.0`, `1e1`',
    layer: 'service',
    wrap: (inner) => async (request) => {
      const id = isGetPet(request) ? request.path.slice('/pets/'.length) : ''
      const lenient = /^\+?\d+(\.0+)?(e0)?$/i.test(id) && !/^\d+$/.test(id) ? String(BigInt(id.replace(/^\+/, '').replace(/(\.0+)?(e0)?$/i, ''))) : undefined
      return lenient ? inner({ ...request, path: `/pets/${lenient}` }) : inner(request)
    },
  },
]
