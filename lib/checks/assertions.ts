/**
 * The shared assertions: the one module that throws. Every assertion is counted, so a check that
 * asserted nothing can never be reported as a pass. Failures carry what was expected and what came back;
 * the evidence of the exchanges is attached by the check machinery.
 */
import type { CaseFailure } from '../data/live-property.js'
import type { Exchange } from '../http/exchange.js'
import { isJsonObject, JsonNumber, type JsonValue, stringifyJson } from '../http/json.js'
import { headOfBody } from '../http/kept-bodies.js'
import { responseJson } from '../http/response-json.js'
import type { RecordedResponse } from '../http/traffic.js'
import { formatViolations, type SchemaName, schemaViolations } from '../spec/schemas.js'
import type { ExperimentCause } from './check-result.js'

export class ConformanceFailure extends Error {
  override name = 'ConformanceFailure'
}

/** The check stops without a verdict of its own: what it needs could not be decided on this target in this run. */
export class Inconclusive extends Error {
  override name = 'Inconclusive'
}

export interface FailureDetails {
  exchange?: Exchange
  expected?: string
  actual?: string
  schemaErrors?: string[]
  replay?: { seed: number; path: string; counterexample: string; command: string; script?: string }
  cause?: ExperimentCause
}

export interface RecordedFailure extends FailureDetails {
  message: string
}

export type PetObject = { [key: string]: JsonValue }

export function mediaType(response: RecordedResponse): string | undefined {
  return response.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
}

/**
 * A POST that shows nothing of the target: one it never answered because it closed or reset the connection under it,
 * right after an earlier answer (the connection's doing, which responses/close-announced judges; it is sent again only
 * once the lists show it was not processed, RFC 9112 §9.3.1), or one never sent because the run's --max-creates budget
 * was spent. A read is retried instead, and one that is dropped every time is a failure like any request left unanswered.
 */
export function lostToDroppedConnection(exchange: Exchange): boolean {
  const kind = exchange.failure?.kind
  return (kind === 'dropped' || kind === 'over-budget') && exchange.request.method !== 'GET'
}

/** What came before the final answer, when the request was retried; empty otherwise. */
function retriesNote(exchange: Exchange): string {
  const count = exchange.retries.length
  return count ? ` (after ${count} ${count === 1 ? 'retry' : 'retries'}: ${exchange.retries.map((attempt) => attempt.status ?? attempt.failure).join(', ')})` : ''
}

/** The final answer is still a rate limit although the request was retried. */
function rateLimitOutlasted(exchange: Exchange): boolean {
  const status = exchange.response?.status
  return (status === 429 || status === 503) && exchange.retries.length > 0
}

/** A 5xx that is no rate limit outlasting the retries: responses/no-server-error's to judge. */
export function isServerError(exchange: Exchange): boolean {
  const status = exchange.response?.status ?? 0
  return status >= 500 && !rateLimitOutlasted(exchange)
}

/** Statuses in words: `400 or 404`, and runs of three or more as ranges (`200, 400–428 or 430–499`). */
export function statusWords(statuses: readonly number[]): string {
  const sorted = [...new Set(statuses)].sort((a, b) => a - b)
  const runs: string[] = []
  for (let index = 0; index < sorted.length; ) {
    let end = index
    while (end + 1 < sorted.length && (sorted[end + 1] as number) === (sorted[end] as number) + 1) end += 1
    runs.push(end - index >= 2 ? `${sorted[index]}–${sorted[end]}` : sorted.slice(index, end + 1).join(' or '))
    index = end + 1
  }
  return runs.length > 1 ? `${runs.slice(0, -1).join(', ')} or ${runs.at(-1)}` : (runs[0] ?? '')
}

/** What came back, and what came before it when the request was retried. */
export function describeAnswer(exchange: Exchange): string {
  if (exchange.failure) return `no answer: ${exchange.failure.message}${retriesNote(exchange)}`
  const response = exchange.response as RecordedResponse
  const { head, length } = headOfBody(response, 200)
  const body = length > 200 ? `${head}…` : head
  return `${response.status} ${mediaType(response) ?? '(no Content-Type)'} ${body}${retriesNote(exchange)}${rateLimitOutlasted(exchange) ? '; the rate limit outlasted the retries' : ''}`
}

export class Assertions {
  count = 0
  failure: RecordedFailure | undefined

  /** @param requirementId the requirement the check judges: a status another rule names is that rule's failure, not this one's (`answeredWith`). */
  constructor(readonly requirementId = '') {}

  /** Fail the check. */
  fail(message: string, details: FailureDetails = {}): never {
    this.count += 1
    this.failure = { message, ...details }
    throw new ConformanceFailure(message)
  }

  that(condition: boolean, message: string, details: FailureDetails = {}): void {
    this.count += 1
    if (!condition) this.fail(message, details)
  }

  /** The exchange got an answer whose status is one of `expected`. */
  status(exchange: Exchange, expected: number | readonly number[], what = 'the answer', cause?: ExperimentCause): RecordedResponse {
    const allowed = typeof expected === 'number' ? [expected] : expected
    const wanted = statusWords(allowed)
    if (exchange.failure?.kind === 'over-budget') throw new Inconclusive(`${what} was ${exchange.failure.message}`)
    if (lostToDroppedConnection(exchange)) throw new Inconclusive(`${what} got no answer: ${exchange.failure?.message}; it is not sent again`)
    if (exchange.failure) {
      this.fail(`${what}: ${exchange.failure.message}${retriesNote(exchange)}`, { exchange, expected: `status ${wanted}`, actual: describeAnswer(exchange) })
    }
    const response = exchange.response as RecordedResponse
    const limited = rateLimitOutlasted(exchange) ? ` (still ${response.status} after ${exchange.retries.length} retries)` : ''
    this.that(allowed.includes(response.status), `${what} has status ${response.status}${limited}, expected ${wanted}`, {
      exchange,
      expected: `status ${wanted}`,
      actual: describeAnswer(exchange),
      ...(cause ? { cause } : {}),
    })
    return response
  }

  /**
   * The answer a check needs to judge its own property, for a rule whose words name no status: one of `expected`
   * statuses, or the check is inconclusive, the status being the failure of the rule that names it. A 5xx is
   * responses/no-server-error's; another status is `judgedBy`'s, the rule that names the status of that very request
   * (a valid create answered 400 fails createPet/returns-201-pet, not the rule that wanted to read the pet it made).
   * When no other rule judges the request's status, `judgedBy` is the check's own rule, and the status fails it as in
   * `status`. A request with no answer at all fails as in `status`: no rule but the one that sent it judges it.
   */
  answeredWith(exchange: Exchange, expected: number | readonly number[], what: string, judgedBy: string): RecordedResponse {
    const allowed = typeof expected === 'number' ? [expected] : expected
    const status = exchange.response?.status
    if (status === undefined || allowed.includes(status)) return this.status(exchange, expected, what)
    const owner = isServerError(exchange) ? 'responses/no-server-error' : judgedBy
    if (owner === this.requirementId) return this.status(exchange, expected, what)
    throw new Inconclusive(`${what} was answered ${status}, not ${allowed.join(' or ')}: that status is judged by ${owner}, and this rule had no such answer to judge`)
  }

  /**
   * The answers among `exchanges` whose bodies a body-schema rule judges: the 2xx ones. Any other status, or no answer,
   * is the failure of the rule that names the status (`judgedBy`; a 5xx, responses/no-server-error); none left is inconclusive.
   */
  successes<E extends Exchange>(exchanges: readonly E[], judgedBy: string): E[] {
    const judged = exchanges.filter((exchange) => exchange.response !== undefined && exchange.response.status >= 200 && exchange.response.status < 300)
    if (judged.length === 0) {
      throw new Inconclusive(
        `no 2xx answer to judge: ${exchanges.map((exchange) => `${exchange.request.method} ${exchange.request.url} ${describeAnswer(exchange).slice(0, 80)}`).join('; ')} (the status is judged by ${judgedBy})`,
      )
    }
    return judged
  }

  /** The body parses as JSON (losslessly). */
  json(exchange: Exchange, what = 'the body'): JsonValue {
    const parsed = responseJson(exchange)
    if (!parsed.ok) this.fail(`${what} is not JSON: ${parsed.error}`, { exchange, expected: 'a JSON body', actual: describeAnswer(exchange) })
    this.count += 1
    return parsed.value
  }

  /** The body is a JSON array of objects (the shape a list needs to be read; full schema is checked apart). */
  petArray(exchange: Exchange): PetObject[] {
    const body = this.json(exchange, 'the list body')
    this.that(Array.isArray(body) && body.every(isJsonObject), 'the list body is not a JSON array of objects', {
      exchange,
      expected: 'a bare JSON array of Pet objects',
      actual: describeAnswer(exchange),
    })
    return body as PetObject[]
  }

  /** The body is a JSON object. */
  petObject(exchange: Exchange): PetObject {
    const body = this.json(exchange, 'the pet body')
    this.that(isJsonObject(body), 'the body is not a JSON object', { exchange, expected: 'a Pet object', actual: describeAnswer(exchange) })
    return body as PetObject
  }

  /** The body is valid against the named schema (int64 checked on the exact digits). */
  matchesSchema(exchange: Exchange, schema: SchemaName): void {
    const body = this.json(exchange)
    const violations = schemaViolations(schema, body)
    this.that(violations.length === 0, `the body is not a valid ${schema}: ${formatViolations(violations)}`, {
      exchange,
      expected: `a ${schema} body`,
      actual: describeAnswer(exchange),
      schemaErrors: violations.map((violation) => `${violation.path} ${violation.message}`),
    })
  }

  /** The answer is an error with one of `statuses`, a valid Error body, and a `status` field equal to the HTTP status. */
  errorAnswer(exchange: Exchange, statuses: number | readonly number[], what = 'the answer'): RecordedResponse {
    const response = this.status(exchange, statuses, what)
    this.errorBody(exchange, what)
    this.errorStatusRepeated(exchange, what)
    return response
  }

  /** The body is a valid Error (errors/body-schema's rule), whatever the status. */
  errorBody(exchange: Exchange, what = 'the answer'): void {
    const body = this.json(exchange, `${what}'s body`)
    const violations = schemaViolations('Error', body)
    this.that(violations.length === 0, `${what}'s body is not a valid Error: ${formatViolations(violations)}`, {
      exchange,
      expected: 'an Error body {code, message, status}',
      actual: describeAnswer(exchange),
      schemaErrors: violations.map((violation) => `${violation.path} ${violation.message}`),
    })
  }

  /** The Error body's `status` field, when it is a number (asserts nothing). */
  errorStatusField(exchange: Exchange): JsonNumber | undefined {
    const parsed = responseJson(exchange)
    const status = parsed.ok && isJsonObject(parsed.value) ? parsed.value.status : undefined
    return status instanceof JsonNumber ? status : undefined
  }

  /** The Error body's `status` equals the HTTP status (errors/status-matches-http's rule). */
  errorStatusRepeated(exchange: Exchange, what = 'the answer'): void {
    const body = this.json(exchange, `${what}'s body`)
    const status = isJsonObject(body) ? body.status : undefined
    const http = exchange.response?.status ?? 0
    this.that(status instanceof JsonNumber && status.integer === BigInt(http), `the Error status ${stringifyJson(status)} differs from the HTTP status ${http}`, {
      exchange,
      expected: `status ${http}`,
      actual: stringifyJson(status),
    })
  }

  /**
   * The request was not served: no 2xx answer, and no pet data in the body, whatever its status. Any other
   * answer passes: 401, 404, 405, a redirect (never followed). A request that got no answer at all shows
   * nothing either way: the caller must make that inconclusive before asking (see `Check.requireAnswer`).
   */
  refused(exchange: Exchange, what: string): void {
    if (!exchange.response) throw new Error(`${what}: refused() needs an answer to judge`)
    const { status } = exchange.response
    this.that(status < 200 || status >= 300, `${what} was answered ${status}: served without a valid Bearer key`, {
      exchange,
      expected: 'no 2xx answer (401, 404, 405 or a redirect)',
      actual: describeAnswer(exchange),
    })
    const pets = petDataIn(exchange)
    this.that(pets === 0, `${what} was answered ${status} with pet data (${pets} ${pets === 1 ? 'pet' : 'pets'}) without a valid Bearer key`, {
      exchange,
      expected: 'no pet data',
      actual: describeAnswer(exchange),
    })
  }
}

/**
 * What an assertion finds wrong with `exchange`, as a failure to record rather than a throw (a generated case
 * or a sequence judges many answers and goes on); undefined when it holds.
 */
export function failureOf<E extends Exchange>(exchange: E, assert: (expect: Assertions) => void): (Omit<CaseFailure, 'exchange'> & { exchange: E }) | undefined {
  const assertions = new Assertions()
  try {
    assert(assertions)
    return undefined
  } catch (error) {
    if (!(error instanceof ConformanceFailure) || !assertions.failure) throw error
    const { message, expected, actual } = assertions.failure
    return { message, ...(expected !== undefined ? { expected } : {}), ...(actual !== undefined ? { actual } : {}), exchange }
  }
}

/** An object that looks like a pet: an integer id and a name or a categoryId. */
function isPetLike(value: JsonValue): boolean {
  return isJsonObject(value) && value.id instanceof JsonNumber && ('name' in value || 'categoryId' in value)
}

/** How many pet-like objects a body holds: itself, the items of a list, or the items of a list one level down ({ data: [...] }). */
export function petDataIn(exchange: Exchange): number {
  const parsed = responseJson(exchange)
  if (!parsed.ok) return 0
  const count = (value: JsonValue): number => (Array.isArray(value) ? value.filter(isPetLike).length : isPetLike(value) ? 1 : 0)
  const own = count(parsed.value)
  if (own > 0 || !isJsonObject(parsed.value)) return own
  return Object.values(parsed.value).reduce<number>((sum, value) => sum + (Array.isArray(value) ? count(value) : 0), 0)
}
