/**
 * The answer to an edited request, held to what the edit oracle worked out for it (lib/neighbourhood/edit-oracle.ts):
 * each rule gives a finding charged to its own requirement. The rules of every answer (no 5xx, an Error body in
 * JSON, the schemas, the key) are judged on the same exchange by incidental-checks.ts, like on every other one.
 */

import type { Exchange } from '../http/exchange.js'
import { integerField, isJsonObject, JsonNumber } from '../http/json.js'
import { responseJson } from '../http/response-json.js'
import { isRateLimitAnswer } from '../http/waits.js'
import { DIFFERING_LENGTHS, REQUEST_LINE_PROBLEM } from '../http/wire-reading.js'
import type { Expectation } from '../neighbourhood/edit-oracle.js'
import type { Judgement } from '../neighbourhood/operation-judgements.js'
import type { RequirementId } from '../spec/catalogue.js'
import type { RuleSourceId } from '../spec/rule-sources.js'
import { Assertions, ConformanceFailure, describeAnswer, mediaType } from './assertions.js'
import { type EditFinding, judgeList, type ListContext } from './edited-lists.js'

/**
 * Every requirement a finding on an edited request may be charged to, with the source whose level it takes: the
 * vitest runner gives each a test judged from the whole run, as it does the requirements judged on every exchange (a
 * self-test holds this list to the code, and each requirement's level to its source's).
 */
export const EDIT_FINDING_SOURCES = {
  'responses/edits-answered': 'edits answered',
  'errors/body-schema': 'error answers',
  'errors/status-matches-http': 'error status',
  'listPets/equivalent-spellings': 'same meaning',
  'getPet/equivalent-spellings': 'same meaning',
  'createPet/equivalent-spellings': 'same meaning',
  'listPets/path-spelling-equivalent': 'fixed segments spelled otherwise',
  'auth/scheme-case-insensitive': 'Bearer scheme case',
  'auth/bearer-spacing': 'Bearer spacing',
  'responses/meaningless-fields-ignored': 'fields without meaning',
  'responses/no-server-error': 'no server error',
  'responses/message-forms': 'message forms',
  'responses/differing-lengths-refused': 'differing lengths',
  'responses/head-as-get': 'HEAD as GET',
  'auth/options-without-key': 'OPTIONS without the key',
  'auth/no-access-without-key': 'no access without the key',
  'auth/missing-key-401': 'auth precedence',
  'auth/key-lookalike-401': 'auth precedence',
  'getPet/other-notations': 'ids in other notations',
  'getPet/lenient-notations': 'lenient readings',
  'getPet/returns-pet': 'the pet the id names',
  'listPets/limit-caps-size': 'list rules',
  'listPets/status-filter-matches': 'list rules',
  'listPets/limit-other-notations': 'limit in other notations',
  'listPets/status-spelled-otherwise': 'a status made invalid',
  'createPet/invalid-body-400': 'invalid NewPet',
  'createPet/invalid-body-not-created': 'invalid NewPet',
  'createPet/ill-formed-text': 'text that is not Unicode',
  'createPet/json-implementation-limits': 'parser limits',
  'createPet/echoes-fields': 'created pet',
  'createPet/returns-201-pet': 'created pet',
  'createPet/round-trip-get': 'created pet',
  'createPet/created-pet-listed': 'created pet',
  'createPet/request-media-types': 'request media types',
  'createPet/content-encoding': 'request content codings',
} as const satisfies Partial<Record<RequirementId, RuleSourceId>>

export const EDIT_FINDING_REQUIREMENTS = Object.keys(EDIT_FINDING_SOURCES) as ReadonlyArray<keyof typeof EDIT_FINDING_SOURCES>

/** Runs assertions; a finding for `requirementId` either way. */
function held(requirementId: RequirementId, assert: (expect: Assertions) => void): EditFinding {
  const expect = new Assertions()
  try {
    assert(expect)
    return { requirementId, ok: true }
  } catch (error) {
    if (!(error instanceof ConformanceFailure) || !expect.failure) throw error
    return { requirementId, ok: false, message: expect.failure.message }
  }
}

/** How an answer is compared with the plain request's: its status, and the pet or the length of the list it holds. */
function view(exchange: Exchange, judgement: Judgement, route: string | undefined): string {
  const status = exchange.response?.status ?? 0
  if (status !== 200 && status !== 201) return `${status}`
  const parsed = responseJson(exchange)
  if (!parsed.ok) return `${status} not JSON`
  // A list may change between two reads (other checks create pets; a replica may lag behind them): two lists are
  // compared on being lists, and each is held to the limit and filter it asked for by the list rules.
  if (route === 'listPets' && Array.isArray(parsed.value)) return `${status} a list`
  if (isJsonObject(parsed.value)) {
    const { id, name, categoryId } = parsed.value
    const text = (value: unknown) => (value instanceof JsonNumber ? value.text : JSON.stringify(value))
    return `${status} ${judgement.kind === 'created' ? '' : `id ${text(id)} `}name ${text(name)} categoryId ${text(categoryId)}`
  }
  return `${status}`
}

function judgeCreated(exchange: Exchange, judgement: Extract<Judgement, { kind: 'created' }>, besides: readonly number[]): EditFinding[] {
  const status = exchange.response?.status
  // A valid NewPet refused is charged to the 201 rule (or the equivalence that made it the plain request), one echoed wrong to the echo.
  const refusedTo = judgement.requirementId === 'createPet/echoes-fields' ? 'createPet/returns-201-pet' : judgement.requirementId
  // The answers the policy allows beside 201 (406 to an Accept without JSON) were taken before; the message names them too.
  if (status !== 201) return [held(refusedTo, (expect) => expect.status(exchange, [201, ...besides], judgement.why))]
  return [
    held(judgement.requirementId, (expect) => {
      const pet = expect.petObject(exchange)
      const sent = judgement.pet
      expect.that(pet.name === sent.name, `the 201 answer names the pet ${JSON.stringify(pet.name)}, where the body sent ${JSON.stringify(sent.name)}`)
      expect.that(
        integerField(pet.categoryId) === sent.categoryId,
        `the 201 answer has categoryId ${JSON.stringify(pet.categoryId instanceof JsonNumber ? pet.categoryId.text : pet.categoryId)}, where the body sent ${sent.categoryId}`,
      )
      if (sent.status !== undefined)
        expect.that(pet.status === sent.status, `the 201 answer has status ${JSON.stringify(pet.status)}, where the body sent ${JSON.stringify(sent.status)}`)
    }),
  ]
}

/** Whether a 4xx is what the judgement asks for: a refusal with one of its statuses, or any refusal of a request without the key. */
function refusalExpected(judgement: Judgement, status: number): boolean {
  return (judgement.kind === 'refused' && judgement.statuses.includes(status)) || judgement.kind === 'no access'
}

/**
 * An answer to a message HTTP refuses, edited from a read of one pet, that shows another pet: the JDK's server reads
 * `GET /v1/pets/4 06 HTTP/1.1` as a read of pet 4 (the request line split at its first two spaces, the rest taken for
 * the version), and `GET /v1/pets /406` as the list. However a layer repairs the message, no edit reaches a pet
 * other than the one the plain request names (policy §2b, MUST); RFC 9112 §3 has it refused (400) or redirected. A
 * list answers as another pet only where the request line was split at a space: a layer that cuts a target short at
 * an octet it refuses serves the collection, which is no pet the edit named.
 */
function otherPetReached(exchange: Exchange, named: bigint, listsOthers: boolean): EditFinding | undefined {
  if (exchange.response?.status !== 200 || exchange.request.method === 'HEAD') return undefined
  const parsed = responseJson(exchange)
  if (!parsed.ok || (Array.isArray(parsed.value) && !listsOthers)) return undefined
  const shown = (Array.isArray(parsed.value) ? parsed.value : [parsed.value]).filter(isJsonObject).map((pet) => integerField(pet.id))
  const other = shown.find((id) => id !== undefined && id !== named)
  return other === undefined
    ? undefined
    : {
        requirementId: 'getPet/returns-pet',
        ok: false,
        message: `a read of pet ${named}, written as HTTP refuses it, was answered with pet ${other}${Array.isArray(parsed.value) ? ' in a list' : ''}: a repaired message reached another pet`,
      }
}

/** What undici says when the target ended the connection (a FIN) before a whole answer came: no reset, no timeout. */
const ENDED_BY_TARGET = /other side closed/

/**
 * A close in place of the answers a rule names: the target ended the connection, cleanly and before any answer, on a
 * message HTTP takes as written (in the plain form, with the key, a method the spec names, a body within 64 KiB) whose
 * plain request it answered. Each rule of the judgement names the answers the request may get (201, the plain
 * request's, a refusal with an Error body), and a closed connection is none of them: Tornado's decompress_request
 * ends the connection on a body labelled gzip that is not. A reset (which may discard an answer a server wrote before
 * reading the whole body) and a timeout stay responses/edits-answered's alone.
 */
function closedInPlaceOfAnswer(exchange: Exchange, expectation: Expectation, plain: Exchange | undefined): EditFinding | undefined {
  const { judgement } = expectation
  const failure = exchange.failure
  if (failure?.kind !== 'connection' || !ENDED_BY_TARGET.test(failure.message) || !plain?.response) return undefined
  if (expectation.key !== 'valid' || expectation.ownWords || expectation.otherForms.length > 0 || expectation.otherMethod) return undefined
  if (expectation.allowed.some((answer) => answer.status === 413)) return undefined
  const requirementId = 'requirementId' in judgement && judgement.kind !== 'no access' && judgement.kind !== 'recorded' ? judgement.requirementId : undefined
  // A valid NewPet refused is charged to the 201 rule, as judgeCreated charges it.
  const charged = requirementId === 'createPet/echoes-fields' ? 'createPet/returns-201-pet' : (requirementId ?? (judgement.kind === 'pet' ? 'getPet/returns-pet' : undefined))
  return charged && { requirementId: charged, ok: false, message: `the target closed the connection with no answer, where ${judgement.why}: ${failure.message}` }
}

/**
 * The findings on an edited request's answer. `plain` is the plain request's exchange, for answers that must be
 * its answer; `lists` what the store's lists show, for a limit in another notation.
 */
export function judgeEditedAnswer(exchange: Exchange, expectation: Expectation, plain: Exchange | undefined, context: { lists?: ListContext }): EditFinding[] {
  const findings = judgedAnswer(exchange, expectation, plain, context)
  // Content-Length with differing values: served, the target read one of the bodies a smuggler means another reader to see.
  const status = exchange.response?.status
  if (!expectation.invalidMessage?.includes(DIFFERING_LENGTHS) || status === undefined) return findings
  const served = status >= 200 && status < 300
  return [
    ...findings,
    {
      requirementId: 'responses/differing-lengths-refused',
      ok: !served,
      ...(served ? { message: `answered ${status} to a request whose Content-Length fields differ, which RFC 9112 §6.3 has a server answer 400 and close` } : {}),
    },
  ]
}

function judgedAnswer(exchange: Exchange, expectation: Expectation, plain: Exchange | undefined, context: { lists?: ListContext }): EditFinding[] {
  const { judgement } = expectation
  const answered: EditFinding = { requirementId: 'responses/edits-answered', ok: true }
  if (!exchange.response) {
    const kind = exchange.failure?.kind
    if (expectation.invalidMessage && (kind === 'connection' || kind === 'dropped')) {
      // A message HTTP refuses is answered 400 (RFC 9112 §3, §5.1, §6.3), and the connection may close after it: a reset
      // may have discarded that 400, written before the server read the rest, but a close without a word is no answer.
      // Under a method other than the spec's, a close stays an answer: Node's server ends the connection on a CONNECT
      // it has no tunnel for, whatever its target.
      const message = exchange.failure?.message ?? ''
      if (kind === 'dropped' || expectation.otherMethod || !ENDED_BY_TARGET.test(message)) return [answered]
      // A later minor version alone is no message HTTP refuses: a server reads it as the HTTP/1 it implements.
      const laterMinor = expectation.invalidMessage === REQUEST_LINE_PROBLEM && /^HTTP\/1\.\d+$/.test(expectation.unsupportedVersion ?? '')
      const what = laterMinor
        ? `a request of ${expectation.unsupportedVersion}, which a server reads as the highest HTTP/1 it implements and answers so (RFC 9110 §2.5)`
        : `a message HTTP refuses as written (${expectation.invalidMessage}), where HTTP/1.1 answers it 400 (RFC 9112 §3, §5.1, §6.3)`
      return [{ requirementId: 'responses/edits-answered', ok: false, message: `the target closed the connection without a word on ${what}: ${message}` }]
    }
    // No answer at all: the check that sent it says so (it asserts that every edit was answered); and a close that
    // stands in for the answers a rule names fails that rule.
    const closed = closedInPlaceOfAnswer(exchange, expectation, plain)
    return closed ? [closed] : []
  }
  const { status } = exchange.response
  // A rate limit that outlasted the retries says only that the target asked to wait (policy §2, rate limits): the edit is not judged.
  if (isRateLimitAnswer(exchange.response)) return [answered]
  // The HTTP layer's own refusal of a message HTTP refuses, of a request line longer than it takes, of a Host it does not
  // serve (a host filter's, an edge's): in its own words.
  if (expectation.ownWords && status >= 400 && status < 500) return [answered]
  // A method the spec does not name: a 400 or 501 may be the HTTP layer's own, in its own words (a parser that does not
  // know the token; RFC 9110 §9.1). A 404 or 405 with the key is the service's routing, and carries the Error body (the
  // rule below); without the key, any refusal is judged as the refusal it is.
  if (expectation.otherMethod && expectation.key === 'valid' && [400, 501].includes(status)) return [answered]
  // A form HTTP/1.1 defines (HTTP/1.0, absolute-form, chunked, 100-continue) refused in the HTTP layer's own words, or
  // with a status the judgement does not give: a SHOULD departs, and nothing the service says is judged by it.
  if (expectation.otherForms.length > 0 && status >= 400 && status < 500 && status !== 429 && !refusalExpected(judgement, status) && plain?.response?.status !== status) {
    return [
      answered,
      {
        requirementId: 'responses/message-forms',
        ok: false,
        message: `answered ${status} to a request in a form HTTP/1.1 defines (${expectation.otherForms.join(', ')}), where ${judgement.why}`,
      },
    ]
  }
  const findings: EditFinding[] = [answered]
  const content = exchange.request.method === 'HEAD' ? exchange.response.contentAfterHead : undefined
  if (content)
    findings.push({
      requirementId: 'responses/head-as-get',
      ok: false,
      message: `answered HEAD with ${content} octets of content after its head, which an answer to HEAD never has (RFC 9110 §9.3.2): a kept-alive connection would read them as the next answer`,
    })
  // A Content-Length to HEAD is GET's, or none (RFC 9110 §8.6): 0 where GET's answer of that status has content misleads.
  const headLength = exchange.request.method === 'HEAD' ? exchange.response.headers['content-length'] : undefined
  if (headLength?.trim() === '0' && plain?.response?.status === status && plain.response.bodyBytes > 0)
    findings.push({
      requirementId: 'responses/head-as-get',
      ok: false,
      message: `answered HEAD with Content-Length: 0, where GET's answer of the same status has ${plain.response.bodyBytes} octets of content (RFC 9110 §8.6: the length GET's content would have, or none)`,
    })
  const elsewhere = expectation.namedPet === undefined ? undefined : otherPetReached(exchange, expectation.namedPet.id, expectation.namedPet.listsOthers)
  if (elsewhere) findings.push(elsewhere)
  // An answer to a path or method the spec does not name is no operation's, so the rules of every answer do not judge it: never a 5xx is judged here (policy §2b: for any request).
  const versionRefused = status === 505 && expectation.unsupportedVersion !== undefined
  // A later minor version of HTTP/1 is read as the highest a server implements (RFC 9110 §2.5, SHOULD); 505 is for the
  // major version (§15.6.6), but cheroot and Jetty answer it to HTTP/1.2: a departure from a SHOULD, which warns.
  if (versionRefused && /^HTTP\/1\.\d$/.test(expectation.unsupportedVersion ?? ''))
    findings.push({
      requirementId: 'responses/message-forms',
      ok: false,
      message: `answered 505 to ${expectation.unsupportedVersion}, which RFC 9110 §2.5 has a server read as the highest HTTP/1 it implements (505 is for the major version)`,
    })
  if (!expectation.route && status >= 500 && !(expectation.otherMethod && status === 501) && !versionRefused)
    findings.push({ requirementId: 'responses/no-server-error', ok: false, message: `answered ${status} (${judgement.why})` })
  // A refusal of what the operation does not take (a query on the create): the rules of every answer hold its Error body.
  if (expectation.refusable && status >= 400 && status < 500 && status !== 429) return findings
  // An answer the policy allows beside the judgement's (406 to an Accept without JSON; 401 to a key spelled as only a SHOULD accepts): the rules of every answer judge it, and a SHOULD it departs from warns.
  const allowed = expectation.allowed.filter((answer) => answer.status === status)
  if (allowed.length > 0) {
    for (const answer of allowed) if (answer.warns) findings.push({ requirementId: answer.warns, ok: false, message: `answered ${status}: ${answer.why}` })
    return findings
  }
  // An error answer to a request with the key under the base path is the service's own, whatever the path: it has the Error body (spec, Errors).
  // A HEAD answer never has content (RFC 9110 §9.3.2), so there is no body to judge.
  const headAnswer = exchange.request.method === 'HEAD'
  if (!expectation.route && expectation.underBase && expectation.key === 'valid' && status >= 400 && status < 500 && status !== 429 && !headAnswer) {
    findings.push(
      held('errors/body-schema', (expect) => {
        expect.that(
          exchange.response !== undefined && mediaType(exchange.response) === 'application/json',
          `the ${status} answer to a path the service answers for is labelled ${exchange.response?.headers['content-type'] ?? 'nothing'}, not application/json`,
        )
        expect.errorBody(exchange, `the ${status} answer`)
      }),
    )
    // Its status field repeats the HTTP status (a 405 whose body says 400), as the rules of every answer hold on the operations' routes.
    const parsed = responseJson(exchange)
    if (parsed.ok && isJsonObject(parsed.value) && parsed.value.status instanceof JsonNumber)
      findings.push(held('errors/status-matches-http', (expect) => expect.errorStatusRepeated(exchange, `the ${status} answer`)))
  }
  // The answers the policy allows beside the judgement's, named in its failures: a message that says only "201" reads as if 406 failed.
  const besides = [...new Set(expectation.allowed.map((answer) => answer.status))]
  switch (judgement.kind) {
    case 'plain answer': {
      // Nothing to compare with: the plain request got no answer, or only a rate limit.
      if (!plain?.response || isRateLimitAnswer(plain.response)) break
      const [expected, actual] = [view(plain, judgement, expectation.route), view(exchange, judgement, expectation.route)]
      const requirementId = judgement.requirementId
      const orElse = besides.length > 0 ? `; ${besides.join(' or ')} would also pass` : ''
      findings.push(held(requirementId, (expect) => expect.that(actual === expected, `answered ${actual}, where the plain request got ${expected} (${judgement.why}${orElse})`)))
      break
    }
    case 'head': {
      if (!plain?.response || isRateLimitAnswer(plain.response)) break
      const expected = plain.response.status
      findings.push(held(judgement.requirementId, (expect) => expect.that(status === expected, `answered ${status}, where GET got ${expected} (${judgement.why})`)))
      break
    }
    case 'refused':
      findings.push(held(judgement.requirementId, (expect) => expect.errorAnswer(exchange, judgement.statuses, judgement.why)))
      // A 2xx to a create the row refuses accepted the pet, as the generated invalid bodies judge it: "nothing created" is broken too.
      if (judgement.requirementId === 'createPet/invalid-body-400' && status >= 200 && status < 300)
        findings.push({ requirementId: 'createPet/invalid-body-not-created', ok: false, message: `answered ${status}: the pet was accepted (${judgement.why})` })
      break
    case 'no access':
      findings.push(held(judgement.requirementId, (expect) => expect.refused(exchange, 'a request without a valid key')))
      break
    case 'pet':
    case 'lenient pet': {
      const wanted = judgement.kind === 'pet' ? judgement.id : judgement.value
      const parsed = status === 200 ? responseJson(exchange) : undefined
      const id = parsed?.ok && isJsonObject(parsed.value) ? integerField(parsed.value.id) : undefined
      const requirementId = judgement.kind === 'pet' ? 'getPet/returns-pet' : 'getPet/other-notations'
      if (status === 200) findings.push(held(requirementId, (expect) => expect.that(id === wanted, `answered pet ${id ?? '(no id)'}: ${judgement.why}`)))
      if (judgement.kind === 'lenient pet') findings.push({ requirementId: 'getPet/lenient-notations', ok: true, message: `${judgement.why}: ${describeAnswer(exchange)}` })
      break
    }
    case 'list':
      findings.push(...judgeList(exchange, judgement, context.lists))
      break
    case 'created':
      findings.push(...judgeCreated(exchange, judgement, besides))
      break
    case 'created or refused':
      findings.push(held(judgement.requirementId, (expect) => (status === 201 ? expect.petObject(exchange) : expect.errorAnswer(exchange, judgement.statuses, judgement.why))))
      break
    case 'recorded':
      findings.push({ requirementId: judgement.requirementId, ok: true, message: `${judgement.why}: answered ${status}` })
      break
    case 'invariants':
      break
  }
  return findings
}
