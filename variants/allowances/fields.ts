/** How a conformant service may answer header fields the API gives no meaning to, and an Accept that admits no JSON. */
import { acceptAdmitsJson } from '../../lib/neighbourhood/request-meaning.js'
import type { ServiceRequest } from '../../reference/http-types.js'
import type { Allowance } from './allowance.js'
import { refusedAfterAuth } from './list-pets.js'

const admitsNoJson = (request: ServiceRequest) => !acceptAdmitsJson(request.headers.accept)

const MEANINGLESS = { policy: 'a header that carries no meaning for this API' } as const

export const fieldAllowances: Allowance[] = [
  {
    id: 'accept-without-json-406',
    does: 'a request whose Accept admits no JSON (text/html, an empty list, application/json;q=0, a value with a stray octet) is answered 406 with an Error body, after auth',
    source: { policy: 'to an `Accept` that admits no JSON, 406 with an Error body or the answer in JSON' },
    allowedBy: 'to an `Accept` that admits no JSON, 406 with an Error body or the answer in JSON (RFC 9110 §12.5.1)',
    layer: 'service',
    wrap: refusedAfterAuth(406, 'not_acceptable', admitsNoJson),
  },
  {
    id: 'foreign-referer-refused-403',
    does: 'a request whose Referer is another site is refused with 403 and an Error body, after auth',
    source: MEANINGLESS,
    allowedBy: 'RFC 9110 §10.1.3 lets servers refuse on `Referer`, so a refusal passes only as a 4xx with an Error body (SHOULD)',
    layer: 'service',
    warns: ['responses/meaningless-fields-ignored'],
    wrap: refusedAfterAuth(403, 'foreign_referer', (request) => request.headers.referer !== undefined),
  },
  {
    id: 'foreign-origin-refused-403',
    does: 'a request that carries an Origin (a browser on another site) is refused with 403 and an Error body, after auth, as a CORS guard does',
    source: MEANINGLESS,
    allowedBy: 'a header that carries no meaning … does not change the answer (SHOULD; the Error body and no-access parts MUST)',
    layer: 'service',
    warns: ['responses/meaningless-fields-ignored'],
    wrap: refusedAfterAuth(403, 'foreign_origin', (request) => request.headers.origin !== undefined),
  },
]
