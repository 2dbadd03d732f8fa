/** What a sequence judges and what it shows: the requirements, the list requests it draws, and its outcome. */
import type { PropertyOutcome } from '../../lib/data/live-property.js'
import type { PetStatus } from '../../lib/spec/petstore-api.js'

/** The requirements a sequence judges, each on every answer that bears on it. */
export const SEQUENCE_REQUIREMENTS = [
  'views/one-pet-reads-the-same',
  'listPets/returns-pets',
  'listPets/status-filter-matches',
  'listPets/limit-default-20',
  'listPets/limit-caps-size',
  'listPets/limit-max-100',
  'listPets/filter-and-default-limit',
  'listPets/filter-and-limit',
  'listPets/limit-out-of-range',
  'createPet/returns-201-pet',
  'createPet/echoes-fields',
  'createPet/ids-unique',
  'createPet/round-trip-get',
  'createPet/created-pet-listed',
  'getPet/returns-pet',
  'getPet/unknown-id-404',
] as const

export type SequenceRequirement = (typeof SEQUENCE_REQUIREMENTS)[number]

/** What one sequence showed: the requirements it could decide, those it broke, and what it sent, in order. */
export interface SequenceOutcome extends PropertyOutcome<SequenceRequirement> {
  decided: Set<SequenceRequirement>
  /** The commands that ran, in words, in order. */
  steps: string[]
  /** What the sequence saw that is worth a line in a requirement's report but decides nothing (a status that changed between reads). */
  notes: Array<{ requirement: SequenceRequirement; text: string }>
}

/** A list request of a sequence: the policy's combinations of status and limit, out-of-range limits included. */
export interface ListRequest {
  status?: PetStatus
  limit?: number
}

export function listWords(query: ListRequest): string {
  const parts = [query.status !== undefined ? `status=${query.status}` : '', query.limit !== undefined ? `limit=${query.limit}` : ''].filter(Boolean)
  return `GET /pets${parts.length ? `?${parts.join('&')}` : ''}`
}
