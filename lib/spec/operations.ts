/** The interface's operations and the statuses of a pet, by name: what a request of the spec is about. */

export type Operation = 'listPets' | 'createPet' | 'getPet'

/** Each operation as method and route, as messages name it. */
export const OPERATION_ROUTES: Record<Operation, string> = { listPets: 'GET /pets', createPet: 'POST /pets', getPet: 'GET /pets/{id}' }

/** What an exchange was: one of the operations, or a probe of a path the spec does not name (judged by no rule of every answer). */
export type ExchangeKind = Operation | 'probe'

export const PET_STATUSES = ['available', 'pending', 'sold'] as const
export type PetStatus = (typeof PET_STATUSES)[number]

export function isPetStatus(value: unknown): value is PetStatus {
  return (PET_STATUSES as readonly unknown[]).includes(value)
}
