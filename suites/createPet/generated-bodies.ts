/**
 * The generated-body properties of createPet: how one generated case is sent and judged, and how a
 * failure is shrunk and reported with the command that replays it. The checks that read these runs are
 * in generated-bodies.test.ts.
 */
import { describeAnswer, failureOf, lostToDroppedConnection } from '../../lib/checks/assertions.js'
import type { Check } from '../../lib/checks/check.js'
import type { ExperimentCause } from '../../lib/checks/check-result.js'
import { codePoint, nameDifference, petDifferences } from '../../lib/checks/differences.js'
import { type EventualRead, windowWords } from '../../lib/data/eventual-reads.js'
import { LiveProperty, type PropertyOutcome, type Shrunk } from '../../lib/data/live-property.js'
import {
  categoryIdRespelling,
  type InvalidNewPet,
  invalidNewPetArbitraries,
  renderValidNewPet,
  type ValidNewPet,
  validNewPetArbitrary,
} from '../../lib/data/new-pet-arbitraries.js'
import { classifyNewPet, NEW_PET_RULES } from '../../lib/data/new-pet-oracle.js'
import { integerField, isJsonObject, JsonNumber, type JsonValue, parseJson, stringifyJson } from '../../lib/http/json.js'
import { responseObject } from '../../lib/http/response-json.js'
import { type RequestBody, requestBodyText } from '../../lib/spec/operation-requests.js'
import { isPetStatus, type PetstoreApi } from '../../lib/spec/petstore-api.js'
import { categoryId, getPetRemoved, replayCommand, replayPathFor } from '../fixtures.js'
import { type Marker, type RefusedPetSearches, refusedPetSearches } from './refused-pet-search.js'

/** The rules a valid create is judged by: what an experiment on a create's body alone can show. */
export const VALID_BODY_REQUIREMENTS = ['createPet/returns-201-pet', 'createPet/echoes-fields', 'createPet/round-trip-get'] as const
export type ValidBodyRequirement = (typeof VALID_BODY_REQUIREMENTS)[number]
export type InvalidBodyRequirement = 'createPet/invalid-body-400' | 'createPet/invalid-body-not-created'
type GeneratedRequirement = ValidBodyRequirement | InvalidBodyRequirement

/** New cases one shrink may send (each a POST, and a GET or a list): enough to bring a 3000-character name down to its shortest failing length. */
const SHRINK_BUDGET = 150
/** Most candidates one shrink tries, sent or answered from memory. */
const SHRINK_CANDIDATES_PER_PROPERTY = 300

/** What one generated case showed: the requirements it could decide and those it broke, and the exact body sent, for the report. */
export interface CaseOutcome<K extends string> extends PropertyOutcome<K> {
  decided: K[]
  sent: string
}
const COUNTEREXAMPLE_CHARS = 2_000

/** A valid case in words; a short name is also spelled out in code points, since some are invisible. */
export function describeValid(pet: ValidNewPet): string {
  const points = [...pet.name]
  const spelled = points.length > 0 && points.length <= 8 ? `: ${points.map(codePoint).join(' ')}` : ''
  return `name ${JSON.stringify(pet.name)} (${points.length} code points${spelled}), categoryId ${pet.categoryId}${pet.categoryIdSpelling === 'integer' ? '' : ` written ${categoryIdRespelling(pet)?.label}`}, status ${pet.status ?? '(none)'}`
}

export function describeInvalid(invalid: InvalidNewPet): string {
  return `rule broken: ${invalid.rule} (${invalid.detail})`
}

/** GET /pets/{id} of a pet just created, repeated within the consistency window until it is answered 200. */
type ReadBack = (id: bigint) => Promise<EventualRead>

async function evaluateValid(api: PetstoreApi, pet: ValidNewPet, readBack: ReadBack | undefined): Promise<CaseOutcome<ValidBodyRequirement>> {
  const sent = renderValidNewPet(pet)
  const classified = classifyNewPet(sent)
  if (!classified.valid) throw new Error(`the generator made a body the schema refuses (${classified.violations.join('; ')}): ${sent}`)
  const post = await api.createPet({ raw: sent })
  if (lostToDroppedConnection(post)) return { decided: [], failures: {}, exchanges: [post], sent }
  const outcome: CaseOutcome<ValidBodyRequirement> = { decided: ['createPet/returns-201-pet'], failures: {}, exchanges: [post], sent }
  const created = post.response?.status === 201 ? responseObject(post) : undefined
  const id = created ? integerField(created.id) : undefined
  if (!created || id === undefined) {
    outcome.failures['createPet/returns-201-pet'] = {
      message: 'a valid NewPet was not answered 201 with a Pet carrying an integer id',
      expected: '201 with a Pet',
      actual: describeAnswer(post),
      exchange: post,
    }
    return outcome
  }

  outcome.decided.push('createPet/echoes-fields')
  const echo = (message: string, expected: string, actual: string) => {
    outcome.failures['createPet/echoes-fields'] ??= { message, expected, actual, exchange: post }
  }
  if (created.name !== pet.name) {
    echo(typeof created.name === 'string' ? nameDifference(pet.name, created.name) : 'name is not a string', JSON.stringify(pet.name), stringifyJson(created.name))
  }
  if (integerField(created.categoryId) !== pet.categoryId) echo('categoryId differs from the one sent', String(pet.categoryId), stringifyJson(created.categoryId))
  if (pet.status !== undefined && created.status !== pet.status) echo('status differs from the one sent', pet.status, stringifyJson(created.status))

  if (!readBack) return outcome
  const eventual = await readBack(id)
  const get = eventual.exchange
  outcome.exchanges.push(get)
  outcome.decided.push('createPet/round-trip-get')
  const read = get.response?.status === 200 ? responseObject(get) : undefined
  // Compared with the 201 answer, so a wrong echo is blamed once, on echoes-fields.
  const differences = read
    ? petDifferences({ id, name: created.name, categoryId: integerField(created.categoryId), ...(pet.status !== undefined ? { status: created.status } : {}) }, read)
    : []
  if (!read || differences.length > 0) {
    outcome.failures['createPet/round-trip-get'] = {
      message: !eventual.found
        ? `GET /pets/${id} did not answer 200 ${windowWords(eventual)}`
        : read
          ? `GET /pets/${id} differs from the pet just created: ${differences.join('; ')}`
          : `GET /pets/${id} does not return the pet just created`,
      expected: `200 with ${stringifyJson(created)}`,
      actual: describeAnswer(get),
      exchange: get,
    }
  }
  return outcome
}

/** Put a run-unique marker into a valid slot of an invalid body (its name, else its categoryId), so a pet wrongly stored from it can be found. */
function withMarker(body: RequestBody, marker: Marker): { body: RequestBody; findBy?: 'name' | 'categoryId' } {
  if (!('json' in body) || !isJsonObject(body.json)) return { body }
  const fields = body.json as Record<string, unknown>
  if (typeof fields.name === 'string') return { body: { json: { ...fields, name: marker.name } }, findBy: 'name' }
  if (typeof fields.categoryId === 'bigint') return { body: { json: { ...fields, categoryId: marker.categoryId } }, findBy: 'categoryId' }
  return { body }
}

async function evaluateInvalid(api: PetstoreApi, searches: RefusedPetSearches, invalid: InvalidNewPet, marker: Marker): Promise<CaseOutcome<InvalidBodyRequirement>> {
  const { body, findBy } = withMarker(invalid.body, marker)
  const sent = requestBodyText(body)
  const classified = classifyNewPet(sent)
  if (classified.valid || classified.rules.join() !== invalid.rule) {
    throw new Error(`the generator labelled a body ${invalid.rule} but the schema says ${classified.valid ? 'valid' : classified.rules.join(', ')}: ${sent}`)
  }
  const post = await api.createPet({ raw: sent })
  if (lostToDroppedConnection(post)) return { decided: [], failures: {}, exchanges: [post], sent }
  const outcome: CaseOutcome<InvalidBodyRequirement> = { decided: ['createPet/invalid-body-400'], failures: {}, exchanges: [post], sent }
  const refused = failureOf(post, (expect) => expect.errorAnswer(post, 400, `POST /pets (${invalid.detail})`))
  if (refused) outcome.failures['createPet/invalid-body-400'] = refused

  const status = post.response?.status
  if (status !== undefined && status < 300) {
    outcome.decided.push('createPet/invalid-body-not-created')
    outcome.failures['createPet/invalid-body-not-created'] = {
      message: `POST /pets (${invalid.detail}) was answered ${status}: the pet was accepted`,
      expected: '400 and nothing created',
      actual: describeAnswer(post),
      exchange: post,
    }
    return outcome
  }
  if (!findBy || status === undefined) return outcome
  const sentStatus = (body as { json: Record<string, JsonValue> }).json.status
  const search = await searches.search(marker, findBy, sentStatus)
  outcome.exchanges.push(...search.exchanges)
  if (search.decided) outcome.decided.push('createPet/invalid-body-not-created')
  if (search.found) {
    outcome.failures['createPet/invalid-body-not-created'] = {
      message: `POST /pets (${invalid.detail}) was refused, but pet ${search.found.pet.id} was stored from it`,
      expected: 'no pet carrying the refused body’s marker',
      actual: `pet ${search.found.pet.id} in ${search.found.exchange.request.url}`,
      exchange: search.found.exchange,
    }
  }
  return outcome
}

/** One property: its name (the first part of a replay path) and its cases. */
export interface NamedProperty<T, K extends string> {
  name: string
  cases: LiveProperty<T, K, CaseOutcome<K>>
  /** The input of a counterexample that, made plain alone, makes it pass: sent as an experiment after the shrink. */
  experiment?: (value: T, requirement: K) => Promise<ExperimentCause | undefined>
}

/** How many plain names experiments have taken in this process: each new one is another. */
let experimentNames = 0

/** The inputs of a valid NewPet, each with its plain value: the plain create's (PLAIN_NEW_PET), a plain name of its own. */
function plainInputs(check: Check, pet: ValidNewPet): Array<{ input: string; value: string; plain: ValidNewPet }> {
  const plainCategoryId = categoryId(check)
  const inputs = [
    ...(pet.categoryId !== plainCategoryId || pet.categoryIdSpelling !== 'integer'
      ? [
          {
            input: 'categoryId',
            value: pet.categoryIdSpelling === 'integer' ? String(pet.categoryId) : `${pet.categoryId} written ${categoryIdRespelling(pet)?.label}`,
            plain: { ...pet, categoryId: plainCategoryId, categoryIdSpelling: 'integer' as const },
          },
        ]
      : []),
    // A name of its own: every create carries one no other request uses (a lost create is looked up by it).
    { input: 'name', value: JSON.stringify(pet.name).slice(0, 60), plain: { ...pet, name: check.petName(`experiment-${++experimentNames}`) } },
    ...(pet.status !== 'pending' ? [{ input: 'status', value: pet.status ?? '(none)', plain: { ...pet, status: 'pending' as const } }] : []),
    ...(Object.keys(pet.extra).length > 0 ? [{ input: 'a member the schema does not name', value: Object.keys(pet.extra).join(', '), plain: { ...pet, extra: {} } }] : []),
  ]
  return inputs
}

/**
 * The experiment behind a generated valid counterexample: each of its inputs made plain alone, one after the other,
 * until the counterexample passes; that input is the cause. At most one create (and its read) per input.
 */
async function validCause(
  check: Check,
  pet: ValidNewPet,
  requirement: ValidBodyRequirement,
  evaluate: (pet: ValidNewPet) => Promise<CaseOutcome<ValidBodyRequirement>>,
  what = 'the counterexample',
): Promise<ExperimentCause | undefined> {
  for (const { input, value, plain } of plainInputs(check, pet)) {
    const outcome = await evaluate(plain)
    check.adopt(outcome.exchanges)
    if (outcome.decided.includes(requirement) && !outcome.failures[requirement]) {
      return {
        input,
        words: `${what} passes with its ${input} made plain alone (${value} → ${input === 'categoryId' ? String(plain.categoryId) : input === 'status' ? plain.status : 'plain'})`,
      }
    }
  }
  return undefined
}

/** A create's body read back as the valid NewPet it spells, when it is one (a body a sequence or a check sent). */
function validNewPetOf(body: string | undefined): ValidNewPet | undefined {
  const parsed = body === undefined ? undefined : parseJson(body)
  if (!parsed?.ok || !isJsonObject(parsed.value)) return undefined
  const { name, categoryId: category, status, ...rest } = parsed.value
  const id = category instanceof JsonNumber ? category.integer : undefined
  if (typeof name !== 'string' || id === undefined || (status !== undefined && !isPetStatus(status))) return undefined
  const extra = Object.fromEntries(Object.entries(rest).filter(([, value]) => value === null || ['string', 'number', 'boolean'].includes(typeof value)))
  if (Object.keys(extra).length !== Object.keys(rest).length) return undefined
  return {
    name,
    categoryId: id,
    categoryIdSpelling: /^-?\d+$/.test(category instanceof JsonNumber ? category.text : '') ? 'integer' : 'respelled',
    ...(status ? { status } : {}),
    extra: extra as ValidNewPet['extra'],
  }
}

/**
 * The experiment behind a create another check saw fail (a sequence's): its body sent again alone, and, when it fails
 * `requirement` alone too, each input made plain until it passes. Undefined when the body is no valid NewPet, passes
 * alone (the failure was the sequence's, not the body's), or no input alone explains it.
 */
export function causeOfCreate(check: Check, body: string | undefined, requirement: ValidBodyRequirement): Promise<ExperimentCause | undefined> {
  const pet = validNewPetOf(body)
  if (!pet) return Promise.resolve(undefined)
  const checkGet = !getPetRemoved(check)
  return check.once(`experiment:create:${requirement}:${body}`, async (api) => {
    const readBack: ReadBack = (id) =>
      check.eventually(
        `GET /pets/${id} of a create sent again`,
        (reader) => reader.getPet(id),
        (exchange) => exchange.response?.status === 200,
        api,
        { pets: [id] },
      )
    const evaluate = (candidate: ValidNewPet) => evaluateValid(api, candidate, checkGet ? readBack : undefined)
    const alone = await evaluate(pet)
    check.adopt(alone.exchanges)
    if (!alone.failures[requirement]) return undefined
    return validCause(check, pet, requirement, evaluate, 'the create')
  })
}

/** Send a property's cases, or, when replaying, only the one case the replay path names (other properties send nothing). */
async function run<T, K extends string>(check: Check, property: NamedProperty<T, K>): Promise<NamedProperty<T, K>> {
  const replay = replayPathFor(check, property.name)
  if (replay === undefined) await property.cases.runAll()
  else if (replay !== '') await property.cases.replay(replay)
  return property
}

/** The run's generated valid bodies, sent once and shared by the checks that judge them. */
export function validBodyProperties(check: Check): Promise<Array<NamedProperty<ValidNewPet, ValidBodyRequirement>>> {
  const checkGet = !getPetRemoved(check)
  return check.once('generated:valid-bodies', async (api) => {
    const readBack: ReadBack = (id) =>
      check.eventually(
        `GET /pets/${id} of a generated pet`,
        (reader) => reader.getPet(id),
        (exchange) => exchange.response?.status === 200,
        api,
        { pets: [id] },
      )
    const arbitrary = validNewPetArbitrary({ categoryIds: check.context.categoryIds })
    const cases = new LiveProperty<ValidNewPet, ValidBodyRequirement, CaseOutcome<ValidBodyRequirement>>({
      arbitrary: () => arbitrary,
      seed: check.context.seed,
      numRuns: check.context.numRuns,
      // Every case in flight: the HTTP client still bounds requests to --concurrency, and a case waiting
      // out a lagging replica (the consistency window) holds no request meanwhile.
      concurrency: Math.max(check.context.concurrency, check.context.numRuns),
      key: renderValidNewPet,
      evaluate: (pet) => evaluateValid(api, pet, checkGet ? readBack : undefined),
      cost: () => 1,
      shrinkBudget: { requests: SHRINK_BUDGET, candidates: SHRINK_CANDIDATES_PER_PROPERTY, stop: check.stop },
    })
    // An experiment's variation that shrinking already sent is read from its outcome, not created again.
    const evaluate = (pet: ValidNewPet) => cases.evaluateOnce(pet)
    return [await run(check, { name: 'valid', cases, experiment: (pet: ValidNewPet, requirement: ValidBodyRequirement) => validCause(check, pet, requirement, evaluate) })]
  })
}

/**
 * Cases per invalid-body rule: a third of --num-runs, at least 2. The 11 rules then send about 3.7 times
 * --num-runs cases in all (at the default of 30, 10 per rule); the fixed checks send each rule's own cases
 * besides, so a run that asks for few generated cases still tries every rule more than once.
 */
function casesPerRule(numRuns: number): number {
  return Math.max(2, Math.ceil(numRuns / 3))
}

/**
 * The run's generated invalid bodies: one property per rule, so each rule gets its cases however rare it
 * would be in a mixed draw. Each case carries a run-unique marker.
 */
export function invalidBodyProperties(check: Check): Promise<Array<NamedProperty<InvalidNewPet, InvalidBodyRequirement>>> {
  return check.once('generated:invalid-bodies', async (api) => {
    let sent = 0
    const searches = await refusedPetSearches(check)
    const markerBase = BigInt(`0x${check.context.runId}`) * 1_000_000n
    const arbitraries = invalidNewPetArbitraries({ categoryIds: check.context.categoryIds })
    const properties = NEW_PET_RULES.map((rule) => ({
      name: rule,
      cases: new LiveProperty<InvalidNewPet, InvalidBodyRequirement, CaseOutcome<InvalidBodyRequirement>>({
        arbitrary: () => arbitraries[rule],
        seed: check.context.seed,
        numRuns: casesPerRule(check.context.numRuns),
        concurrency: check.context.concurrency,
        key: (invalid) => `${invalid.rule} ${requestBodyText(invalid.body)}`,
        evaluate: (invalid) => {
          sent += 1
          return evaluateInvalid(api, searches, invalid, { name: check.petName(`generated-invalid-${sent}`), categoryId: markerBase + BigInt(sent) })
        },
        cost: () => 1,
        shrinkBudget: { requests: SHRINK_BUDGET, candidates: SHRINK_CANDIDATES_PER_PROPERTY, stop: check.stop },
      }),
    }))
    // The rules' cases go out together; the HTTP client's bound on requests in flight holds across all of them.
    return Promise.all(properties.map((property) => run(check, property)))
  })
}

function cut(text: string): string {
  return text.length > COUNTEREXAMPLE_CHARS ? `${text.slice(0, COUNTEREXAMPLE_CHARS)}… (${text.length} characters)` : text
}

/**
 * Judge one requirement over generated properties: the shrunk counterexample of the first property that
 * broke it, if any; a pass only when at least one case could decide it.
 */
export async function judgeGenerated<T, K extends GeneratedRequirement>(
  check: Check,
  properties: ReadonlyArray<NamedProperty<T, K>>,
  requirementId: K,
  describeValue: (value: T) => string,
): Promise<void> {
  for (const { cases } of properties) check.adopt(cases.exchanges)
  const replaying = check.context.replayPath !== undefined
  const broken = properties.filter(({ cases }) => cases.outcomes.some((outcome) => outcome.failures[requirementId]))
  const first = broken[0]
  let shrunk: Shrunk<T, K, CaseOutcome<K>> | undefined
  if (first && !replaying) {
    shrunk = await check.once(`generated:shrink:${requirementId}:${first.name}`, () => first.cases.shrink(requirementId))
    if (shrunk) check.adopt(shrunk.outcome.exchanges)
  }
  const unshrunk = first?.cases.outcomes.find((outcome) => outcome.failures[requirementId])
  const failure = shrunk?.failure ?? unshrunk?.failures[requirementId]
  const replayPath = shrunk ? `${first?.name}:${shrunk.path}` : replaying ? (check.context.replayPath ?? '') : ''
  const experiment = first?.experiment
  const cause = shrunk && experiment ? await check.once(`generated:experiment:${requirementId}:${first.name}`, () => experiment(shrunk.value, requirementId)) : undefined
  const sent = shrunk?.outcome.sent ?? unshrunk?.sent ?? ''
  const others =
    broken.length > 1
      ? `; also broken by generated ${broken
          .slice(1)
          .map((property) => property.name)
          .join(', ')} cases`
      : ''
  const note = shrunk
    ? ` (shrunk in ${shrunk.shrinks} steps${shrunk.budgetSpent ? `, stopped by the budget of ${SHRINK_BUDGET} new cases and ${SHRINK_CANDIDATES_PER_PROPERTY} candidates, or by the run's end` : ''}${others})`
    : replaying
      ? ' (replayed)'
      : ` (not shrunk${others})`
  check.expect.that(failure === undefined, `${failure?.message}${note}`, {
    ...(failure?.exchange ? { exchange: failure.exchange } : {}),
    ...(failure?.expected !== undefined ? { expected: failure.expected } : {}),
    ...(failure?.actual !== undefined ? { actual: failure.actual } : {}),
    ...(cause ? { cause } : {}),
    replay: {
      seed: check.context.seed,
      path: replayPath,
      counterexample: cut(shrunk ? `${describeValue(shrunk.value as T)}\nbody sent: ${sent}` : `body sent: ${sent}`),
      command: replayCommand(check, requirementId, replayPath),
    },
  })
  const outcomes = properties.flatMap(({ cases }) => cases.outcomes)
  const decided = outcomes.filter((outcome) => outcome.decided.includes(requirementId)).length
  check.require(
    decided > 0,
    replaying ? `the replay path ${check.context.replayPath} names no case of this requirement` : `none of the ${outcomes.length} generated cases could decide it`,
  )
  check.observe(`${decided} of ${outcomes.length} generated cases decided it (seed ${check.context.seed})`)
}
