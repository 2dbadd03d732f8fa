import { describe, expect, test } from 'vitest'
import { type Floor, type RecordedRequestLine, replay, schemaOfAnswer } from '../../benchmarks/raw-loop.js'
import { PetStore, withPets } from '../../reference/pet-store.js'
import { startVariant } from '../../variants/variant.js'

const API_KEY = 'floor-key-3e91c0'

describe('the floors of the paired benchmark', () => {
  test.for([
    ['GET', '/v1/pets', 200, 'Pets'],
    ['GET', '/v1/pets?limit=5&status=sold', 200, 'Pets'],
    ['POST', '/v1/pets', 201, 'Pet'],
    ['GET', '/v1/pets/7', 200, 'Pet'],
    ['GET', '/v1/pets?limit=0', 400, 'Error'],
    ['GET', '/v1/pets/x', 404, 'Error'],
    ['POST', '/v1/pets', 401, 'Error'],
    ['GET', '/v1/pets', 500, undefined],
    ['DELETE', '/v1/pets/7', 200, undefined],
    ['GET', '/v1/stores', 200, undefined],
    ['GET', '/v1/stores', 404, undefined],
  ] as const)('the judging loop holds %s %s answered %i to schema %s', ([method, url, status, schema]) => {
    expect(schemaOfAnswer(method, url, status)).toBe(schema)
  })

  test.for(['raw', 'judging'] as const)(
    'the %s loop sends every recorded request, in order where one is in flight, and reads every answer',
    async (floor: Floor, { onTestFinished }) => {
      const target = await startVariant(undefined, { apiKey: API_KEY, store: withPets(new PetStore(), 3) })
      onTestFinished(() => target.close())
      const headers = { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' }
      const lines: RecordedRequestLine[] = [
        { method: 'GET', url: '/v1/pets?limit=2', headers },
        { method: 'POST', url: '/v1/pets', headers, body: '{"name":"floor","categoryId":1}' },
        { method: 'GET', url: '/v1/pets/1', headers },
        { method: 'GET', url: '/v1/pets?limit=0', headers },
        { method: 'GET', url: '/v1/pets', headers: {} },
      ]
      await replay(lines, target.baseUrl, 1, floor)
      expect(target.requests.map((request) => `${request.method} ${request.url} ${request.body ?? ''}`.trim())).toEqual(
        lines.map((line) => `${line.method} ${line.url} ${line.body ?? ''}`.trim()),
      )
    },
  )
})
