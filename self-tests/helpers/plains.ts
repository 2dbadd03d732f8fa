/** The plain requests of a run at 127.0.0.1:8080/v1, for the self-tests of the neighbourhood's plan and oracle. */
import { plainRequests } from '../../lib/neighbourhood/plain-requests.js'

export const PLAIN_KEY = 'a-key-of-twenty-four-chr'

export function testPlains(operations: Array<'listPets' | 'getPet' | 'createPet'> = ['listPets', 'getPet', 'createPet']) {
  return plainRequests({
    baseUrl: 'http://127.0.0.1:8080/v1',
    apiKey: PLAIN_KEY,
    fields: { 'user-agent': 'petstore-conformance/0.0.0' },
    list: { limit: 7, status: 'available' },
    getId: 30n,
    create: { name: 'run-n7777777', categoryId: 1n, status: 'sold' },
    operations,
  })
}
