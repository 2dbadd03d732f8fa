/** Values the suites share: category ids to create with, names, ids that cannot exist, date rules. */

import type { Check } from '../lib/checks/check.js'
import type { StoreSurvey } from '../lib/data/store-survey.js'
import { type ReplaySettings, replayIn } from '../lib/settings/invocation.js'
import { GET_PET_REMOVAL } from '../lib/spec/catalogue.js'
import type { OperationExchange } from '../lib/spec/petstore-api.js'

/** A category id to create pets with: the first configured one, or 1. */
export function categoryId(check: Check): bigint {
  return BigInt(check.context.categoryIds[0] ?? '1')
}

/**
 * Candidate ids for "does not exist", unless the store is known to hold them: ordinary ids, far from every edge
 * of int64 and of the narrower types, so that the only right answer is the spec's 404. An id at an edge may also
 * be refused with 400 (policy §2), and is judged by getPet/int64-edge-ids alone: one exchange, one reading.
 */
export function unknownIdCandidates(survey: StoreSurvey): bigint[] {
  return [1_999_999_973n, 1_999_999_943n, 1_999_999_911n].filter((id) => !survey.pets.has(id))
}

/** A pet the lists show (the run's own store survey), or the check is inconclusive: a request served for it would hand out real data. */
export async function knownPetId(check: Check, why: string): Promise<bigint> {
  const [id] = knownIds(await check.survey(), 1)
  check.require(id !== undefined, `no pet is known in the store, so ${why}`)
  return id as bigint
}

/** Up to `count` ids of pets the store is known to hold, spread over what the survey saw. */
export function knownIds(survey: StoreSurvey, count: number): bigint[] {
  const ids = [...survey.pets.keys()]
  if (ids.length <= count) return ids
  const step = ids.length / count
  return Array.from({ length: count }, (_, index) => ids[Math.floor(index * step)] as bigint)
}

export function getPetRemoved(check: Check): boolean {
  return check.now.getTime() >= GET_PET_REMOVAL.getTime()
}

/** getPet checks inside other areas stop being decisive once the operation may be gone. */
export function requireGetPetInService(check: Check): void {
  check.require(!getPetRemoved(check), 'GET /pets/{petId} is past its removal date (2030-12-05) and may be gone')
}

/** The policy allows any 4xx with an Error body, or 200 with a Pets body, for an invalid list parameter. */
export const CLIENT_ERROR_OR_OK = [200, ...Array.from({ length: 100 }, (_, index) => 400 + index)]

/**
 * What this run replays of a generated property (`valid`, `sequences`, …): the path after the property's
 * name (`valid:3:0:1` → `3:0:1`); '' when it replays another property (this one then sends nothing);
 * undefined when it replays nothing.
 */
export function replayPathFor(check: Check, property: string): string | undefined {
  const text = check.context.replayPath
  if (text === undefined) return undefined
  return text.startsWith(`${property}:`) ? text.slice(property.length + 1) : ''
}

/**
 * The command that re-runs one requirement with this run's seed, against this target (or, changing
 * --base-url, another); with a replay path, only the generated case or sequence it names, with `settings`
 * (flags the path depends on) before it.
 */
export function replayCommand(check: Check, requirementId: string, replayPath?: string, settings: ReplaySettings = []): string {
  const { context } = check
  if (!replayPath)
    return replayIn(context.invocation, [
      ['seed', context.seed],
      ['requirements', [requirementId]],
    ])
  const target: ReplaySettings = context.embeddedReference
    ? []
    : [
        ['baseUrl', context.baseUrl],
        ['profile', context.profile],
      ]
  const categories: ReplaySettings = context.categoryIds.length > 0 ? [['categoryIds', context.categoryIds]] : []
  return replayIn(context.invocation, [...target, ['seed', context.seed], ...settings, ['requirements', [requirementId]], ['replayPath', replayPath], ...categories])
}

/** A refusal: a 4xx other than 429, which only asks to wait. */
export function isRefusal(exchange: OperationExchange): boolean {
  const status = exchange.response?.status ?? 0
  return status >= 400 && status < 500 && status !== 429
}

/** A valid request of an operation, and the refusal that is its due answer (404 for an id no pet holds), if any. */
interface ValidRequest {
  words: string
  exchange: OperationExchange
  due?: number
}

/** A valid request of each operation, sent once per run however many checks ask: the run's own reads where it has them. */
const VALID_REQUESTS: Record<'listPets' | 'createPet' | 'getPet', (check: Check) => Promise<ValidRequest | undefined>> = {
  listPets: async (check) => ({ words: 'GET /pets?limit=100, a valid list,', exchange: (await check.survey()).limit100 }),
  createPet: async (check) => {
    if (check.isReadOnly) return undefined
    const exchange = await check.shared('valid-create', (api) =>
      api.createPet({ json: { name: check.petName('valid-create'), categoryId: categoryId(check), status: 'available' } }),
    )
    return { words: 'POST /pets with a valid NewPet', exchange }
  },
  getPet: async (check) => {
    const survey = await check.survey()
    const [listed] = knownIds(survey, 1)
    if (listed !== undefined) return { words: `GET /pets/${listed}, a pet the lists show,`, exchange: await check.shared(`get:${listed}`, (api) => api.getPet(listed)) }
    const [unknown] = unknownIdCandidates(survey)
    if (unknown === undefined) return undefined
    // A well-formed id no pet holds: 404 is its due answer; any other 4xx refuses a valid request.
    return { words: `GET /pets/${unknown}, a well-formed id,`, exchange: await check.shared(`get:${unknown}`, (api) => api.getPet(unknown)), due: 404 }
  },
}

/**
 * A rule passed by refusing a request (an invalid limit, body or id; the key anywhere but the Bearer header) is
 * shown only by a target that serves the operation's valid requests: one that refuses those too refuses the
 * invalid one whatever it makes of it. Called once the refusal held: inconclusive where the operation's valid
 * request was refused too. The same exchange serves every check that asks, so a run sends at most one more
 * request per operation, and none where the run already read it (the survey's list, a read of a listed pet).
 */
export async function requireServesValid(check: Check, operation: 'listPets' | 'createPet' | 'getPet'): Promise<void> {
  const valid = await VALID_REQUESTS[operation](check)
  if (!valid) return
  const status = valid.exchange.response?.status
  check.require(!isRefusal(valid.exchange) || status === valid.due, `${valid.words} was answered ${status} too, so a refusal shows nothing of this rule`)
}
