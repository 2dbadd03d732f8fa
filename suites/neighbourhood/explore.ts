/**
 * The neighbourhood of the run's plain requests (policy §2b): the plan made once per run, then, per operation,
 * the plain requests and every planned edit of them sent as written, each answer held to what the edit oracle
 * says of it and to the rules of every answer. A create the service refused is looked for afterwards by its name.
 */
import type { Check } from '../../lib/checks/check.js'
import { judgeEditedAnswer } from '../../lib/checks/edited-answers.js'
import type { ListContext } from '../../lib/checks/edited-lists.js'
import { countOfStatus } from '../../lib/data/store-survey.js'
import type { TransportFailureKind } from '../../lib/http/exchange.js'
import { isInt64 } from '../../lib/http/int64.js'
import { integerField, isJsonObject } from '../../lib/http/json.js'
import { responseJson } from '../../lib/http/response-json.js'
import type { KeyedReading } from '../../lib/http/wire-reading.js'
import { editAsSent } from '../../lib/neighbourhood/edit-as-sent.js'
import { type Expectation, expectationOf, type OracleContext } from '../../lib/neighbourhood/edit-oracle.js'
import type { PlannedEdit } from '../../lib/neighbourhood/edit-plan.js'
import { planEdits } from '../../lib/neighbourhood/edit-plan.js'
import { loadJsonCorpus } from '../../lib/neighbourhood/json-corpus.js'
import { numberedCreate, octalTwin, type PlainRequest, plainRequests } from '../../lib/neighbourhood/plain-requests.js'
import { readRequest } from '../../lib/neighbourhood/request-reading.js'
import { OPERATION_ROUTES, type Operation, type OperationExchange, PET_STATUSES, type PetStatus } from '../../lib/spec/petstore-api.js'
import { type RequestModel, type WireRequest, wireOf } from '../../lib/spec/request-model.js'
import { categoryId, getPetRemoved, knownIds } from '../fixtures.js'
import { type EditedCreate, followAcceptedCreate, ListReads } from './followed-creates.js'
import { statusReadLeniently } from './status-read-leniently.js'

export interface NeighbourhoodPlan {
  /** The pet the plain get names, when the store showed one. */
  getId: bigint | undefined
  plains: PlainRequest[]
  edits: PlannedEdit[]
  status: { list: PetStatus; create: PetStatus }
  /** The rules the edits sent so far are judged by (the judgement and its requirement, and what else their answer may be). */
  rulesJudged: Set<string>
}

/** The rule an edited request is judged by: what an edit that gives way to a rate limit must not leave unjudged. */
function ruleOf(expectation: Expectation): string {
  const { judgement, allowed } = expectation
  return [judgement.kind, 'requirementId' in judgement ? judgement.requirementId : '', ...allowed.map((answer) => answer.warns ?? answer.status)].join('|')
}

/** The largest answer to a plain request whose edits are sent: a page of seven pets is a few KiB; a target that sends megabytes to every request would make the edits a flood. */
const LARGEST_PLAIN_ANSWER_BYTES = 256 * 1024

/** Answers that came but past what the suite reads (a body or a head over its cap, policy §5): answered, not judged. */
const PAST_THE_CAPS: ReadonlySet<TransportFailureKind> = new Set(['body-too-large', 'headers-too-large'])

/**
 * How long the run may have paused for the target's rate limits before the edits beyond the cover give way (policy §2,
 * rate limits: a rate limit changes the pace, never the verdicts; the run keeps within its deadline by sending fewer
 * edits): a tenth of the deadline, at most a minute. Unthrottled, a full run's edits take a second or two; a target that
 * asks for a pause every hundred requests still gets every edit, and one that asks every seventh request gets its
 * cover and the rest counted as not sent, so its verdict comes in about two minutes instead of six.
 */
export function editsGiveWayAfterPausedMs(deadlineMs: number): number {
  return Math.min(60_000, deadlineMs / 10)
}

/** The limit of the plain list request: far from the default page (20) and the maximum (100), small enough for a store to fill. */
export const PLAIN_LIMIT = 7

/** The operations whose neighbourhoods a profile explores: smoke edits reads only. */
function operationsOf(check: Check): Operation[] {
  return check.isReadOnly ? ['listPets', 'getPet'] : ['listPets', 'getPet', 'createPet']
}

/** The plan of the run, made once whichever check asks first. */
export function neighbourhoodPlan(check: Check): Promise<NeighbourhoodPlan> {
  return check.once('neighbourhood: the plan', async () => {
    // The JSON corpus only for a run that edits a create's body.
    if (operationsOf(check).includes('createPet')) await loadJsonCorpus()
    const survey = await check.survey()
    const counts = PET_STATUSES.map((status) => ({ status, count: countOfStatus(survey, status) }))
    const fullest = counts.reduce((best, next) => (next.count > best.count ? next : best)).status
    const emptiest = counts.reduce((best, next) => (next.count < best.count ? next : best)).status
    // An id within int64: a target that lists a pet whose id has a million digits must not have every edit carry it. One
    // whose digits an octal reader takes for another listed pet's id comes first, so leading zeros can reach that pet.
    const known = octalTwin(survey.pets.keys()) ?? knownIds(survey, 20).find(isInt64)
    const id = known ?? 1n
    const plains = plainRequests({
      baseUrl: check.context.baseUrl,
      apiKey: check.context.apiKey,
      fields: check.client.fields,
      list: { limit: PLAIN_LIMIT, status: fullest },
      getId: id,
      // A `%` in the name: a body read as a form where it carries no JSON label (Rack reads an unlabelled POST so) holds a
      // malformed escape, which a form parser may refuse before the key is read.
      create: { name: check.petName('n7777777-100%'), categoryId: categoryId(check), status: emptiest },
      operations: operationsOf(check),
    })
    const { edits, coverage } = planEdits(plains, {
      seed: check.context.seed,
      every: check.context.profile === 'deep',
      writes: !check.isReadOnly,
      maxEdits: check.context.maxEdits,
      operators: check.context.editOperators,
    })
    check.neighbourhood.coverage = coverage
    check.neighbourhood.planned = edits.length + plains.length
    return { getId: known, plains, edits, status: { list: fullest, create: emptiest }, rulesJudged: new Set() }
  })
}

function oracleContext(check: Check): OracleContext {
  return { apiKey: check.context.apiKey, baseSegments: new URL(check.context.baseUrl).pathname.split('/').filter((segment) => segment !== '') }
}

/**
 * Sends a request as written, with its head as read once (the reading the rules of every answer judge): recorded as
 * the operation its path names (or a probe), its timeouts counted under
 * `timedAs`: a plain request under its operation's own name (an operation the other checks found dead is not
 * waited for again), an edit under the edits of it.
 */
export async function sendAsWritten(
  check: Check,
  model: RequestModel,
  wire: WireRequest & { reading: KeyedReading },
  as: OperationExchange['operation'],
  timedAs: string,
  keptAlive = false,
): Promise<OperationExchange> {
  const exchange = await check.api.wire(model, wire, as, timedAs, keptAlive)
  check.neighbourhood.sent += 1
  if (exchange.request.method === 'POST' && exchange.response?.status === 201) check.neighbourhood.created += 1
  return exchange
}

/** The lengths of the plain list's status: its full page and its default page, for a limit in another notation. */
async function listContext(check: Check, status: PetStatus): Promise<ListContext> {
  const survey = await check.survey()
  const defaultPage = await check.shared(`list:status=${status}`, (api) => api.listPets({ status }))
  const length = (exchange: OperationExchange) => {
    const body = exchange.response?.status === 200 ? check.expect.json(exchange) : undefined
    return Array.isArray(body) ? body.length : 0
  }
  return { fullPage: length(survey.byStatus[status]), defaultPage: length(defaultPage) }
}

/**
 * From getPet's removal date on, an edit whose path names GET /pets/{id} (a list's `pets` given twice, say) reaches a
 * route that may be gone: it is held to no access without the key, and to nothing of the operation's own; nor is an
 * answer to any path below `/pets/` (a removed route's 404 page counts for nothing but getPet's requirements).
 */
function withoutRemovedGet(expectation: Expectation, removed: boolean, belowPets: boolean): Expectation {
  if (!removed || !belowPets) return expectation
  const { route: _gone, ...rest } = expectation
  return {
    ...rest,
    underBase: false,
    judgement:
      expectation.key === 'none'
        ? {
            kind: 'no access',
            requirementId: 'auth/no-access-without-key',
            source: 'no access without the key',
            why: 'GET /pets/{id} is past its removal date; without a valid key: no 2xx and no pet data',
          }
        : { kind: 'invariants', source: 'past the removal date', why: 'GET /pets/{id} is past its removal date' },
  }
}

/**
 * The plain requests of one operation and every planned edit of them, judged. Gives the refused creates, for the
 * search for a pet stored all the same, and the edits that got no answer.
 */
export async function exploreOperation(
  check: Check,
  operation: Operation,
): Promise<{ refusedCreates: EditedCreate[]; acceptedIds: bigint[]; unanswered: OperationExchange[]; pastTheCaps: OperationExchange[]; notSent: number; gaveWay: number }> {
  const plan = await neighbourhoodPlan(check)
  const context = oracleContext(check)
  // The pet the plain get names is read first within the consistency window: a pet just created may not be
  // visible yet (a replica that lags), and its edits must not be compared with a 404 it got for that.
  if (operation === 'getPet' && plan.getId !== undefined) await check.shared(`get:${plan.getId}`, (api) => api.getPet(plan.getId as bigint))
  const plains = plan.plains.filter((plain) => plain.model.operation === operation)
  const plainAnswers = new Map<PlainRequest, OperationExchange>()
  const sendPlain = async (plain: PlainRequest) => {
    const written = numberedCreate(wireOf(plain.model), 0)
    const exchange = await sendAsWritten(check, plain.model, { ...written, reading: readRequest(written, check.context.apiKey) }, operation, OPERATION_ROUTES[operation])
    check.adopt([exchange])
    plainAnswers.set(plain, exchange)
    return exchange
  }
  // The plain request with the key first: what it gets decides whether anything more is sent.
  const keyed = plains.find((plain) => !plain.keyless)
  const keyedAnswer = keyed ? await sendPlain(keyed) : undefined
  // An operation that did not answer its plain request would not answer its edits either: they are not sent.
  check.require(
    keyedAnswer?.response !== undefined,
    `the plain ${OPERATION_ROUTES[operation]} request with the key got no answer (${keyedAnswer?.failure?.message ?? 'not sent'}), so its edits were not sent`,
  )
  // A target that answers a plain request with a huge body would answer every edit alike: the run is not swelled by it.
  const bytes = keyedAnswer?.response?.bodyBytes ?? 0
  check.require(
    bytes <= LARGEST_PLAIN_ANSWER_BYTES,
    `the plain ${OPERATION_ROUTES[operation]} request with the key was answered with ${bytes} bytes, so its edits were not sent (each would bring an answer as large)`,
  )
  await Promise.all(plains.filter((plain) => plain !== keyed).map(sendPlain))
  const lists = operation === 'listPets' ? await listContext(check, plan.status.list) : undefined
  const keyedStatus = keyedAnswer?.response?.status ?? 0
  const served = keyedStatus >= 200 && keyedStatus < 300
  const refusedCreates: EditedCreate[] = []
  // The ids the creates the service accepted were given, the plain one's first: where a refused create stored all the same would sit among them.
  const acceptedIds: bigint[] = []
  const acceptedId = (exchange: OperationExchange) => {
    const parsed = exchange.response?.status === 201 ? responseJson(exchange) : undefined
    const id = parsed?.ok && isJsonObject(parsed.value) ? integerField(parsed.value.id) : undefined
    if (id !== undefined) acceptedIds.push(id)
  }
  if (operation === 'createPet' && keyedAnswer) acceptedId(keyedAnswer)
  // Each accepted create is followed as soon as its 201 comes, while the list of its status still has room.
  const statusLists = new ListReads(check)
  const followed: Array<Promise<void>> = []
  const unanswered: OperationExchange[] = []
  const pastTheCaps: OperationExchange[] = []
  let notSent = 0
  let gaveWay = 0
  const edits = plan.edits.filter((edit) => edit.plain.model.operation === operation)
  const judgeOne = async (edit: PlannedEdit, index: number) => {
    const number = index + 1
    const { plainReading, wire, reading, keptAlive } = editAsSent(edit, number, context.apiKey)
    const belowPets = reading.target.startsWith(`/${[...context.baseSegments, 'pets'].join('/')}/`)
    // What the plain requests' answers said of the target's HTTP version (RFC 9112 §6.1: a chunked body only to a 1.1 server).
    const versions = check.client.answeredHttpVersions
    const answersInHttp10 = versions.has('1.0') && !versions.has('1.1')
    const expectation = withoutRemovedGet(expectationOf(plainReading, reading, edit, { ...context, answersInHttp10 }), getPetRemoved(check), belowPets)
    // Past the rate limits' budget, only the cover and edits judged by a rule no edit was judged by yet are sent: every requirement the plan decides is still decided.
    const rule = ruleOf(expectation)
    if (!edit.cover && check.client.pausedMs > editsGiveWayAfterPausedMs(check.context.deadlineMs) && plan.rulesJudged.has(rule)) {
      gaveWay += 1
      check.neighbourhood.gaveWay += 1
      // The coverage table counts what was sent: this edit was not.
      const row = check.neighbourhood.coverage.find((row) => row.request === edit.plain.name && row.part === edit.part.label && row.operator === edit.operator)
      if (row) row.edits -= 1
      return
    }
    plan.rulesJudged.add(rule)
    const exchange = await sendAsWritten(check, edit.model, { ...wire, reading }, expectation.route ?? 'probe', `edits of ${OPERATION_ROUTES[operation]}`, keptAlive)
    if (exchange.failure?.notSent) {
      notSent += 1
      return
    }
    const plain = plainAnswers.get(edit.plain)
    const judged = judgeEditedAnswer(exchange, expectation, plain, lists ? { lists } : {})
    // A refusal is evidence only from a target that serves the plain request with the key: otherwise only failures count.
    const findings = served ? judged : judged.filter((finding) => !finding.ok)
    const { judgement } = expectation
    if (served && expectation.key === 'valid' && judgement.kind === 'list' && judgement.invalidStatus !== undefined) {
      const lenient = await statusReadLeniently(check, { exchange, invalidStatus: judgement.invalidStatus }, { exchange: plain, status: plan.status.list })
      if (lenient) findings.push(lenient)
    }
    // An answer past the suite's caps came, though it is not read (policy §5): it is counted apart, not as no answer.
    if (exchange.failure && PAST_THE_CAPS.has(exchange.failure.kind)) pastTheCaps.push(exchange)
    else if (!exchange.response && !findings.some((finding) => finding.requirementId === 'responses/edits-answered')) unanswered.push(exchange)
    check.charge(exchange, findings, plain, `${edit.plain.name}, ${edit.label}`)
    const status = exchange.response?.status ?? 0
    if (operation === 'createPet' && status >= 400 && status < 500 && status !== 429) refusedCreates.push({ number, edit, exchange })
    if (operation === 'createPet' && status === 201) acceptedId(exchange)
    if (operation === 'createPet' && status === 201 && expectation.key === 'valid') followed.push(followAcceptedCreate(check, { number, edit, exchange }, statusLists))
  }
  // Twice as many edits under way as the client sends at once: each is written, sent and judged, then let go, so a
  // deep run of 16,000 edits does not hold them all written at once.
  let next = 0
  const worker = async () => {
    while (next < edits.length) {
      const index = next++
      await judgeOne(edits[index] as PlannedEdit, index)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, check.context.concurrency * 2) }, worker))
  await Promise.all(followed)
  return { refusedCreates, acceptedIds, unanswered, pastTheCaps, notSent, gaveWay }
}
