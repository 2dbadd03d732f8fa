/** Values the suites share: category ids to create with, names, ids that cannot exist, date rules. */

import type { Check } from '../lib/checks/check.js'
import type { StoreSurvey } from '../lib/data/store-survey.js'
import { GET_PET_REMOVAL } from '../lib/spec/catalogue.js'
import { commandPrefix } from '../lib/spec/package-root.js'

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
export function replayCommand(check: Check, requirementId: string, replayPath?: string, settings = ''): string {
  const { context } = check
  if (!replayPath) return `${commandPrefix} --seed ${context.seed} --requirements ${requirementId}`
  const target = context.embeddedReference ? '' : ` --base-url ${context.baseUrl} --profile ${context.profile}`
  const categories = context.categoryIds.length > 0 ? ` --category-ids ${context.categoryIds.join(',')}` : ''
  return `${commandPrefix}${target} --seed ${context.seed}${settings} --requirements ${requirementId} --replay-path ${replayPath}${categories}`
}
