/**
 * One cause, named once. When one behaviour of the target explains the failures of several requirements (every
 * create answered 500; integers beyond 2^53 rounded to doubles; unset fields written as null; values of the wrong
 * type accepted instead of refused; one status for every error; connections closed after errors without saying
 * so), the reports name it once, first, with the requirements it explains, and say which would still fail once it
 * is fixed: a reader fixes one thing instead of hunting through a dozen failures, and knows what is left.
 *
 * Each behaviour is read off a failure's own words and evidence (never off the variant that caused it): a failure
 * is explained by a behaviour when what it shows is that behaviour's mark.
 */
import type { Failure } from '../checks/check-result.js'
import type { Evidence } from '../checks/evidence.js'
import { isJsonObject, type JsonValue, parseJson } from '../http/json.js'
import type { RequirementResult } from './verdicts.js'

export interface RootCause {
  /** The behaviour, in words: "POST /pets answered 500", "integers beyond 2^53 are rounded to doubles (…)". */
  cause: string
  /**
   * How it was found: `experiment`, the same request with one input made plain passed (the failures' `cause`); `text`,
   * a mark read off the failures' words and evidence, where no experiment was made.
   */
  shownBy: 'experiment' | 'text'
  /** The requirements whose failures it explains (some or all of them). */
  requirements: string[]
  /** The failing requirements that still fail once it is fixed: those with a failure it does not explain. */
  remaining: string[]
}

/** A behaviour the target shows in a failure: a key that groups failures of one cause, and the cause in words. */
interface Mark {
  key: string
  words: string
}

/** The input an experiment showed the failure follows (ExperimentCause), as a mark. */
function experimentMark(failure: Failure): Mark | undefined {
  const cause = failure.cause
  return cause ? { key: `input:${cause.input}`, words: `${cause.input}: requests fail on their ${cause.input} alone (${cause.words})` } : undefined
}

/** GET /v1/pets/123?x=1 → GET /pets/{id}: the operation a request was, whatever its id and query. */
function operationOf(evidence: Evidence): string {
  const path = new URL(evidence.request.url).pathname.replace(/^.*?\/pets/, '/pets')
  return `${evidence.request.method} ${path.replace(/^\/pets\/[^/]+$/, '/pets/{id}')}`
}

/** A broken answer that breaks everything after it: a 5xx, or no answer at all (a reset is its own behaviour, below). */
function brokenAnswer(failure: Failure): Mark | undefined {
  const evidence = failure.evidence[0]
  if (!evidence) return undefined
  if (evidence.failure && !isDroppedConnection(evidence)) {
    const words = `${operationOf(evidence)}: ${evidence.failure.replace(/ \(after \d+ retr.*$/, '')}`
    return { key: words, words }
  }
  if (evidence.response && evidence.response.status >= 500) {
    const words = `${operationOf(evidence)} answered ${evidence.response.status}`
    return { key: words, words }
  }
  return undefined
}

const TWO_TO_53 = 2n ** 53n
const LONG_INTEGER = /(?<![\d.])-?\d{16,}(?![\d.eE])/g

/** Integers beyond 2^53 in a text. */
function longIntegers(text: string | undefined): string[] {
  return (text?.match(LONG_INTEGER) ?? []).filter((digits) => (digits.startsWith('-') ? -BigInt(digits) : BigInt(digits)) > TWO_TO_53)
}

/**
 * Integers beyond 2^53 written the way a double writes itself (`String(Number(x)) === x`: 4611686018427400000,
 * never 4611686018427400249) that the suite did not send: the mark of JSON read or written through doubles.
 */
function roundedToDoubles(failure: Failure): Mark | undefined {
  const evidence = failure.evidence[0]
  // Only what the suite itself wrote in a body: an id in a path came from an earlier answer of the target.
  const sent = new Set(longIntegers(evidence?.request.body))
  // A list's body shows every pet it holds: rounded ids there mark the list, not a failure of its length or its filter,
  // whose words name no id (a limit read as Infinity listed every pet of a store that also rounds its ids).
  const body = evidence?.response?.body
  const shownBody = body !== undefined && !body.trimStart().startsWith('[') ? body : undefined
  const seen = [failure.message, failure.expected, failure.actual, evidence?.request.url, shownBody].flatMap(longIntegers)
  // The zeros a double writes where it has no more digits: an integer a double holds exactly (an even id above 2^53
  // that a store assigned) is no mark, only one whose last digits a double could not keep; nor a round number a
  // client wrote (10^18 as a categoryId), whose few digits before its zeros no rounding of an id leaves.
  const rounded = seen.find(
    (digits) => !sent.has(digits) && String(Number(digits)) === digits && /\d{15}0{2,}$/.test(digits) && digits.replace(/^-/, '').replace(/0+$/, '').length >= 10,
  )
  return rounded === undefined
    ? undefined
    : { key: 'doubles', words: `integers beyond 2^53 are read or written as doubles and rounded (${rounded} is a double's rounding): ids, categoryIds and path ids lose digits` }
}

/** The names of members whose value is null in a JSON body, read off its text: evidence cuts long bodies, so they may not parse. */
function nullMembers(body: string | undefined): string[] {
  return [...new Set([...(body ?? '').matchAll(/"((?:[^"\\]|\\.)*)"\s*:\s*null(?![\w"])/g)].map((match) => match[1] as string))]
}

/** A success answer with members written as null, which no schema of the spec allows. */
function nullFields(failure: Failure): Mark | undefined {
  const response = failure.evidence[0]?.response
  if (!response || response.status < 200 || response.status >= 300) return undefined
  const names = nullMembers(response.body)
  return names.length === 0
    ? undefined
    : { key: `null:${names.join(',')}`, words: `unset fields are written as null (${names.map((name) => `"${name}": null`).join(', ')}), which the Pet schema does not allow` }
}

/** The JSON type of a value, as the schemas name types. */
function jsonType(value: JsonValue | undefined): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (isJsonObject(value)) return 'object'
  if (typeof value === 'string') return 'string'
  if (typeof value === 'boolean') return 'boolean'
  return value === undefined ? 'absent' : 'number'
}

/** A request body that is a JSON object, read from evidence (undefined when it is not one, or was shown as octets). */
function requestObject(evidence: Evidence | undefined): { [name: string]: JsonValue } | undefined {
  const parsed = evidence?.request.body === undefined ? undefined : parseJson(evidence.request.body)
  return parsed?.ok && isJsonObject(parsed.value) ? parsed.value : undefined
}

/** The NewPet members and their schema types: what a body holds of another type is a value the service should refuse. */
const MEMBER_TYPES: Record<string, string> = { name: 'string', categoryId: 'number', status: 'string' }

/**
 * A create that sent a member of the wrong JSON type and was answered 2xx: the service accepted it instead of
 * refusing it. Accepted is what the answer shows; whether the value was converted, stored as sent or not stored
 * at all (a service that answers every POST alike) is each requirement's own finding.
 */
function coercedTypes(failure: Failure): Mark | undefined {
  const evidence = failure.evidence[0]
  const status = evidence?.response?.status ?? 0
  if (evidence?.request.method !== 'POST' || status < 200 || status >= 300) return undefined
  const sent = requestObject(evidence)
  if (!sent) return undefined
  const wrong = Object.entries(MEMBER_TYPES).find(([name, type]) => name in sent && jsonType(sent[name]) !== type && jsonType(sent[name]) !== 'null')
  return wrong
    ? { key: 'coerced', words: `values of the wrong JSON type are accepted instead of refused with 400 (a ${jsonType(sent[wrong[0]])} ${wrong[0]} was answered ${status})` }
    : undefined
}

/** The statuses a failure expected ("status 401", "status 400 or 404"), when it is a status failure. */
function expectedStatuses(failure: Failure): number[] | undefined {
  const match = /^status (\d{3}(?: or \d{3})*)$/.exec(failure.expected ?? '')
  return match?.[1]?.split(' or ').map(Number)
}

/** An error answered with another error status than the one the rule names: grouped by the status given, judged across failures below. */
function statusGiven(failure: Failure): Mark | undefined {
  const expected = expectedStatuses(failure)
  const status = failure.evidence[0]?.response?.status
  // Between errors only: a 5xx is a broken answer (above), a 4xx where a success was due is each rule's own failure, and a
  // 429 is the target asking to wait (its retries ran out), no error status given for another.
  if (!expected || status === undefined || status < 400 || status >= 500 || status === 429 || expected.includes(status) || expected.some((code) => code < 400)) return undefined
  return { key: `status:${status}`, words: String(status) }
}

/** A request that got no answer because the target dropped the connection it came on, right after an earlier answer. */
function isDroppedConnection(evidence: Evidence): boolean {
  return evidence.failure?.startsWith('the connection was closed by the target') === true
}

function droppedConnection(failure: Failure): Mark | undefined {
  const evidence = failure.evidence[0]
  return evidence && isDroppedConnection(evidence)
    ? { key: 'dropped', words: 'the target closes connections after some answers without Connection: close, and a request already sent on one gets no answer' }
    : undefined
}

const MARKS = [brokenAnswer, roundedToDoubles, nullFields, coercedTypes, droppedConnection, statusGiven]

/** The marks of one failure, each behaviour once: the experiment's, where one was made, else those read off its text. */
function marksOf(failure: Failure): Mark[] {
  const shown = experimentMark(failure)
  if (shown) return [shown]
  return MARKS.map((mark) => mark(failure)).filter((mark): mark is Mark => mark !== undefined)
}

/**
 * Behaviours that explain failures of two requirements or more. One status for every error is a cause only when
 * it stands where the rules named at least two different statuses (a 400 for both a 401 and a 404).
 */
export function findRootCauses(results: readonly RequirementResult[]): RootCause[] {
  const failing = results.filter((result) => result.verdict === 'fail' || result.verdict === 'warn')
  const explained = new Map<string, { words: string; requirements: Set<string>; failures: Set<Failure>; expected: Set<number> }>()
  for (const result of failing) {
    for (const failure of result.failures) {
      for (const mark of marksOf(failure)) {
        const entry = explained.get(mark.key) ?? { words: mark.words, requirements: new Set<string>(), failures: new Set<Failure>(), expected: new Set<number>() }
        entry.requirements.add(result.id)
        entry.failures.add(failure)
        for (const status of expectedStatuses(failure) ?? []) entry.expected.add(status)
        explained.set(mark.key, entry)
      }
    }
  }
  const causes: RootCause[] = []
  for (const [key, entry] of explained) {
    if (entry.requirements.size < 2) continue
    let cause = entry.words
    if (key.startsWith('status:')) {
      if (entry.expected.size < 2) continue
      // Not "every error": a service may answer most errors right and this one status wherever its validator or auth middleware refuses first.
      cause = `errors are answered ${entry.words} where the spec names ${[...entry.expected].sort().join(', ')}`
    }
    const remaining = failing.filter((result) => result.failures.length === 0 || result.failures.some((failure) => !entry.failures.has(failure))).map((result) => result.id)
    causes.push({ cause, shownBy: key.startsWith('input:') ? 'experiment' : 'text', requirements: [...entry.requirements], remaining })
  }
  return causes.sort((a, b) => b.requirements.length - a.requirements.length)
}

/** Each requirement with the first root cause that explains every failure it kept. */
export function withRootCauses(results: readonly RequirementResult[], causes: readonly RootCause[]): RequirementResult[] {
  const causeOf = new Map<string, string>()
  for (const cause of causes) for (const id of cause.requirements) if (!cause.remaining.includes(id) && !causeOf.has(id)) causeOf.set(id, cause.cause)
  return results.map((result) => {
    const cause = causeOf.get(result.id)
    return cause ? { ...result, rootCause: cause } : result
  })
}
