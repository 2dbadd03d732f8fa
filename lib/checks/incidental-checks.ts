/**
 * Requirements judged on every exchange, whichever check sent it (policy §2b): no 2xx and no pet data without
 * the key, no 5xx, JSON labelled as JSON, every body valid against the schema of its operation and status, Error
 * status equal to HTTP status, and no list longer than 100 or than the limit it was asked for. An edited request
 * that HTTP refuses as written may be refused by the HTTP layer in its own words, and a method the spec does not
 * name may get 501 (RFC 9110 §9.1): those answers are held to the key and nothing else.
 */

import { isJsonObject, JsonNumber } from '../http/json.js'
import { responseJson } from '../http/response-json.js'
import { isRateLimitAnswer } from '../http/waits.js'
import { type KeyState, keyInValue } from '../http/wire-reading.js'
import { listJudgement } from '../neighbourhood/operation-judgements.js'
import { GET_PET_REMOVAL, type RequirementId } from '../spec/catalogue.js'
import type { Operation, OperationExchange } from '../spec/petstore-api.js'
import type { RuleSourceId } from '../spec/rule-sources.js'
import { formatViolations, type SchemaName, schemaViolations } from '../spec/schemas.js'
import { mediaType, petDataIn } from './assertions.js'

/** The requirements judged on every exchange (any check's request may be the one that shows a failure), each with the source of its rule (policy §2b). */
export const EVERY_EXCHANGE_SOURCES = {
  'auth/no-access-without-key': 'no access without the key',
  'listPets/limit-max-100': 'list answers',
  'listPets/limit-caps-size': 'list answers',
  'responses/no-server-error': 'no server error',
  'responses/json-content-type': 'answers in JSON',
  'listPets/body-schema': 'answer schemas',
  'createPet/body-schema': 'answer schemas',
  'getPet/body-schema': 'answer schemas',
  'errors/body-schema': 'error answers',
  'errors/status-matches-http': 'error status',
  'responses/405-allow': 'Allow on 405',
  // Across the run's creates, by DistinctIds (distinct-ids.ts): every 201 of a create is held to the ids before it.
  'createPet/ids-unique': 'distinct ids',
} as const satisfies Partial<Record<RequirementId, RuleSourceId>>

export const EVERY_EXCHANGE_REQUIREMENTS = Object.keys(EVERY_EXCHANGE_SOURCES) as ReadonlyArray<keyof typeof EVERY_EXCHANGE_SOURCES>

export interface IncidentalResult {
  requirementId: RequirementId
  ok: boolean
  message?: string
}

const SUCCESS_SCHEMA: Record<Operation, { schema: SchemaName; requirementId: RequirementId }> = {
  listPets: { schema: 'Pets', requirementId: 'listPets/body-schema' },
  createPet: { schema: 'Pet', requirementId: 'createPet/body-schema' },
  getPet: { schema: 'Pet', requirementId: 'getPet/body-schema' },
}

/** `return=minimal` among the preferences of a Prefer or Preference-Applied field (RFC 7240 §2). */
const RETURN_MINIMAL = /(^|[\s,;])return\s*=\s*"?minimal"?/i

/** A field of the request, by its name in lower case, as the exchange records it (an edited request's fields as written). */
const requestField = (exchange: OperationExchange, name: string) => exchange.request.headers[name] ?? ''

/**
 * A 206 to a request that carried Range (its content a part of the representation, or several), or an answer without
 * content that says it applied the request's Prefer: return=minimal (Preference-Applied, RFC 7240 §3).
 */
function askedForPartOrNone(exchange: OperationExchange): boolean {
  const response = exchange.response
  if (!response) return false
  if (response.status === 206) return requestField(exchange, 'range') !== ''
  return response.bodyBytes === 0 && RETURN_MINIMAL.test(requestField(exchange, 'prefer')) && RETURN_MINIMAL.test(response.headers['preference-applied'] ?? '')
}

/** Whether the request carried the key: in its head as written, or in its Authorization header. */
function keyOf(exchange: OperationExchange, apiKey: string): KeyState {
  if (exchange.reading) return exchange.reading.key
  const { headers } = exchange.request
  return headers.authorization === undefined ? 'none' : keyInValue(headers.authorization, apiKey)
}

/**
 * A 405 says which methods the resource has, in Allow (RFC 9110 §15.5.6; gin 1.8's HandleMethodNotAllowed leaves it
 * out): judged on every answer, a probe's included, but not on an HTTP layer's refusal in its own words.
 */
function allowResults(exchange: OperationExchange): IncidentalResult[] {
  const response = exchange.response
  if (response?.status !== 405 || exchange.reading?.ownWords !== undefined) return []
  return response.headers.allow === undefined
    ? [{ requirementId: 'responses/405-allow', ok: false, message: `answered 405 to ${exchange.request.method} without an Allow field` }]
    : [{ requirementId: 'responses/405-allow', ok: true }]
}

/**
 * Without the key: no 2xx, no pet data (policy §2b, whatever the path and whatever else the request carries). Only
 * a breach is a finding here: a refusal shows the rule held only on a target that serves the key, which the checks
 * that send keyless requests work out (the neighbourhood's, the auth checks).
 */
function accessResult(exchange: OperationExchange, apiKey: string): IncidentalResult[] {
  const response = exchange.response
  if (!response || keyOf(exchange, apiKey) !== 'none') return []
  const status = response.status
  const pets = petDataIn(exchange)
  // OPTIONS without the key: a 2xx without pet data is charged by the edit's judgement (auth/options-without-key, MUST), not twice.
  if (status >= 200 && status < 300 && pets === 0 && exchange.request.method === 'OPTIONS') return []
  if (status >= 200 && status < 300) return [{ requirementId: 'auth/no-access-without-key', ok: false, message: `answered ${status} to a request without a valid Bearer key` }]
  if (pets > 0) return [{ requirementId: 'auth/no-access-without-key', ok: false, message: `answered ${status} with pet data (${pets}) to a request without a valid Bearer key` }]
  return []
}

/**
 * The parameters the query parsers with the smallest cap read (nginx-lua's get_uri_args 100; qs and Node's querystring
 * 1,000): in a query of more, the limit may be one the service dropped without a word, which no row forbids. Such a
 * list is judged by listPets/parameters-past-a-cap (SHOULD), not held to its limit at MUST (policy §2b: "a `limit` the
 * service applied").
 */
const FEWEST_PARAMETERS_READ = 100

/**
 * The most pets a list request may get: its limit when it has one, a decimal integer from 1 to 100, 20 without one;
 * none when the limit is invalid or given more than once (the out-of-range row allows a page of up to 100). Read from the query as
 * sent, octet for octet, as the edit oracle reads it: a URL parser drops a tab or a line feed anywhere, and would read
 * `?\tlimit=7`, which a server reads as a parameter of another name (so the default page), as `limit=7`.
 */
function askedLimit(url: string): bigint | undefined {
  const query = /^[^?#]*\?([^#]*)/.exec(url)?.[1]
  // A limit among more parameters than a common parser reads may be one the service never saw: not held here.
  if (query !== undefined && query.split('&').length > FEWEST_PARAMETERS_READ) return undefined
  const judgement = listJudgement(query)
  return judgement.kind === 'list' ? judgement.limits[0] : undefined
}

/**
 * A list answer: never longer than 100, nor than the limit it was asked for (policy §2b). Only a list that breaks
 * one is a finding: a short list shows nothing of a limit (the requirements' own checks say when one does).
 */
function listLengthResults(exchange: OperationExchange, value: unknown): IncidentalResult[] {
  if (exchange.operation !== 'listPets' || !Array.isArray(value)) return []
  const length = BigInt(value.length)
  const limit = askedLimit(exchange.request.url)
  if (length > 100n) return [{ requirementId: 'listPets/limit-max-100', ok: false, message: `a list of ${length} pets: more than 100` }]
  if (limit !== undefined && length > limit) return [{ requirementId: 'listPets/limit-caps-size', ok: false, message: `a list of ${length} pets, asked for at most ${limit}` }]
  return []
}

/** The rules of every answer, judged on one exchange (RunState.findingsOf judges each exchange once per run). */
export function incidentalResults(exchange: OperationExchange, now: Date, apiKey: string): IncidentalResult[] {
  const response = exchange.response
  if (!response) return []
  const access = [...accessResult(exchange, apiKey), ...allowResults(exchange)]
  // A path the spec does not name is judged only by the check that probed it, and by the key.
  if (exchange.operation === 'probe') return access
  // From its removal date getPet may be gone (a 404 page, a 410): its answers no longer bear on the rules of every answer.
  if (exchange.operation === 'getPet' && now.getTime() >= GET_PET_REMOVAL.getTime()) return access
  const results: IncidentalResult[] = [...access]
  const status = response.status
  // A head written octet for octet, as read once before it was sent: the reading its oracle judged.
  const wire = exchange.reading
  // HTTP's own refusal of a message it refuses as written, or of a form it may not take (HTTP/1.0, absolute-form, chunked,
  // 100-continue: responses/message-forms warns), of a request line longer than it takes, of a Host it does not serve
  // (as the edit oracle reads them); and 501 for a method the service does not have.
  const refusal = status >= 400 && status < 500
  if (refusal && wire && (wire.ownWords !== undefined || wire.otherForms.length > 0)) return results
  if (wire && wire.method !== 'GET' && wire.method !== 'POST' && status === 501) return results
  // A message HTTP refuses whose request line, as a lenient reader ends it, carries neither HTTP/1.0 nor 1.1: 505 refuses
  // the version read (to HTTP/1.2 it departs from RFC 9110 §2.5's SHOULD, which the edit's judgement warns on).
  if (wire?.unsupportedVersion !== undefined && status === 505) return results
  const finalRateLimit = isRateLimitAnswer(response)
  results.push(
    status >= 500
      ? { requirementId: 'responses/no-server-error', ok: false, message: finalRateLimit ? `${status} still after ${exchange.retries.length} retries` : `answered ${status}` }
      : { requirementId: 'responses/no-server-error', ok: true },
  )
  const isSuccess = status >= 200 && status < 300
  const isClientError = status >= 400 && status < 500 && status !== 429
  if (!isSuccess && !isClientError) return results
  // Content the request itself asked to be other than the whole document: a part of it (206 to a Range, RFC 9110
  // §14.2, §15.3.7), or none (Prefer: return=minimal, applied as the answer says, RFC 7240 §4.2). No document to judge.
  if (askedForPartOrNone(exchange)) return results

  const type = mediaType(response)
  results.push({
    requirementId: 'responses/json-content-type',
    ok: type === 'application/json',
    ...(type === 'application/json' ? {} : { message: `Content-Type is ${response.headers['content-type'] ?? 'missing'}, expected application/json` }),
  })

  const { schema, requirementId } = isSuccess ? SUCCESS_SCHEMA[exchange.operation] : { schema: 'Error' as const, requirementId: 'errors/body-schema' as const }
  // JSON text between systems is UTF-8 (RFC 8259 §8.1): bytes UTF-8 never holds (a lone surrogate written as CESU-8) make no JSON text.
  if (response.notUtf8) {
    results.push({ requirementId, ok: false, message: `the ${status} body holds bytes that are not UTF-8, which JSON text between systems is (RFC 8259 §8.1), expected ${schema}` })
    return results
  }
  const parsed = responseJson(exchange)
  if (!parsed.ok) {
    results.push({ requirementId, ok: false, message: `the ${status} body is not JSON (${parsed.error}), expected ${schema}` })
    return results
  }
  if (isSuccess) results.push(...listLengthResults(exchange, parsed.value))
  const violations = schemaViolations(schema, parsed.value)
  results.push(
    violations.length === 0 ? { requirementId, ok: true } : { requirementId, ok: false, message: `the ${status} body is not a valid ${schema}: ${formatViolations(violations)}` },
  )

  if (isClientError && isJsonObject(parsed.value)) {
    const errorStatus = parsed.value.status
    if (errorStatus instanceof JsonNumber) {
      const same = errorStatus.integer === BigInt(status)
      results.push(
        same
          ? { requirementId: 'errors/status-matches-http', ok: true }
          : { requirementId: 'errors/status-matches-http', ok: false, message: `Error status ${errorStatus.text} on a ${status} answer` },
      )
    }
  }
  return results
}
