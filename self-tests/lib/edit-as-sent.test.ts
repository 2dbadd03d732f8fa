/**
 * Which edits share a kept-alive connection: those whose end HTTP reads where the plain request's is read (a GET
 * without a body, a POST whose body one Content-Length counts), written without `Connection: close`; every other
 * edit has a connection of its own, so that what it leaves on the connection is read with no other request.
 */
import { describe, expect, test } from 'vitest'
import { editAsSent, KEPT_ALIVE_BODY_OCTETS } from '../../lib/neighbourhood/edit-as-sent.js'
import { CREATE_NUMBER_MARKER } from '../../lib/neighbourhood/plain-requests.js'
import { operationRequest, type RequestContext } from '../../lib/spec/operation-requests.js'
import type { RequestModel } from '../../lib/spec/request-model.js'

const KEY = 'key-1234abcd'
const CONTEXT: RequestContext = { baseUrl: 'http://127.0.0.1:8080/v1', apiKey: KEY, fields: { 'user-agent': 'petstore-conformance/test' } }
const LIST = operationRequest(CONTEXT, { operation: 'listPets', query: { limit: 7 } })
const CREATE = operationRequest(CONTEXT, { operation: 'createPet', body: { json: { name: 'Rex', status: 'available' } } })

function sent(plain: RequestModel, model: RequestModel, bodyOctets?: string) {
  return editAsSent({ plain: { model: plain }, model, ...(bodyOctets !== undefined ? { bodyOctets } : {}) }, 1, KEY)
}

describe('an edit that ends where the plain request ends shares a kept-alive connection', () => {
  test('a read with no body, and a create whose one Content-Length counts its body, say nothing of closing', () => {
    const edits: Array<[RequestModel, RequestModel]> = [
      [LIST, { ...LIST, query: [...LIST.query, { name: 'limit', value: '8' }] }],
      [CREATE, { ...CREATE, body: { text: '{"name":"Rex","name":"Max"}' } }],
    ]
    for (const [plain, model] of edits) {
      const edit = sent(plain, model)
      expect(edit.keptAlive).toBe(true)
      expect(edit.wire.head).not.toMatch(/\r\nConnection:/i)
      expect(edit.reading.invalid).toBeUndefined()
    }
    expect(sent(CREATE, CREATE).wire.head).toContain(`\r\nContent-Length: ${sent(CREATE, CREATE).wire.body?.length}\r\n`)
  })

  test.each<[string, RequestModel, string?]>([
    ['a body framed chunked', { ...CREATE, framing: 'chunked in many chunks' }],
    ['a body after Expect: 100-continue', { ...CREATE, framing: 'Expect: 100-continue' }],
    ['HTTP/1.0', { ...CREATE, version: 'HTTP/1.0' }],
    ['a Content-Length given twice', { ...CREATE, headers: [...CREATE.headers, { name: 'Content-Length', value: '2' }] }],
    ['a Connection field of its own', { ...CREATE, headers: [...CREATE.headers, { name: 'Connection', value: 'keep-alive' }] }],
    ['an Upgrade field', { ...CREATE, headers: [...CREATE.headers, { name: 'Upgrade', value: 'h2c' }] }],
    ['another method with a body', { ...CREATE, method: 'PUT' }],
    ['a GET with a body', { ...CREATE, method: 'GET' }],
    ['a head HTTP refuses (a field name with a space)', { ...LIST, headers: [...LIST.headers, { name: 'X Bad', value: '1' }] }],
    ['a body past the bound, which a server may leave unread', CREATE, `{"name":"${'a'.repeat(KEPT_ALIVE_BODY_OCTETS)}"}`],
  ])('%s: a connection of its own, closed after the answer', (_, model, bodyOctets) => {
    const edit = sent(model.method === 'GET' && model.body === undefined ? LIST : CREATE, model, bodyOctets)
    expect(edit.keptAlive).toBe(false)
    expect(edit.wire.head).toMatch(/\r\nConnection: close\r\n/)
  })
})

describe('the plain request is read once for the edits that share it', () => {
  test("a read's edits share one reading of its plain request, as written", () => {
    const first = sent(LIST, { ...LIST, query: [...LIST.query, { name: 'limit', value: '8' }] })
    const second = sent(LIST, { ...LIST, method: 'HEAD' })
    expect(second.plainReading).toBe(first.plainReading)
    expect(first.plainReading.target).toBe('/v1/pets?limit=7')
  })

  test("a create's plain request carries each edit's number, and is read for each", () => {
    const numbered = operationRequest(CONTEXT, { operation: 'createPet', body: { json: { name: `Rex-${CREATE_NUMBER_MARKER}`, status: 'available' } } })
    const edit = (number: number) => editAsSent({ plain: { model: numbered }, model: { ...numbered, method: 'PUT' } }, number, KEY)
    expect(edit(1).plainReading.body).toContain('"Rex-0000001"')
    expect(edit(2).plainReading.body).toContain('"Rex-0000002"')
  })
})
