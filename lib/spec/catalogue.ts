/**
 * The requirement catalogue: every statement of spec/petstore-v1.md the suite turns into a verdict,
 * and every statement it cannot test. Ids are behaviours, never section numbers, and are never reused.
 * Decisions on the spec's gaps come from CONFORMANCE-POLICY.md §2 and are quoted in `decision`.
 */

import type { Area, Level, RequirementDefinition } from './requirement-definition.js'
import { acrossOperationRequirements } from './requirements-across-operations.js'
import { createPetRequirements } from './requirements-create-pet.js'
import { getPetRequirements } from './requirements-get-pet.js'
import { listPetsRequirements } from './requirements-list-pets.js'

export type { Area, Level, RequirementDefinition } from './requirement-definition.js'

/** Every requirement, by id, in the order the reports list them (requirements-*.ts hold them by operation). */
export const catalogue = {
  ...listPetsRequirements,
  ...createPetRequirements,
  ...getPetRequirements,
  ...acrossOperationRequirements,
} satisfies Record<string, RequirementDefinition>

export type RequirementId = keyof typeof catalogue

export interface Requirement extends RequirementDefinition {
  id: RequirementId
  area: Area
}

export const requirements: readonly Requirement[] = Object.entries(catalogue).map(([id, definition]) => ({
  ...(definition as RequirementDefinition),
  id: id as RequirementId,
  area: id.split('/')[0] as Area,
}))

export function isRequirementId(value: string): value is RequirementId {
  return Object.hasOwn(catalogue, value)
}

/** Whether a requirement filter entry selects an id: `area/` selects the area, anything else an id (or the ids below it). */
export function filterEntrySelects(entry: string, id: string): boolean {
  return entry.endsWith('/') ? id.startsWith(entry) : id === entry || id.startsWith(`${entry}/`)
}

/** An empty filter selects everything. */
export function isSelected(id: string, filter: readonly string[]): boolean {
  return filter.length === 0 || filter.some((entry) => filterEntrySelects(entry, id))
}

export function requirement(id: RequirementId): Requirement {
  const found = requirements.find((candidate) => candidate.id === id)
  if (!found) throw new Error(`unknown requirement ${id}`)
  return found
}

/** Removal date of the deprecated getPet operation (spec: "to be removed on 5 December 2030"). */
export const GET_PET_REMOVAL = new Date('2030-12-05T00:00:00Z')

/** The level in force on a given day: getPet requirements drop to INFO from the removal date on. */
export function effectiveLevel(req: Requirement, now: Date): Level {
  if (req.deprecatedOperation && now.getTime() >= GET_PET_REMOVAL.getTime()) return 'INFO'
  return req.level
}
