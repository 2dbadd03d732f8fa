/** Each operation sent with a chosen Authorization, for the auth checks that hold on every operation. */
import type { Check } from '../../lib/checks/check.js'
import type { Authorization } from '../../lib/spec/operation-requests.js'
import type { Operation, OperationExchange } from '../../lib/spec/petstore-api.js'
import { categoryId, knownIds, requireGetPetInService } from '../fixtures.js'

export type SendWith = (check: Check, authorization: Authorization) => Promise<OperationExchange>

export const OPERATIONS: Record<Operation, SendWith> = {
  listPets: (check, authorization) => check.api.listPets({}, authorization),
  getPet: async (check, authorization) => {
    requireGetPetInService(check)
    const [id] = knownIds(await check.survey(), 1)
    return check.api.getPet(id ?? 1n, authorization)
  },
  // A valid body: were auth skipped, the pet would be created, so it is only sent when writes are allowed.
  createPet: (check, authorization) => {
    check.requireWrites()
    return check.api.createPet({ json: { name: check.petName('auth'), categoryId: categoryId(check), status: 'sold' } }, authorization)
  },
}

export const OPERATION_NAMES = Object.keys(OPERATIONS) as Operation[]

/** A Bearer token that is not the key: the request several auth checks judge (one exchange per operation, shared). */
export const WRONG_KEY: Authorization = () => 'Bearer not-the-api-key-0123456789'

/** The operation sent with a wrong key, once per run however many checks judge it. */
export function withWrongKey(check: Check, operation: Operation): Promise<OperationExchange> {
  return check.shared(`auth:wrong:${operation}`, () => OPERATIONS[operation](check, WRONG_KEY))
}

export interface Credential {
  label: string
  authorization: Authorization
}

export function everyOperation<T extends Credential>(credentials: T[]): Array<T & { operation: Operation }> {
  return OPERATION_NAMES.flatMap((operation) => credentials.map((credential) => ({ ...credential, operation })))
}
