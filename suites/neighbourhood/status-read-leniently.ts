/**
 * An edit of the list's status value that makes it none of the enum (an escape of an escape, `pen%2564ing`; an escaped
 * NUL then text, `pending%00x`; a malformed escape), answered with the plain request's list: a layer that decodes the
 * query twice, or cuts a value at NUL, read it as the plain status. Policy §2b: an edit that makes a value invalid never
 * gets the plain request's answer (MUST; its one exception is a limit), and the invalid status row allows a 4xx or a 200
 * list, which a filter ignored gives.
 *
 * The answer is the plain request's list when it names the very pets the plain answer names, all of the plain status,
 * and the store's unfiltered list, read right after it, shows among as many first pets one of another status that the
 * survey saw of another status too. A filter ignored lists the unfiltered list's first pets: on a store whose order
 * only grows by insertion, a pet the survey saw that stands among the first pets now stood among them then, and it would
 * have been listed. A store that lists in a new order each time almost never answers the plain request's very pets to a
 * filter ignored, and a run that cannot tell (the lists moved on, no such pet) decides nothing.
 */
import type { Check } from '../../lib/checks/check.js'
import type { EditFinding } from '../../lib/checks/edited-lists.js'
import { listedPets } from '../../lib/data/store-survey.js'
import type { OperationExchange, PetStatus } from '../../lib/spec/petstore-api.js'

const REQUIREMENT = 'listPets/status-spelled-otherwise'

export async function statusReadLeniently(
  check: Check,
  edited: { exchange: OperationExchange; invalidStatus: string },
  plain: { exchange: OperationExchange | undefined; status: PetStatus },
): Promise<EditFinding | undefined> {
  const { exchange, invalidStatus } = edited
  const answer = exchange.response?.status ?? 0
  // A refusal is no list; a 429 that outlasted the retries says nothing of the value.
  if (answer >= 400 && answer < 500 && answer !== 429) return { requirementId: REQUIREMENT, ok: true }
  if (answer !== 200) return undefined
  const pets = listedPets(exchange)
  if (pets.length === 0 || pets.some((pet) => pet.status !== plain.status)) return { requirementId: REQUIREMENT, ok: true }
  const plainIds = new Set(plain.exchange ? listedPets(plain.exchange).map((pet) => pet.id) : [])
  if (plainIds.size !== pets.length || pets.some((pet) => !plainIds.has(pet.id))) return undefined
  const survey = await check.survey()
  const unfiltered = await check.api.listPets({ limit: 100 })
  const witness = listedPets(unfiltered)
    .slice(0, pets.length)
    .find((pet) => pet.status !== plain.status && survey.pets.has(pet.id) && survey.pets.get(pet.id)?.status !== plain.status)
  if (witness === undefined) return undefined
  return {
    requirementId: REQUIREMENT,
    ok: false,
    message:
      `status=${JSON.stringify(invalidStatus)} (decoded; no status of the enum) was answered with the ${pets.length} pets the plain request's status=${plain.status} lists, ` +
      `where the unfiltered list read right after (exchange ${unfiltered.id}) shows pet ${witness.id} of status ${JSON.stringify(witness.status)} among its first ${pets.length}: the filter read the value as ${plain.status}`,
  }
}
