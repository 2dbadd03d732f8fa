/**
 * Every request the suite sends is a request model: the plain request of each operation comes from one vocabulary
 * (operation-requests.ts), a check's own spelling is an edit of one, and the model is written either as the HTTP
 * client writes a request or octet for octet, the two saying the same thing.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { plainRequests } from '../../lib/neighbourhood/plain-requests.js'
import { clientRequest, operationRequest, pathBelowBase, type RequestContext, withHeader, withIdSegment, withPathBelowBase, withQuery } from '../../lib/spec/operation-requests.js'
import { packageRoot } from '../../lib/spec/package-root.js'
import { wireHead } from '../../lib/spec/request-model.js'

const CONTEXT: RequestContext = { baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'key-1234abcd', fields: { 'user-agent': 'petstore-conformance/test' } }

describe('the plain request of each operation, as the client writes it', () => {
  test('a list: its limits in order, a status form-encoded, the key as Bearer, Host and the run’s fields left to the client', () => {
    const request = operationRequest(CONTEXT, { operation: 'listPets', query: { limit: [7, 500], status: 'a b&c' } })
    expect(clientRequest(request)).toEqual({
      method: 'GET',
      path: '/pets?limit=7&limit=500&status=a+b%26c',
      headers: { accept: 'application/json', authorization: 'Bearer key-1234abcd' },
    })
  })

  test('a pet by id: the id percent-encoded as a segment; without a key, no Authorization; a key of other words, as the function writes it', () => {
    expect(clientRequest(operationRequest(CONTEXT, { operation: 'getPet', id: 'a/b' }, null))).toEqual({
      method: 'GET',
      path: '/pets/a%2Fb',
      headers: { accept: 'application/json' },
    })
    expect(clientRequest(operationRequest(CONTEXT, { operation: 'getPet', id: 42n }, (key) => `bearer  ${key}`)).headers).toEqual({
      accept: 'application/json',
      authorization: 'bearer  key-1234abcd',
    })
    // A field value is octets: the key and then the single octet 0xA0, as a lenient trim would take away.
    const lookalike = operationRequest(CONTEXT, { operation: 'getPet', id: 42n }, (key) => `Bearer ${key}\xa0`)
    expect(clientRequest(lookalike).headers?.authorization).toBe('Bearer key-1234abcd\xa0')
    expect(wireHead(lookalike)).toContain('\r\nAuthorization: Bearer key-1234abcd\xa0\r\n')
  })

  test('a create: JSON written digit for digit as UTF-8 text, octets that are not UTF-8 sent as octets, and a label of its own or none', () => {
    const json = clientRequest(operationRequest(CONTEXT, { operation: 'createPet', body: { json: { name: 'Čapek', categoryId: 2n ** 63n - 1n } } }))
    expect(json).toEqual({
      method: 'POST',
      path: '/pets',
      headers: { accept: 'application/json', 'content-type': 'application/json', authorization: 'Bearer key-1234abcd' },
      body: '{"name":"Čapek","categoryId":9223372036854775807}',
    })
    const octets = clientRequest(operationRequest(CONTEXT, { operation: 'createPet', body: { octets: '{"name":"\xff"}' }, contentType: 'text/plain' }))
    expect(octets).toMatchObject({ body: '{"name":"\xff"}', bodyIsOctets: true, headers: { 'content-type': 'text/plain' } })
    expect(clientRequest(operationRequest(CONTEXT, { operation: 'createPet', body: { raw: '{' }, contentType: null })).headers).not.toHaveProperty('content-type')
  })

  test('a JSON object body is members a check can edit, and writes the same text', () => {
    const request = operationRequest(CONTEXT, { operation: 'createPet', body: { json: { name: 'a"b', categoryId: 1 } } })
    expect(request.body).toEqual({
      members: [
        { name: 'name', value: '"a\\"b"' },
        { name: 'categoryId', value: '1' },
      ],
    })
  })

  test('the neighbourhood’s plain requests are the vocabulary’s: one way to say what a request is', () => {
    const [listWithKey, listWithoutKey] = plainRequests({
      ...CONTEXT,
      list: { limit: 7, status: 'sold' },
      getId: 3n,
      create: { name: 'n', categoryId: 1n, status: 'sold' },
      operations: ['listPets'],
    })
    expect(listWithKey?.model).toEqual(operationRequest(CONTEXT, { operation: 'listPets', query: { limit: 7, status: 'sold' } }))
    expect(listWithoutKey?.model).toEqual(operationRequest(CONTEXT, { operation: 'listPets', query: { limit: 7, status: 'sold' } }, null))
  })
})

describe('a check’s own spelling is an edit of the plain request', () => {
  const list = operationRequest(CONTEXT, { operation: 'listPets' })

  test('a path spelled below the base is sent as written: the client is told not to resolve one it would resolve to another', () => {
    expect(clientRequest(withPathBelowBase(list, ['pets', '..', 'pets']))).toMatchObject({ path: '/pets/../pets', pathAsIs: true })
    expect(clientRequest(withPathBelowBase(list, ['pets', '']))).toEqual({ method: 'GET', path: '/pets/', headers: expect.any(Object) })
    expect(clientRequest(withPathBelowBase(list, ['', 'pets']))).toMatchObject({ path: '//pets', pathAsIs: true })
    expect(clientRequest(withPathBelowBase(list, ['%70ets']))).toEqual({ method: 'GET', path: '/%70ets', headers: expect.any(Object) })
    expect(clientRequest(list)).not.toHaveProperty('pathAsIs')
  })

  test('query parameters, a header and the id are written as given, and the octet-for-octet head says the same', () => {
    const spelled = withHeader(withQuery(list, [{ name: 'status', value: '%73old' }]), 'Accept', '*/*')
    expect(pathBelowBase(spelled)).toBe('/pets?status=%73old')
    expect(clientRequest(spelled).headers).toEqual({ accept: '*/*', authorization: 'Bearer key-1234abcd' })
    expect(wireHead(spelled)).toBe(
      'GET /v1/pets?status=%73old HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nAccept: */*\r\nUser-Agent: petstore-conformance/test\r\nAuthorization: Bearer key-1234abcd\r\nConnection: close\r\n\r\n',
    )
    expect(clientRequest(withHeader(list, 'accept', null)).headers).toEqual({ authorization: 'Bearer key-1234abcd' })
    expect(clientRequest(withHeader(list, 'Authorization', null)).headers).toEqual({ accept: 'application/json' })
    expect(clientRequest(withIdSegment(operationRequest(CONTEXT, { operation: 'getPet', id: 5n }), '0x5')).path).toBe('/pets/0x5')
  })
})

describe('no request written outside the model', () => {
  /** Every source module of suites/ and lib/. */
  const modules = (dir: string): string[] =>
    readdirSync(join(packageRoot, dir), { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? modules(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
    )

  test('only the API hands the HTTP client a request, and nothing builds a request-target of its own', () => {
    const writers = [...modules('lib'), ...modules('suites')].filter((file) => {
      const text = readFileSync(join(packageRoot, file), 'utf8')
      return /\bclient\.send\(|\bpathAsIs:|\bpath: `\/pets|\bpath: '\/pets/.test(text)
    })
    expect(writers.sort()).toEqual(['lib/http/client.ts', 'lib/spec/petstore-api.ts'])
  })
})
