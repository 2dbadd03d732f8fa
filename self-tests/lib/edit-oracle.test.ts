/**
 * What the policy requires of an edited request's answer, worked out from the request as written (policy §2b):
 * a spelling with the same meaning gets the plain answer (MUST, or SHOULD where the policy says so), a value made
 * invalid gets the rows' refusal, a request without the key gets no access, and a message HTTP refuses is judged
 * by the invariants alone.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { EDIT_FINDING_REQUIREMENTS, judgeEditedAnswer } from '../../lib/checks/edited-answers.js'
import { lenientLengths } from '../../lib/checks/edited-lists.js'
import { incidentalResults } from '../../lib/checks/incidental-checks.js'
import { type KeyedReading, keyInValue, keyOfWire, readWire } from '../../lib/http/wire-reading.js'
import type { Edit } from '../../lib/neighbourhood/edit-operators.js'
import { expectationOf } from '../../lib/neighbourhood/edit-oracle.js'
import { isMalformedJson, jsonCorpus, loadJsonCorpus } from '../../lib/neighbourhood/json-corpus.js'
import { integerReading, listJudgement } from '../../lib/neighbourhood/operation-judgements.js'
import { acceptAdmitsJson, mediaTypeOf } from '../../lib/neighbourhood/request-meaning.js'
import { readEdited, readRequest } from '../../lib/neighbourhood/request-reading.js'
import { packageRoot } from '../../lib/spec/package-root.js'
import type { OperationExchange } from '../../lib/spec/petstore-api.js'
import { RULE_SOURCES, type RuleSourceId } from '../../lib/spec/rule-sources.js'

const KEY = 'a-key-of-twenty-four-chr'
const context = { apiKey: KEY, baseSegments: ['v1'] }
const HOST = 'Host: 127.0.0.1:8080'

/** A head with these lines after the request line (Host first unless a line gives one). */
function head(requestLine: string, ...fields: string[]): string {
  return `${requestLine}\r\n${[...(fields.some((field) => /^host:/i.test(field)) ? [] : [HOST]), ...fields].join('\r\n')}\r\nConnection: close\r\n\r\n`
}

const AUTH = `Authorization: Bearer ${KEY}`
const levelOf = (judgement: { source: RuleSourceId }) => RULE_SOURCES[judgement.source].level
const edit = { operator: 'case', valueClass: 'x', label: 'an edit' } as unknown as Edit
/** The expectation of an edit as a run works it out: the plain request and the edit each read once, then judged. */
const judgeIn = (oracle: typeof context & { answersInHttp10?: boolean }, plain: string, edited: string, body?: { plain?: string; edited?: string }) => {
  const read = readEdited({ head: plain, ...(body?.plain ? { body: body.plain } : {}) }, { head: edited, ...(body?.edited ? { body: body.edited } : {}) }, KEY)
  return expectationOf(read.plain, read.edited, edit, oracle)
}
const judge = (plain: string, edited: string, body?: { plain?: string; edited?: string }) => judgeIn(context, plain, edited, body)

const LIST = head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json', AUTH)
const GET = head('GET /v1/pets/30 HTTP/1.1', 'Accept: application/json', AUTH)

describe('the same request in other words gets the plain answer', () => {
  test.for([
    ['the id percent-encoded', 'GET /v1/pets/%33%30 HTTP/1.1', 'getPet/equivalent-spellings', 'MUST'],
    ['a query value percent-encoded', 'GET /v1/pets?limit=%37&status=available HTTP/1.1', 'listPets/equivalent-spellings', 'MUST'],
    ['an escape in lower-case hex, of an unreserved octet', 'GET /v1/pets?limit=7&status=%61vailable HTTP/1.1', 'listPets/equivalent-spellings', 'MUST'],
    ['a fixed segment percent-encoded', 'GET /v1/%70ets?limit=7&status=available HTTP/1.1', 'listPets/path-spelling-equivalent', 'SHOULD'],
    ['the base segment percent-encoded', 'GET /%76%31/pets?limit=7&status=available HTTP/1.1', 'listPets/path-spelling-equivalent', 'SHOULD'],
  ] as const)('%s: %s', ([, line, requirementId, level]) => {
    const plain = line.includes('/pets/') ? GET : LIST
    const { judgement } = judge(plain, head(line, 'Accept: application/json', AUTH))
    expect(judgement).toMatchObject({ kind: 'plain answer', requirementId })
    expect(levelOf(judgement)).toBe(level)
  })

  test('field names in any case, whitespace around a value: MUST', () => {
    for (const fields of [
      ['ACCEPT: application/json', AUTH],
      ['Accept:   application/json  ', AUTH],
      ['Accept: application/json', `authorization: ${AUTH.slice('Authorization: '.length)}`],
    ]) {
      const { judgement } = judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', ...fields))
      expect(judgement).toMatchObject({ kind: 'plain answer', source: 'same meaning' })
      expect(levelOf(judgement)).toBe('MUST')
    }
  })

  test('the scheme in another case, more than one space after it, a field that carries no meaning: the policy’s SHOULD rows', () => {
    for (const [fields, requirementId] of [
      [['Accept: application/json', `Authorization: BEARER ${KEY}`], 'auth/scheme-case-insensitive'],
      [['Accept: application/json', `Authorization: Bearer  ${KEY}`], 'auth/bearer-spacing'],
      [['Accept: application/json', AUTH, 'Referer: https://example.com/'], 'responses/meaningless-fields-ignored'],
    ] as const) {
      const { judgement, allowed } = judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', ...fields))
      expect(judgement).toMatchObject({ requirementId })
      expect(levelOf(judgement)).toBe('SHOULD')
      // A 401 to the key spelled so is a warning on that row, never a failure.
      if (requirementId !== 'responses/meaningless-fields-ignored') expect(allowed).toContainEqual(expect.objectContaining({ status: 401, warns: requirementId }))
    }
  })

  test('an Accept that admits JSON in other words is the plain request', () => {
    for (const accept of ['*/*', 'application/*', 'text/html;q=0.9, application/json;q=0.8', 'APPLICATION/JSON']) {
      expect(acceptAdmitsJson(accept), accept).toBe(true)
      expect(judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', `Accept: ${accept}`, AUTH)).judgement.kind, accept).toBe('plain answer')
    }
    expect(acceptAdmitsJson('text/html')).toBe(false)
    expect(acceptAdmitsJson('application/json;q=0')).toBe(false)
  })

  test('an Accept that admits no JSON (empty, refused by q, an escape that means nothing in a field) may get 406, beside the answer in JSON', () => {
    // U+00A0 (one octet, 0xA0, as a field value holds it) is no whitespace HTTP strips (RFC 9110 §5.6.3).
    for (const accept of ['', 'text/html', '*/*, application/json;q=0', 'applicat%69on/json', 'application/jso', 'application/json\u00a0']) {
      expect(acceptAdmitsJson(accept), accept).toBe(false)
      const expectation = judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', `Accept: ${accept}`, AUTH))
      expect(expectation.judgement.kind, accept).not.toBe('plain answer')
      expect(expectation.allowed, accept).toContainEqual(expect.objectContaining({ status: 406, source: 'an Accept without JSON' }))
    }
  })
})

test('a Content-Type with an octet HTTP does not strip after it is another media type, not application/json in other words', () => {
  expect(mediaTypeOf('application/json\u00a0')).toBe(undefined)
  expect(mediaTypeOf('\u00a0application/json')).toBe(undefined)
  expect(mediaTypeOf(' application/json\t; charset=UTF-8 ')).toBe('application/json;charset=utf-8')
})

describe('the parts HTTP has beside the plain request’s: methods, the version, the target’s form, the framing', () => {
  const CREATE = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Content-Length: 43')
  const PET = '{"name":"n","categoryId":1,"status":"sold"}'

  test('HEAD in place of a read’s GET gets GET’s status (SHOULD, RFC 9110 §9.3.2); without the key, no access like any request (MUST)', () => {
    const withKey = judge(LIST, head('HEAD /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json', AUTH))
    expect(withKey.judgement).toMatchObject({ kind: 'head', requirementId: 'responses/head-as-get' })
    expect(levelOf(withKey.judgement)).toBe('SHOULD')
    expect(withKey.otherMethod).toBe(false)
    const without = judge(LIST, head('HEAD /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json'))
    expect(without.judgement).toMatchObject({ kind: 'no access', requirementId: 'auth/no-access-without-key' })
    expect(levelOf(without.judgement)).toBe('MUST')
  })

  test('OPTIONS without the key: no access at MUST (the policy holds every request to it, a CORS preflight included); another method: the invariants', () => {
    const options = judge(LIST, head('OPTIONS /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json'))
    expect(options.judgement).toMatchObject({ kind: 'no access', requirementId: 'auth/options-without-key' })
    expect(levelOf(options.judgement)).toBe('MUST')
    const propfind = judge(GET, head('PROPFIND /v1/pets/30 HTTP/1.1', 'Accept: application/json', AUTH))
    expect(propfind).toMatchObject({ otherMethod: true, judgement: { kind: 'invariants' } })
  })

  test('CONNECT with an origin-form target is a message HTTP refuses (RFC 9112 §3.2.3)', () => {
    expect(judge(GET, head('CONNECT /v1/pets/30 HTTP/1.1', 'Accept: application/json', AUTH)).invalidMessage).toMatch(/CONNECT/)
  })

  test('HTTP/1.0 and an absolute-form target mean the plain request, at SHOULD (no policy row; RFC 9112 §2.3, §3.2.2)', () => {
    for (const line of ['GET /v1/pets?limit=7&status=available HTTP/1.0', 'GET http://127.0.0.1:8080/v1/pets?limit=7&status=available HTTP/1.1']) {
      const expectation = judge(LIST, head(line, 'Accept: application/json', AUTH))
      expect(expectation.invalidMessage, line).toBeUndefined()
      expect(expectation.otherForms.length, line).toBe(1)
      expect(expectation.judgement, line).toMatchObject({ kind: 'plain answer', requirementId: 'responses/message-forms' })
      expect(levelOf(expectation.judgement), line).toBe('SHOULD')
    }
    // HTTP/1.0 has no Host field of its own; HTTP/1.1 without one is a message HTTP refuses.
    expect(readWire('GET /v1/pets HTTP/1.0\r\nAccept: application/json\r\n\r\n').invalid).toBeUndefined()
    expect(readWire('GET /v1/pets HTTP/1.1\r\nAccept: application/json\r\n\r\n').invalid).toMatch(/no Host/)
  })

  test('a chunked body, or Expect: 100-continue, creates the pet as sent, at SHOULD; chunked beside a Content-Length is a message HTTP refuses', () => {
    for (const framing of ['Transfer-Encoding: chunked', 'Expect: 100-continue']) {
      const edited = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, framing)
      const expectation = judge(CREATE, edited, { plain: PET, edited: PET })
      expect(expectation.judgement, framing).toMatchObject({ kind: 'created', requirementId: 'responses/message-forms' })
    }
    const both = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Transfer-Encoding: chunked', 'Content-Length: 43')
    expect(judge(CREATE, both, { plain: PET, edited: PET }).invalidMessage).toMatch(/both Transfer-Encoding and Content-Length/)
  })

  test('a body refused with 413 before the key is read: any size without a valid key (auth precedence), only past 64 KiB with the key (name lengths)', () => {
    const member = (bytes: number) => `{"name":"Rex","x":"${'n'.repeat(bytes)}"}`
    const keyless = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json')
    const keyed = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH)
    const refusals = (edited: string, bytes: number) => judge(CREATE, edited, { plain: PET, edited: member(bytes) }).allowed.filter((answer) => answer.status === 413)
    expect(refusals(keyless, 20_000)).toEqual([expect.objectContaining({ source: 'a body refused before the key' })])
    expect(refusals(keyed, 20_000)).toEqual([])
    expect(refusals(keyed, 70_000)).toEqual([expect.objectContaining({ source: 'a body over 64 KiB' })])
  })

  test('to a target that answers in HTTP/1.0, a chunked body is one a client must not send (RFC 9112 §6.1): only the invariants judge its answer', () => {
    const chunked = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Transfer-Encoding: chunked')
    const toHttp10 = judgeIn({ ...context, answersInHttp10: true }, CREATE, chunked, { plain: PET, edited: PET })
    expect(toHttp10.judgement).toMatchObject({ kind: 'invariants' })
    expect(toHttp10.otherForms).toEqual([])
    const continues = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Expect: 100-continue')
    expect(judgeIn({ ...context, answersInHttp10: true }, CREATE, continues, { plain: PET, edited: PET }).judgement).toMatchObject({
      kind: 'created',
      requirementId: 'responses/message-forms',
    })
  })

  test('content on a read means nothing (RFC 9110 §9.3.1): the answer the query or path gets, or a refusal in the HTTP layer’s own words', () => {
    const formed = head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json', AUTH, 'Content-Type: application/x-www-form-urlencoded', 'Content-Length: 21')
    const expectation = judge(LIST, formed, { edited: 'limit=100&status=sold' })
    expect(expectation.ownWords).toMatch(/content on a GET/)
    // Held to the list its query asks for: 7 pets at most, every one available.
    expect(expectation.judgement).toMatchObject({ kind: 'list', limits: [7n], status: 'available' })
    const pet = judge(GET, head('GET /v1/pets/30 HTTP/1.1', 'Accept: application/json', AUTH, 'Content-Type: application/json', 'Content-Length: 9'), { edited: '{"id":29}' })
    expect(pet.judgement).toMatchObject({ kind: 'pet', id: 30n })
    // Without the key, no access: an HTTP layer that refuses content on a GET does so before any key is read.
    expect(judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Content-Type: application/json', 'Content-Length: 2'), { edited: '{}' }).judgement).toMatchObject({
      kind: 'no access',
    })
    // Content-Length: 0 is no content.
    expect(judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json', AUTH, 'Content-Length: 0')).ownWords).toBeUndefined()
  })

  test('brackets in a name, encoded as a form writes them, are a valid target: beside the plain name, the parameter given twice; raw brackets are a target HTTP refuses', () => {
    // Rack, PHP and qs read `status%5B%5D` as an array, with `status` its other value: the message is valid (RFC 3986
    // §3.4), and the status is no one value the spec defines, as when it is given twice.
    const both = judge(LIST, head('GET /v1/pets?limit=7&status=available&status%5B%5D=available HTTP/1.1', 'Accept: application/json', AUTH))
    expect(both.invalidMessage).toBeUndefined()
    expect(both.judgement).toMatchObject({ kind: 'list', limits: [7n] })
    expect(both.judgement).not.toHaveProperty('status')
    expect(judge(LIST, head('GET /v1/pets?limit=7&status[]=available HTTP/1.1', 'Accept: application/json', AUTH)).invalidMessage).toMatch(/octet a URI may not/)
  })

  test('a `%` that starts no escape is a target HTTP refuses (RFC 3986 §2.1): a layer may refuse it in its own words', () => {
    for (const target of ['/v1/pets?limit=7%zz&status=available', '/v1/pets?limit=7&status=available%', '/v1/pets/30%4'])
      expect(judge(target.includes('?') ? LIST : GET, head(`GET ${target} HTTP/1.1`, 'Accept: application/json', AUTH)).invalidMessage, target).toMatch(/broken escape/)
  })

  test('a parameter given twice with another value: the list is held to 100 alone, whatever the values (several limits are no value the spec defines)', () => {
    expect(judge(LIST, head('GET /v1/pets?limit=7&status=available&limit=100 HTTP/1.1', 'Accept: application/json', AUTH)).judgement).toMatchObject({
      kind: 'list',
      limits: [],
    })
    expect(judge(LIST, head('GET /v1/pets?limit=500&limit=7&status=available HTTP/1.1', 'Accept: application/json', AUTH)).judgement).toMatchObject({ kind: 'list', limits: [] })
  })
})

describe('a value made invalid gets the rows’ refusal, and never another pet', () => {
  test('a `;` as written starts the segment’s parameters (RFC 3986 §3.3): the id before it is a reading (INFO), never another pet; parameters alone name no pet; an escaped one is data', () => {
    const judged = (id: string) => judge(GET, head(`GET /v1/pets/${id} HTTP/1.1`, 'Accept: application/json', AUTH)).judgement
    expect(judged('30;')).toMatchObject({ kind: 'lenient pet', value: 30n })
    expect(judged('30;jsessionid=1')).toMatchObject({ kind: 'lenient pet', value: 30n })
    // Tomcat reads 3;0 as pet 3: that pet, or none, never pet 30 nor another.
    expect(judged('3;0')).toMatchObject({ kind: 'lenient pet', value: 3n })
    expect(judged(';30')).toMatchObject({ kind: 'invariants' })
    expect(judged('0x1E;')).toMatchObject({ kind: 'refused' })
    expect(judged('30%3B')).toMatchObject({ kind: 'refused' })
  })

  test.for(['0x1E', '3_0', '30.', '.30e2', '%EF%BC%93%EF%BC%90', '30%3B', '3a0'])('the id %s: 400 or 404 with an Error body', (id) => {
    expect(judge(GET, head(`GET /v1/pets/${id} HTTP/1.1`, 'Accept: application/json', AUTH)).judgement).toMatchObject({
      kind: 'refused',
      statuses: [400, 404],
      requirementId: 'getPet/other-notations',
    })
  })

  test('another decimal id: that pet or 404; a reading some parsers take: recorded', () => {
    expect(judge(GET, head('GET /v1/pets/3 HTTP/1.1', 'Accept: application/json', AUTH)).judgement).toMatchObject({ kind: 'pet', id: 3n })
    for (const id of ['+30', '030', '30.0', '3e1'])
      expect(judge(GET, head(`GET /v1/pets/${id} HTTP/1.1`, 'Accept: application/json', AUTH)).judgement, id).toMatchObject({ kind: 'lenient pet', value: 30n })
  })

  test('a limit in another notation is the out-of-range row, and the lengths lenient parsers would read are worked out', () => {
    const judgement = judge(LIST, head('GET /v1/pets?limit=0x7&status=available HTTP/1.1', 'Accept: application/json', AUTH)).judgement
    expect(judgement).toMatchObject({ kind: 'list', invalidLimit: '0x7', limits: [] })
    expect([...lenientLengths('0x7')]).toContain(7)
    expect([...lenientLengths(' 7')]).toContain(7)
    expect([...lenientLengths('7_0')]).toContain(70)
    expect([...lenientLengths('\u0667')]).toContain(7)
  })

  test('a limit escaped twice is a value of no notation once decoded, and 7 to a layer that decodes it again', () => {
    const judgement = judge(LIST, head('GET /v1/pets?limit=%2537&status=available HTTP/1.1', 'Accept: application/json', AUTH)).judgement
    expect(judgement).toMatchObject({ kind: 'list', invalidLimit: '%37', limits: [] })
    expect([...lenientLengths('%37')]).toContain(7)
    expect([...lenientLengths('%FF')]).toEqual([])
  })

  test('a status that is none of the enum once decoded is named by the judgement, for the read that tells it from the plain list', () => {
    for (const [written, decoded] of [
      ['pen%2564ing', 'pen%64ing'],
      ['sold%00x', 'sold\0x'],
      ['SOLD', 'SOLD'],
    ])
      expect(judge(LIST, head(`GET /v1/pets?limit=7&status=${written} HTTP/1.1`, 'Accept: application/json', AUTH)).judgement, written).toMatchObject({
        kind: 'list',
        invalidStatus: decoded,
      })
    const plain = judge(LIST, head('GET /v1/pets?limit=7&status=sold HTTP/1.1', 'Accept: application/json', AUTH)).judgement
    expect(plain).toMatchObject({ kind: 'list', status: 'sold' })
    expect(plain).not.toHaveProperty('invalidStatus')
  })

  test('a limit given twice, even with the same value, may be read as one invalid value: the list is held to 100 alone', () => {
    expect(judge(LIST, head('GET /v1/pets?limit=7&limit=9&status=available HTTP/1.1', 'Accept: application/json', AUTH)).judgement).toMatchObject({ kind: 'list', limits: [] })
    expect(judge(LIST, head('GET /v1/pets?limit=7&limit=7&status=available HTTP/1.1', 'Accept: application/json', AUTH)).judgement).toMatchObject({ kind: 'list', limits: [] })
    expect(judge(LIST, head('GET /v1/pets?limit=9&status=available HTTP/1.1', 'Accept: application/json', AUTH)).judgement).toMatchObject({ kind: 'list', limits: [9n] })
  })

  test('a body RFC 8259 refuses, or a NewPet made invalid: exactly 400; a valid NewPet of other members: 201 as sent', () => {
    const create = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Content-Length: 40')
    const plain = '{"name":"n","categoryId":1,"status":"sold"}'
    expect(judge(create, create, { plain, edited: '{"name":"n","categoryId":1,}' }).judgement).toMatchObject({
      kind: 'refused',
      statuses: [400],
      requirementId: 'createPet/invalid-body-400',
    })
    expect(judge(create, create, { plain, edited: '{"name":"n","categoryId":"1"}' }).judgement).toMatchObject({ kind: 'refused', requirementId: 'createPet/invalid-body-400' })
    expect(judge(create, create, { plain, edited: '{"name":"n","categoryId":1,"STATUS":"pending"}' }).judgement).toMatchObject({
      kind: 'created',
      pet: { name: 'n', categoryId: 1n },
      requirementId: 'createPet/echoes-fields',
    })
    expect(judge(create, create, { plain, edited: '{ "status":"sold" ,"categoryId":1.0,"name":"\\u006e"}' }).judgement).toMatchObject({
      kind: 'created',
      requirementId: 'createPet/equivalent-spellings',
    })
  })
})

describe('without the key, no access; a message HTTP refuses, the invariants alone', () => {
  test('the key dropped, or made another token, on an operation: 401; on a path the spec does not name: no access', () => {
    expect(judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json')).judgement).toMatchObject({
      statuses: [401],
      requirementId: 'auth/missing-key-401',
    })
    expect(judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json', `Authorization: Bearer ${KEY}%00`)).judgement).toMatchObject({
      requirementId: 'auth/key-lookalike-401',
    })
    expect(judge(LIST, head('GET /V1/pets HTTP/1.1', 'Accept: application/json')).judgement).toMatchObject({ kind: 'no access', requirementId: 'auth/no-access-without-key' })
  })

  test('a control octet in a field, a space in the target, no Host or two: HTTP refuses the message', () => {
    for (const wire of [
      head('GET /v1/pets HTTP/1.1', `Authorization: Bearer ${KEY}\x01`),
      head('GET /v1/pets /x HTTP/1.1', AUTH),
      `GET /v1/pets HTTP/1.1\r\n${AUTH}\r\n\r\n`,
      head('GET /v1/pets HTTP/1.1', HOST, HOST, AUTH),
    ]) {
      const expectation = judge(LIST, wire)
      expect(expectation.invalidMessage, JSON.stringify(wire)).toBeDefined()
    }
    expect(readWire(LIST).invalid).toBeUndefined()
  })

  test('a request line a lenient reader ends at a bare LF, left with no HTTP/1.x, may be refused with 505 for the version read; any other 5xx, and 505 to a valid message, fail', () => {
    // Jetty ends the line at the LF an octet edit put in the target: `GET /v1/pets/1` alone is the HTTP/0.9 form, which it answers 505.
    const zeroNine = readRequest({ head: head('GET /v1/pets/1\n HTTP/1.1', AUTH) }, KEY)
    expect(zeroNine.invalid).toBeDefined()
    expect(zeroNine.unsupportedVersion).toBe('none (the HTTP/0.9 form)')
    expect(readRequest({ head: head('GET /v1/pets/1 HTTP/1.1\x01', AUTH) }, KEY).unsupportedVersion).toBe('HTTP/1.1\x01')
    // A message HTTP refuses whose version is HTTP/1.1 as any reader reads it, and a valid message: no version to refuse.
    expect(readRequest({ head: head('GET /v1/pets HTTP/1.1', `Authorization: Bearer ${KEY}\x01`) }, KEY).unsupportedVersion).toBeUndefined()
    expect(readRequest({ head: GET }, KEY).unsupportedVersion).toBeUndefined()
    const answered = (reading: ReturnType<typeof readRequest>, status: number): OperationExchange => ({
      id: 1,
      operation: 'getPet',
      request: { method: 'GET', url: 'http://127.0.0.1:8080/v1/pets/1', headers: {}, wire: reading.head, timeoutMs: 1000 },
      response: { status, headers: { 'content-type': 'text/html' }, body: '<h1>Bad Message 505</h1>', bodyBytes: 24 },
      retries: [],
      durationMs: 1,
      reading,
    })
    const serverError = (reading: ReturnType<typeof readRequest>, status: number) => {
      const expectation = expectationOf(readRequest({ head: GET }, KEY), readRequest({ head: reading.head }, KEY), edit, context)
      return [...incidentalResults(answered(reading, status), new Date('2026-01-01'), KEY), ...judgeEditedAnswer(answered(reading, status), expectation, undefined, {})].filter(
        (result) => result.requirementId === 'responses/no-server-error' && !result.ok,
      )
    }
    expect(serverError(zeroNine, 505)).toEqual([])
    expect(serverError(zeroNine, 500).length).toBeGreaterThan(0)
    expect(serverError(readRequest({ head: GET }, KEY), 505).length).toBeGreaterThan(0)
    // HTTP/1.2 is HTTP/1, which a server SHOULD read as the highest minor version it implements (RFC 9110 §2.5): a 4xx
    // of its own passes, and 505 (Jetty's, cheroot's) departs from that SHOULD: it warns, and fails nothing.
    const later = readRequest({ head: head('GET /v1/pets/1 HTTP/1.2', AUTH) }, KEY)
    expect(later.invalid).toBeDefined()
    expect(later.unsupportedVersion).toBe('HTTP/1.2')
    expect(serverError(later, 505)).toEqual([])
    const judged = judgeEditedAnswer(answered(later, 505), expectationOf(readRequest({ head: GET }, KEY), later, edit, context), undefined, {})
    expect(judged.filter((finding) => !finding.ok).map((finding) => finding.requirementId)).toEqual(['responses/message-forms'])
    expect(serverError(later, 500).length).toBeGreaterThan(0)
    // Closed without a word, it warns as a request the server should have read as HTTP/1.1, not as one HTTP refuses.
    const closed = (reading: ReturnType<typeof readRequest>) =>
      judgeEditedAnswer(
        { ...answered(reading, 0), response: undefined, failure: { kind: 'connection', message: 'other side closed' } },
        expectationOf(readRequest({ head: GET }, KEY), reading, edit, context),
        undefined,
        {},
      ).map((finding) => finding.message ?? '')
    expect(closed(later)).toEqual([expect.stringMatching(/on a request of HTTP\/1\.2, which a server reads as the highest HTTP\/1 it implements .*RFC 9110 §2\.5/)])
    expect(closed(zeroNine)).toEqual([expect.stringMatching(/on a message HTTP refuses as written .* where HTTP\/1\.1 answers it 400/)])
  })

  test('the key is read as RFC 9110 and RFC 6750 read it, and leniently where a reader may', () => {
    expect(keyInValue(`Bearer ${KEY}`, KEY)).toBe('valid')
    expect(keyInValue(`bEaReR   ${KEY}  `, KEY)).toBe('valid')
    expect(keyInValue(`Bearer\t${KEY}`, KEY)).toBe('lenient')
    expect(keyInValue(`Bearer ${KEY}\0`, KEY)).toBe('lenient')
    expect(keyInValue(`Bearer ${KEY.slice(0, 5)}\0${KEY.slice(5)}`, KEY)).toBe('none')
    expect(keyInValue(`Bearer ${KEY}\u00a0`, KEY)).toBe('none')
    expect(keyInValue(`Bearer${KEY}`, KEY)).toBe('none')
    expect(keyOfWire(head('GET /v1/pets HTTP/1.1', `X-Note: a\nAuthorization: Bearer ${KEY}`), KEY)).toBe('lenient')
    // A bare CR is no line end (RFC 9112 §2.2): read as SP, it leaves no Authorization field, and no key with text after it.
    expect(keyOfWire(head('GET /v1/pets HTTP/1.1', `X-Note: a\rAuthorization: Bearer ${KEY}`), KEY)).toBe('none')
    expect(keyOfWire(head('GET /v1/pets HTTP/1.1', `Authorization: Bearer ${KEY}\rx`), KEY)).toBe('none')
    expect(keyOfWire(head('GET /v1/pets HTTP/1.1', `Authorization: Bearer ${KEY}\r`), KEY)).toBe('lenient')
    // Whitespace before a field's name: no token, but a reader that trims names finds the key.
    expect(keyOfWire(head('GET /v1/pets HTTP/1.1', `\tAuthorization: Bearer ${KEY}`), KEY)).toBe('lenient')
    expect(keyOfWire(head('GET /v1/pets HTTP/1.1', `Authorization : Bearer ${KEY}`), KEY)).toBe('lenient')
    expect(keyOfWire(head('GET /v1/pets HTTP/1.1', `X-Authorization: Bearer ${KEY}`), KEY)).toBe('none')
    expect(keyOfWire(head('GET /v1/pets HTTP/1.1', `Authorization: Bearer ${KEY}`), KEY)).toBe('valid')
  })

  test('integers read the way the spec reads them, and the readings some parsers take', () => {
    expect(integerReading('30')).toEqual({ kind: 'decimal', value: 30n })
    expect(integerReading('-0')).toEqual({ kind: 'lenient', value: 0n })
    expect(integerReading('3.0e1')).toEqual({ kind: 'lenient', value: 30n })
    expect(integerReading('300e-1')).toEqual({ kind: 'lenient', value: 30n })
    expect(integerReading('30.5')).toBeUndefined()
    expect(integerReading('0x1E')).toBeUndefined()
  })
})

describe('the corpus and the requirements the edits are charged to', () => {
  test('every n_ text of JSONTestSuite is one RFC 8259 refuses', async () => {
    await loadJsonCorpus()
    const { malformed } = jsonCorpus()
    expect(malformed.length).toBeGreaterThan(180)
    expect(malformed.filter((entry) => !isMalformedJson(entry.text)).map((entry) => entry.name)).toEqual([])
  })

  test('a text is malformed exactly when JSON.parse refuses it, the texts that leave something open included', async () => {
    await loadJsonCorpus()
    const { malformed, implementationDefined, wellFormed } = jsonCorpus()
    const refused = (text: string) => {
      try {
        JSON.parse(text)
        return false
      } catch {
        return true
      }
    }
    const texts = [...malformed, ...implementationDefined, ...wellFormed].flatMap((entry) => [entry.text, `{"a":${entry.text}}`])
    const open = ['[', '{"a":[1,', '"abc', '["\\"]', '{"a":"]"', '[[]', '"\\"', '["[",1]', '{"a":"}"}', '[]]']
    expect([...texts, ...open].filter((text) => isMalformedJson(text) !== refused(text))).toEqual([])
  })

  test('every requirement the oracle, the judge and the neighbourhood suite name is one the vitest runner gives a run-wide test', () => {
    const files = [
      join(packageRoot, 'lib', 'neighbourhood', 'edit-oracle.ts'),
      join(packageRoot, 'lib', 'checks', 'edited-answers.ts'),
      ...readdirSync(join(packageRoot, 'suites', 'neighbourhood')).map((file) => join(packageRoot, 'suites', 'neighbourhood', file)),
    ]
    const named = new Set(
      files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/'((?:auth|errors|responses|listPets|getPet|createPet)\/[a-z0-9-]+)'/g)].map((match) => match[1] as string)),
    )
    expect([...named].filter((id) => !EDIT_FINDING_REQUIREMENTS.includes(id as never))).toEqual([])
  })
})

describe('Authorization twice', () => {
  test('the key twice, or the key beside another token: it carries the key, and any answer the invariants allow passes (a server may read either line, or refuse)', () => {
    const CREATE = head('POST /v1/pets HTTP/1.1', 'Content-Type: application/json', AUTH)
    const body = { plain: '{"name":"a","categoryId":1}', edited: '{"name":"a","categoryId":1}' }
    for (const second of [AUTH, 'Authorization: Bearer not-the-key']) {
      for (const [plain, line] of [
        [LIST, 'GET /v1/pets?limit=7&status=available HTTP/1.1'],
        [CREATE, 'POST /v1/pets HTTP/1.1'],
      ] as const) {
        const expectation = judge(plain, head(line, 'Content-Type: application/json', AUTH, second), plain === CREATE ? body : undefined)
        expect(expectation.key).toBe('valid')
        expect(expectation.judgement).toMatchObject({ kind: 'invariants', why: expect.stringMatching(/Authorization is given twice/) })
      }
    }
  })
})

describe('an edited request is read once, from the edit to its verdict', () => {
  const sent = head('GET /v1/pets?limit=7&status=available HTTP/1.0', 'Accept: application/json', AUTH)
  const exchange = (reading?: KeyedReading): OperationExchange => ({
    id: 1,
    operation: 'listPets',
    // The head as it went out carries each attempt's span: another text than the one read before it was sent.
    request: { method: 'GET', url: 'http://127.0.0.1:8080/v1/pets?limit=7&status=available', headers: {}, wire: sent.replace('Accept', 'accept'), timeoutMs: 1000 },
    response: { status: 400, headers: { 'content-type': 'text/plain' }, body: 'Bad Request', bodyBytes: 11 },
    retries: [],
    durationMs: 1,
    ...(reading ? { reading } : {}),
  })
  const contentType = (results: ReturnType<typeof incidentalResults>) => results.find((result) => result.requirementId === 'responses/json-content-type')

  test('the reading the oracle judged travels with the exchange to the rules of every answer, which judge it rather than a head read again', () => {
    const reading = readRequest({ head: sent }, KEY)
    expect(expectationOf(readRequest({ head: LIST }, KEY), reading, edit, context).otherForms).toEqual(['HTTP/1.0'])
    // HTTP/1.0 is a form the HTTP layer may refuse in its own words (a 4xx of its own, not JSON): judged on the reading carried;
    expect(contentType(incidentalResults(exchange(reading), new Date('2026-01-01'), KEY))).toBeUndefined()
    // and it is the reading that is judged, not the head, which is never read again: one that saw no other form holds the 4xx to the Error body's JSON.
    expect(contentType(incidentalResults(exchange({ ...reading, otherForms: [] }), new Date('2026-01-01'), KEY))).toMatchObject({ ok: false })
  })

  test('the key is read with the head, once: the rules of every answer take the reading’s word for it', () => {
    const reading = readRequest({ head: sent }, KEY)
    expect(reading.key).toBe('valid')
    const served = { status: 200, headers: { 'content-type': 'application/json' }, body: '[]', bodyBytes: 2 }
    const access = (key: KeyedReading['key']) =>
      incidentalResults({ ...exchange({ ...reading, key }), response: served }, new Date('2026-01-01'), KEY).find((result) => result.requirementId === 'auth/no-access-without-key')
    expect(access('valid')).toBeUndefined()
    expect(access('none')).toMatchObject({ ok: false })
  })
})

describe('content the request asked to be other than the whole document', () => {
  const exchangeOf = (operation: OperationExchange['operation'], headers: Record<string, string>, response: NonNullable<OperationExchange['response']>): OperationExchange => ({
    id: 1,
    operation,
    request: {
      method: operation === 'createPet' ? 'POST' : 'GET',
      url: 'http://127.0.0.1:8080/v1/pets/1',
      headers: { authorization: `Bearer ${KEY}`, ...headers },
      timeoutMs: 1000,
    },
    response,
    retries: [],
    durationMs: 1,
  })
  const flagged = (exchange: OperationExchange) =>
    incidentalResults(exchange, new Date('2026-01-01'), KEY)
      .filter((result) => !result.ok)
      .map((result) => result.requirementId)

  test('a 206 to a Range the request carried is a part of the document (RFC 9110 §14.2): no schema holds it; a 206 nobody asked for is judged whole', () => {
    const partial = { status: 206, headers: { 'content-type': 'application/json', 'content-range': 'bytes 0-9/82' }, body: '{"id":1,"n', bodyBytes: 10 }
    expect(flagged(exchangeOf('getPet', { range: 'bytes=0-9' }, partial))).toEqual([])
    expect(flagged(exchangeOf('getPet', {}, partial))).toEqual(['getPet/body-schema'])
  })

  test('a 201 without content that applied the request’s Prefer: return=minimal (RFC 7240) is not held to the Pet schema; one that did not say so is', () => {
    const minimal = { status: 201, headers: { location: '/v1/pets/1', 'preference-applied': 'return=minimal' }, body: '', bodyBytes: 0 }
    expect(flagged(exchangeOf('createPet', { prefer: 'return=minimal' }, minimal))).toEqual([])
    expect(flagged(exchangeOf('createPet', {}, minimal))).toEqual(['responses/json-content-type', 'createPet/body-schema'])
    const { 'preference-applied': _applied, ...silent } = minimal.headers
    expect(flagged(exchangeOf('createPet', { prefer: 'return=minimal' }, { ...minimal, headers: silent }))).toEqual(['responses/json-content-type', 'createPet/body-schema'])
  })
})

describe('a list is held to the limit the request asked for, read from the query as sent', () => {
  const pets = (count: number) => JSON.stringify(Array.from({ length: count }, (_, index) => ({ id: index + 1, name: `p${index}`, categoryId: 1, status: 'pending' })))
  const listOf = (url: string, count: number): OperationExchange => ({
    id: 1,
    operation: 'listPets',
    request: { method: 'GET', url, headers: { authorization: `Bearer ${KEY}` }, timeoutMs: 1000 },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: pets(count), bodyBytes: pets(count).length },
    retries: [],
    durationMs: 1,
  })
  const capped = (url: string, count: number) =>
    incidentalResults(listOf(url, count), new Date('2026-01-01'), KEY).some((result) => !result.ok && result.requirementId === 'listPets/limit-caps-size')

  test('limit=7 caps the list at 7; a tab in the parameter’s name makes it a parameter of another name, and the default page of 20 passes', () => {
    expect(capped('http://127.0.0.1:8080/v1/pets?limit=7&status=pending', 8)).toBe(true)
    // A URL parser drops the tab and reads limit=7; aiohttp reads a parameter named "\tlimit", and no limit.
    for (const query of ['\tlimit=7', 'li\tmit=7', 'limit\t=7', 'li\nmit=7']) expect(capped(`http://127.0.0.1:8080/v1/pets?${query}&status=pending`, 20), query).toBe(false)
    expect(capped('http://127.0.0.1:8080/v1/pets?\tlimit=7&status=pending', 21)).toBe(true)
    // A tab in the value makes it no decimal integer: the out-of-range row allows any valid page of up to 100.
    for (const query of ['limit=\t7', 'limit=7\t']) expect(capped(`http://127.0.0.1:8080/v1/pets?${query}&status=pending`, 20), query).toBe(false)
  })
})

describe('what an edited request may not get in place of an answer', () => {
  const exchangeOf = (wire: string, outcome: Pick<OperationExchange, 'response' | 'failure'>): OperationExchange => ({
    id: 1,
    operation: 'probe',
    request: { method: wire.split(' ')[0] as string, url: 'http://127.0.0.1:8080/v1/pets', headers: {}, wire, timeoutMs: 1000 },
    retries: [],
    durationMs: 1,
    ...outcome,
  })
  const answered = (body: string) => ({ response: { status: 200, headers: { 'content-type': 'application/json' }, body, bodyBytes: body.length } })
  const findingsOn = (
    plain: string,
    edited: string,
    outcome: Pick<OperationExchange, 'response' | 'failure'>,
    plainOutcome: Pick<OperationExchange, 'response' | 'failure'> = answered('{}'),
    bodies?: { plain: string; edited: string },
  ) => {
    const expectation = judge(plain, edited, bodies)
    return judgeEditedAnswer(exchangeOf(edited, outcome), expectation, exchangeOf(plain, plainOutcome), {})
  }

  test('the key with a bare CR and text after it is no key, nor a field line after a bare CR a field (RFC 9112 §2.2: a bare CR is invalid, or SP): a 2xx fails no access', () => {
    // A field line after the CR: Python's header parser ends the line there and reads `X-Request-Id` as a field (Werkzeug).
    for (const field of [`Authorization: Bearer ${KEY}\rx`, `Authorization: Bearer ${KEY}\rX-Request-Id: 1`, `X-Note: a\rAuthorization: Bearer ${KEY}`]) {
      const edited = head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json', field)
      const failed = findingsOn(LIST, edited, answered('[]')).filter((finding) => !finding.ok)
      expect(failed, JSON.stringify(field)).toEqual([expect.objectContaining({ requirementId: 'auth/no-access-without-key' })])
      // Refused in the HTTP layer's words (Node's bare 400), the message is judged by no access alone.
      expect(findingsOn(LIST, edited, { response: { status: 400, headers: {}, body: '', bodyBytes: 0 } }).filter((finding) => !finding.ok)).toEqual([])
    }
  })

  test('a tab around the Host value is whitespace to HTTP and part of the host to nginx 1.22: any refusal in its own words, with the key or without; a 200 is the plain answer', () => {
    for (const host of ['Host: \t127.0.0.1:8080', 'Host: 127.0.0.1:8080\t']) {
      const keyed = head('GET /v1/pets?limit=7&status=available HTTP/1.1', host, 'Accept: application/json', AUTH)
      expect(judge(LIST, keyed).ownWords, JSON.stringify(host)).toMatch(/a tab around the Host value/)
      expect(findingsOn(LIST, keyed, { response: { status: 400, headers: {}, body: '', bodyBytes: 0 } }).filter((finding) => !finding.ok)).toEqual([])
      // Answered, it is the plain request in other words (RFC 9110 §5.5), at MUST.
      expect(judge(LIST, keyed).judgement).toMatchObject({ kind: 'plain answer', requirementId: 'listPets/equivalent-spellings' })
      const keyless = head('GET /v1/pets?limit=7&status=available HTTP/1.1', host, 'Accept: application/json')
      expect(findingsOn(LIST, keyless, { response: { status: 400, headers: {}, body: '', bodyBytes: 0 } }).filter((finding) => !finding.ok)).toEqual([])
    }
    // Spaces around it nginx takes as HTTP does: no refusal of its own.
    expect(judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Host:   127.0.0.1:8080  ', 'Accept: application/json', AUTH)).ownWords).toBeUndefined()
  })

  test('the key with NUL and text after it is no key (RFC 9110 §5.5: NUL is refused or read as SP), where the key with NUL alone is a lenient reading: a 2xx fails no access', () => {
    // PHP's built-in server cuts a field value at NUL, and let `Bearer <key>\0junk` in.
    const cut = head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json', `Authorization: Bearer ${KEY}\0junk`)
    expect(findingsOn(LIST, cut, answered('[]')).filter((finding) => !finding.ok)).toEqual([expect.objectContaining({ requirementId: 'auth/no-access-without-key' })])
    expect(judge(LIST, head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept: application/json', `Authorization: Bearer ${KEY}\0`)).key).toBe('lenient')
  })

  test('an escaped NUL then text after the id is no id (libmicrohttpd hands a C string, and `30%00x` read pet 30): the pet fails other notations; nginx’s own 400 passes, with the key or without', () => {
    const read30 = head('GET /v1/pets/30 HTTP/1.1', 'Accept: application/json', AUTH)
    const cut = head('GET /v1/pets/30%00x HTTP/1.1', 'Accept: application/json', AUTH)
    expect(judge(read30, cut).ownWords).toMatch(/an escaped NUL in the path/)
    const failedOn = (outcome: Pick<OperationExchange, 'response' | 'failure'>, edited = cut) =>
      findingsOn(read30, edited, outcome)
        .filter((finding) => !finding.ok)
        .map((finding) => finding.requirementId)
    expect(failedOn(answered('{"id":30,"name":"a","categoryId":1}'))).toEqual(['getPet/other-notations'])
    const nginx = { response: { status: 400, headers: { 'content-type': 'text/html' }, body: '<html>400 Bad Request</html>', bodyBytes: 28 } }
    expect(failedOn(nginx)).toEqual([])
    expect(failedOn(nginx, head('GET /v1/pets/30%00x HTTP/1.1', 'Accept: application/json'))).toEqual([])
    // In a query value an escaped NUL is data: no HTTP layer's own refusal.
    expect(judge(LIST, head('GET /v1/pets?limit=7&status=available%00x HTTP/1.1', 'Accept: application/json', AUTH)).ownWords).toBeUndefined()
  })

  test('a Content-Type given twice may be refused in the HTTP layer’s own words before the key is read (lighttpd: 400); a create without the key still gets no pet', () => {
    const pet = '{"name":"a","categoryId":1}'
    const bodies = { plain: pet, edited: pet }
    const create = (...fields: string[]) => head('POST /v1/pets HTTP/1.1', ...fields, 'Content-Length: 27')
    const plain = create('Content-Type: application/json', AUTH)
    const lighttpd = { response: { status: 400, headers: { 'content-type': 'text/html' }, body: '<h1>400 Bad Request</h1>', bodyBytes: 24 } }
    const failedOn = (edited: string, outcome: Pick<OperationExchange, 'response' | 'failure'>) =>
      findingsOn(plain, edited, outcome, answered('{}'), bodies)
        .filter((finding) => !finding.ok)
        .map((finding) => finding.requirementId)
    for (const [first, second] of [
      ['text/plain', 'application/json'],
      ['application/json', 'application/json'],
    ]) {
      const keyless = create(`Content-Type: ${first}`, `Content-Type: ${second}`)
      expect(judge(plain, keyless, bodies).ownWords).toMatch(/a Content-Type field given twice/)
      expect(failedOn(keyless, lighttpd)).toEqual([])
      expect(failedOn(create(`Content-Type: ${first}`, `Content-Type: ${second}`, AUTH), lighttpd)).toEqual([])
      // Without the key, a pet is never access the request may have.
      const created = { response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":9,"name":"a","categoryId":1}', bodyBytes: 34 } }
      expect(failedOn(keyless, created)).toEqual(['auth/no-access-without-key'])
    }
    // Once, the Content-Type is the service’s to read, and the key comes first.
    expect(failedOn(create('Content-Type: text/plain'), lighttpd)).toEqual(['auth/missing-key-401'])
  })

  test('a valid create with an Accept that admits no JSON, refused with 400 (Mojolicious::Plugin::OpenAPI checks Accept after it has created the pet): the failure names 406 beside 201', () => {
    const pet = '{"name":"n","categoryId":1,"status":"sold"}'
    const create = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Content-Length: 43')
    const html = head('POST /v1/pets HTTP/1.1', 'Accept: text/html', 'Content-Type: application/json', AUTH, 'Content-Length: 43')
    const refused = { response: { status: 400, headers: { 'content-type': 'application/json' }, body: '{"code":"x","message":"y","status":400}', bodyBytes: 39 } }
    const failed = findingsOn(create, html, refused, answered(pet), { plain: pet, edited: pet }).filter((finding) => !finding.ok)
    expect(failed).toEqual([expect.objectContaining({ requirementId: 'createPet/returns-201-pet', message: expect.stringMatching(/has status 400, expected 201 or 406/) })])
  })

  test('an invalid NewPet answered 201 breaks both halves of its row: exactly 400, and nothing created (as the generated invalid bodies judge it)', () => {
    const pet = '{"name":"n","categoryId":1,"status":"sold"}'
    const create = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Content-Length: 43')
    const accepted = (status: number) => ({ response: { status, headers: { 'content-type': 'application/json' }, body: '{"id":9,"name":"n","categoryId":1}', bodyBytes: 34 } })
    const failed = (status: number) =>
      findingsOn(create, create, accepted(status), answered(pet), { plain: pet, edited: '{"name":"n","categoryId":1,"extra":[NaN]}' })
        .filter((finding) => !finding.ok)
        .map((finding) => finding.requirementId)
    expect(failed(201)).toEqual(['createPet/invalid-body-400', 'createPet/invalid-body-not-created'])
    // A refusal in another status breaks the first half alone: the leakage search decides the second.
    expect(failed(422)).toEqual(['createPet/invalid-body-400'])
  })

  test('a read of one pet with other segments below /pets/ never gets another pet (§2b); with dot segments, the pet the path names once they are removed (RFC 3986 §5.2.4)', () => {
    const read30 = head('GET /v1/pets/30 HTTP/1.1', 'Accept: application/json', AUTH)
    const failed = (line: string, body: string) =>
      findingsOn(read30, head(line, 'Accept: application/json', AUTH), answered(body))
        .filter((finding) => !finding.ok)
        .map((finding) => finding.requirementId)
    const pet = (id: number) => `{"id":${id},"name":"a","categoryId":1}`
    // Go's path.Base reads the last segment, Twisted's isLeaf resource the first.
    expect(failed('GET /v1/pets/30/29 HTTP/1.1', pet(29))).toEqual(['getPet/other-notations'])
    expect(failed('GET /v1/pets/30/29 HTTP/1.1', pet(30))).toEqual([])
    expect(failed('GET /v1/pets//30 HTTP/1.1', pet(30))).toEqual([])
    // 29/../30 names pet 30: the first segment read is another pet; 30/.. names the collection, whose list passes.
    expect(failed('GET /v1/pets/29/../30 HTTP/1.1', pet(29))).toEqual(['getPet/other-notations'])
    expect(failed('GET /v1/pets/29/../30 HTTP/1.1', pet(30))).toEqual([])
    expect(failed('GET /v1/pets/30/.. HTTP/1.1', `[${pet(30)},${pet(29)}]`)).toEqual([])
  })

  test('a read of one pet written as HTTP refuses it (a space in the target) never gets another pet, alone or in a list (§2b)', () => {
    const read406 = head('GET /v1/pets/406 HTTP/1.1', 'Accept: application/json', AUTH)
    const split = head('GET /v1/pets/4 06 HTTP/1.1', 'Accept: application/json', AUTH)
    const failed = (body: string) => findingsOn(read406, split, answered(body)).filter((finding) => !finding.ok)
    expect(failed('{"id":4,"name":"a","categoryId":1}')).toEqual([expect.objectContaining({ requirementId: 'getPet/returns-pet', message: expect.stringMatching(/pet 4\b/) })])
    expect(failed('[{"id":406,"name":"a","categoryId":1},{"id":545,"name":"b","categoryId":1}]')).toEqual([expect.objectContaining({ requirementId: 'getPet/returns-pet' })])
    // The pet the plain request names, or a refusal, is no other pet.
    expect(failed('{"id":406,"name":"a","categoryId":1}')).toEqual([])
    // A fragment a server drops (Node reads /pets/4#06 as pet 4), and a target cut short into the collection, are no other pet the edit reached.
    const fragment = head('GET /v1/pets/4#06 HTTP/1.1', 'Accept: application/json', AUTH)
    expect(findingsOn(read406, fragment, answered('{"id":4,"name":"a","categoryId":1}')).filter((finding) => !finding.ok)).toEqual([])
    const control = head('GET /v1/pets/\x01406 HTTP/1.1', 'Accept: application/json', AUTH)
    expect(findingsOn(read406, control, answered('[{"id":545,"name":"b","categoryId":1}]')).filter((finding) => !finding.ok)).toEqual([])
    expect(findingsOn(read406, split, { response: { status: 400, headers: {}, body: '', bodyBytes: 0 } }).filter((finding) => !finding.ok)).toEqual([])
  })

  test('a message HTTP refuses is answered 400 (RFC 9112 §3, §5.1): a close without a word warns edits-answered, a reset or an answer in any words does not', () => {
    for (const edited of [
      head('GET /v1/pets?limit=7&status=available HTTP/1.1', 'Accept : application/json', AUTH),
      head('GET /v1/pets?limit=7&status=available\t HTTP/1.1', 'Accept: application/json', AUTH),
    ]) {
      expect(judge(LIST, edited).invalidMessage, JSON.stringify(edited)).toBeDefined()
      const closed = findingsOn(LIST, edited, { failure: { kind: 'connection', message: 'connection failed: other side closed (UND_ERR_SOCKET)' } })
      expect(closed, JSON.stringify(edited)).toEqual([
        expect.objectContaining({ requirementId: 'responses/edits-answered', ok: false, message: expect.stringMatching(/RFC 9112/) }),
      ])
      for (const outcome of [
        { failure: { kind: 'connection' as const, message: 'connection failed: read ECONNRESET (ECONNRESET)' } },
        { response: { status: 400, headers: {}, body: '', bodyBytes: 0 } },
      ])
        expect(findingsOn(LIST, edited, outcome).filter((finding) => !finding.ok)).toEqual([])
    }
    // Under a method the spec does not name, a close stays an answer: Node ends the connection on a CONNECT it cannot tunnel.
    const connect = head('CONNECT /v1/pets/30 HTTP/1.1', 'Accept: application/json')
    expect(judge(GET, connect).invalidMessage).toMatch(/CONNECT/)
    expect(
      findingsOn(GET, connect, { failure: { kind: 'connection', message: 'connection failed: other side closed (UND_ERR_SOCKET)' } }).filter((finding) => !finding.ok),
    ).toEqual([])
  })

  test('a create with the key that the target ends the connection on, cleanly and with no answer, fails the rule that names its answers; a reset or a timeout only goes unanswered', () => {
    const gzipped = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Content-Encoding: gzip', 'Content-Length: 43')
    const labelled = { operator: 'add-field', valueClass: 'x', label: 'Content-Encoding', field: { name: 'Content-Encoding', value: 'gzip' } } as unknown as Edit
    const read = readEdited({ head: CREATE_43, body: PET_43 }, { head: gzipped, body: PET_43 }, KEY)
    const created = { response: { status: 201, headers: {}, body: '{}', bodyBytes: 2 } }
    const lost = (message: string, kind: 'connection' | 'timeout' = 'connection') =>
      judgeEditedAnswer(exchangeOf(gzipped, { failure: { kind, message } }), expectationOf(read.plain, read.edited, labelled, context), exchangeOf(CREATE_43, created), {})
    expect(lost('connection failed: other side closed (UND_ERR_SOCKET)')).toEqual([expect.objectContaining({ requirementId: 'createPet/content-encoding', ok: false })])
    // The same close in place of the plain create's own answer fails the rule that gives it that answer.
    const plainCreate = judgeEditedAnswer(
      exchangeOf(CREATE_43, { failure: { kind: 'connection', message: 'other side closed' } }),
      judge(CREATE_43, CREATE_43, { plain: PET_43, edited: PET_43 }),
      exchangeOf(CREATE_43, created),
      {},
    )
    expect(plainCreate).toEqual([expect.objectContaining({ requirementId: 'createPet/equivalent-spellings', ok: false })])
    expect(lost('connection failed: read ECONNRESET (ECONNRESET)')).toEqual([])
    expect(lost('no complete answer within 1000 ms', 'timeout')).toEqual([])
  })
})

const CREATE_43 = head('POST /v1/pets HTTP/1.1', 'Accept: application/json', 'Content-Type: application/json', AUTH, 'Content-Length: 43')
const PET_43 = '{"name":"n","categoryId":1,"status":"sold"}'

describe('a create whose Content-Length fields differ is refused, never served (RFC 9112 §6.3)', () => {
  const BODY = '{"name":"Rex","categoryId":1}'
  const CREATE = head('POST /v1/pets HTTP/1.1', 'Content-Type: application/json', AUTH, `Content-Length: ${BODY.length}`)
  const twice = (first: number, last: number) => head('POST /v1/pets HTTP/1.1', 'Content-Type: application/json', AUTH, `Content-Length: ${first}`, `Content-Length: ${last}`)
  const answered = (wire: string, status: number): OperationExchange => ({
    id: 1,
    operation: 'createPet',
    request: { method: 'POST', url: 'http://127.0.0.1:8080/v1/pets', headers: {}, wire, body: BODY, timeoutMs: 1000 },
    response: { status, headers: { 'content-type': 'application/json' }, body: '{"id":1,"name":"Rex","categoryId":1}', bodyBytes: 36 },
    retries: [],
    durationMs: 1,
  })
  const findingsOf = (wire: string, status: number) =>
    judgeEditedAnswer(answered(wire, status), judge(CREATE, wire, { plain: BODY, edited: BODY }), undefined, {}).filter(
      (finding) => finding.requirementId === 'responses/differing-lengths-refused',
    )

  test('two lengths that differ, in either order, are a message HTTP refuses; the same length twice is none', () => {
    expect(readWire(twice(BODY.length, 14)).invalid).toContain('Content-Length is given with differing values')
    expect(readWire(twice(14, BODY.length)).invalid).toContain('Content-Length is given with differing values')
    expect(readWire(head('POST /v1/pets HTTP/1.1', AUTH, `Content-Length: ${BODY.length}, 14`)).invalid).toContain('differing values')
    expect(readWire(twice(BODY.length, BODY.length)).invalid).toBeUndefined()
  })

  test('served (2xx) warns; refused, it passes', () => {
    expect(findingsOf(twice(BODY.length, 14), 201)).toMatchObject([{ ok: false }])
    expect(findingsOf(twice(14, BODY.length), 201)).toMatchObject([{ ok: false }])
    expect(findingsOf(twice(BODY.length, 14), 400)).toEqual([{ requirementId: 'responses/differing-lengths-refused', ok: true }])
    expect(findingsOf(CREATE, 201)).toEqual([])
  })
})

describe("a list parameter's name in an array form beside the plain one is the parameter given twice (PHP, Rack, qs)", () => {
  const limitsOf = (query: string) => {
    const judgement = listJudgement(query)
    return judgement.kind === 'list' ? judgement.limits.map(String) : undefined
  }

  test('`limit=7&limit[]=7` is no one limit: the out-of-range row bounds it, as `limit=7&limit=7`', () => {
    expect(limitsOf('limit=7&limit%5B%5D=7')).toEqual([])
    expect(limitsOf('limit=7&limit%5B0%5D=7')).toEqual([])
    expect(limitsOf('limit=7&limit=7')).toEqual([])
  })

  test('alone, or under another name, the array form is another parameter: the plain limit, or the default, holds', () => {
    expect(limitsOf('limit%5B%5D=7')).toEqual(['20'])
    expect(limitsOf('limit=7&limits%5B%5D=9')).toEqual(['7'])
  })
})
