/**
 * The plan of the neighbourhood (policy §2b): every operator reaches every part it edits in every run, the key and
 * the id take every octet value, every dictionary row and every n_ text of JSONTestSuite goes once, `deep` sends
 * every value of every class, and --max-edits keeps every operator.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { EDIT_OPERATORS } from '../../lib/neighbourhood/edit-operators.js'
import { planEdits } from '../../lib/neighbourhood/edit-plan.js'
import { FIELD_DICTIONARY } from '../../lib/neighbourhood/field-dictionary.js'
import { jsonCorpus, loadJsonCorpus } from '../../lib/neighbourhood/json-corpus.js'
import { MEMBER_DICTIONARY } from '../../lib/neighbourhood/member-dictionary.js'
import { SAFE_METHODS, UNKNOWN_METHODS } from '../../lib/neighbourhood/methods.js'
import { octalTwin } from '../../lib/neighbourhood/plain-requests.js'
import { EDIT_OPERATOR_IDS, type OperatorId } from '../../lib/settings/settings.js'
import { packageRoot } from '../../lib/spec/package-root.js'
import { type RequestModel, readPart, wireOf } from '../../lib/spec/request-model.js'
import { PLAIN_KEY, testPlains } from '../helpers/plains.js'

const plains = testPlains

const SEEDS = [1, 2, 3, 424242, 2_147_483_647]

beforeAll(loadJsonCorpus)

describe('the operators, written once', () => {
  test('a row for every operator id, and results.json’s schema enumerates the same ids', () => {
    expect(EDIT_OPERATORS.map((operator) => operator.id)).toEqual([...EDIT_OPERATOR_IDS])
    const schema = JSON.parse(readFileSync(join(packageRoot, 'schemas', 'results.schema.json'), 'utf8')) as {
      properties: { neighbourhood: { properties: { edits: { items: { properties: { operator: { enum: string[] } } } } } } }
    }
    expect(schema.properties.neighbourhood.properties.edits.items.properties.operator.enum).toEqual([...EDIT_OPERATOR_IDS])
  })
})

describe('a full run edits every part with every operator', () => {
  test.for(SEEDS)('seed %i: every request, part and operator pair has an edit', (seed) => {
    const { coverage } = planEdits(plains(), { seed, every: false, writes: true })
    expect(coverage.filter((row) => row.edits === 0)).toEqual([])
    // Every operator, each on some part.
    expect(new Set(coverage.map((row) => row.operator))).toEqual(new Set(EDIT_OPERATORS.map((operator) => operator.id)))
  })

  test('the parts are the method, every segment (the base URL’s included), parameter, field and the Authorization parts, and the body', () => {
    const labels = new Set(planEdits(plains(), { seed: 1, every: false, writes: true }).coverage.map((row) => row.part))
    for (const part of [
      'method',
      'base segment v1',
      'fixed segment pets',
      'id segment {petId}',
      'query name limit',
      'query value status',
      'header name Host',
      'header value Accept',
      'Authorization scheme',
      'Authorization separator',
      'Authorization token',
      'header fields',
      'body text',
      'member value categoryId',
      'HTTP version',
      'request-target form',
      'body framing',
    ]) {
      expect(labels, part).toContain(part)
    }
  })

  test('the key and the id take every octet value but their own alphabet each once, and a letter and a digit, whatever the seed (an octet written as another edit goes as that edit)', () => {
    for (const seed of SEEDS) {
      const plan = planEdits(plains(), { seed, every: false, writes: true })
      const edits = [...plan.edits, ...plan.alike]
      const classes = (request: string, part: string) =>
        new Set(edits.filter((edit) => edit.operator === 'octet' && edit.plain.name === request && edit.part.label === part).map((edit) => edit.valueClass))
      for (const [request, part] of [
        ['GET /pets with the key', 'Authorization token'],
        ['GET /pets/{id} with the key', 'id segment {petId}'],
      ] as const) {
        const sent = classes(request, part)
        // 256 octets less the 62 ASCII letters and digits, each a class; the letters and the digits, a class each. The key
        // takes the 12 octets a trim takes away at each end, a class each.
        expect([...sent].filter((name) => /^octet 0x[0-9A-F]{2}$/.test(name)).length, part).toBe(194)
        expect([...sent].filter((name) => / before it$/.test(name)).length, part).toBe(part === 'Authorization token' ? 12 : 0)
        for (const name of ['an ASCII letter', 'an ASCII digit', 'octet 0x00', 'octet 0x2D', 'octet 0xA0', 'octet 0xFF']) expect(sent, `${part}: ${name}`).toContain(name)
      }
      // An octet a trim takes away goes at each end of the key, where a trim (cheroot's, PHP's trim, Python's strip) or a split would take it.
      for (const octet of ['0B', '0C', '1F', '85', 'A0']) {
        const placed = edits.filter(
          (edit) => edit.plain.name === 'GET /pets with the key' && edit.part.label === 'Authorization token' && edit.valueClass.startsWith(`octet 0x${octet}`),
        )
        expect(placed.map((edit) => edit.label).sort(), octet).toEqual([`0x${octet} after Authorization token`, `0x${octet} before Authorization token`])
      }
    }
  })

  test('every field and member of the dictionaries goes to a request with the key and to one without it, and every n_ text as the body', () => {
    const plan = planEdits(plains(), { seed: 7, every: false, writes: true })
    // A row written as another edit (Host given once more) goes as that edit.
    const edits = [...plan.edits, ...plan.alike]
    for (const keyless of [false, true]) {
      const sent = (operator: OperatorId) => edits.filter((edit) => edit.operator === operator && edit.plain.keyless === keyless)
      expect(new Set(sent('add-field').map((edit) => `${edit.field?.name}: ${edit.field?.value}${edit.field?.codesBody ? ' coded' : ''}`)).size).toBe(FIELD_DICTIONARY.length)
      expect(new Set(sent('add-member').map((edit) => edit.valueClass)).size).toBe(MEMBER_DICTIONARY.length)
    }
    const bodies = new Set(edits.filter((edit) => edit.corpus === 'n_' && edit.valueClass.startsWith('n_ body')).map((edit) => edit.valueClass))
    expect(bodies.size).toBe(jsonCorpus().malformed.length)
  })

  test.for(SEEDS)('seed %i: no two edits are written alike, nor any like a plain request: each request goes once, and its pairs are reached all the same', (seed) => {
    const { edits, alike, coverage } = planEdits(plains(), { seed, every: false, writes: true })
    const written = (model: RequestModel, bodyOctets?: string) => {
      const wire = wireOf(model, bodyOctets)
      return `${wire.framing} ${wire.head}${wire.body ?? ''}`
    }
    const plainOctets = new Set(plains().map((plain) => written(plain.model)))
    const octets = edits.map((edit) => written(edit.model, edit.bodyOctets))
    expect(new Set(octets).size).toBe(edits.length)
    expect(octets.filter((text) => plainOctets.has(text))).toEqual([])
    // Each edit left out is written as one sent, or as a plain request, and says which.
    const sentOctets = new Set(octets)
    expect(alike.length).toBeGreaterThan(0)
    for (const edit of alike) expect(sentOctets.has(written(edit.model, edit.bodyOctets)) || plainOctets.has(written(edit.model, edit.bodyOctets)), edit.label).toBe(true)
    expect(
      alike.find((edit) => edit.part.label === 'header value Host' && edit.operator === 'duplicate')?.writtenAs ??
        alike.find((edit) => edit.part.label === 'header name Host' && edit.operator === 'duplicate')?.writtenAs,
    ).toMatch(/Host/)
    // `Host` given twice by its name and by its value is one request: both pairs count it.
    const pair = (part: string, operator: OperatorId) => coverage.find((row) => row.request === 'GET /pets with the key' && row.part === part && row.operator === operator)?.edits
    expect(pair('header name Host', 'duplicate')).toBeGreaterThan(0)
    expect(pair('header value Host', 'duplicate')).toBeGreaterThan(0)
  })

  test('the seed chooses the values: two seeds send different edits of the same classes', () => {
    const labels = (seed: number) => planEdits(plains(), { seed, every: false, writes: true }).edits.map((edit) => `${edit.plain.name} ${edit.label}`)
    expect(labels(1)).not.toEqual(labels(2))
    expect(labels(1)).toEqual(labels(1))
  })

  test('a smoke run edits the reads only, and puts only the registry’s safe methods in place of theirs', () => {
    const { edits } = planEdits(plains(['listPets', 'getPet']), { seed: 1, every: true, writes: false })
    expect(new Set(edits.map((edit) => edit.plain.model.method))).toEqual(new Set(['GET']))
    const methods = new Set(edits.filter((edit) => edit.operator === 'other-method').map((edit) => edit.model.method))
    expect([...methods].filter((method) => !SAFE_METHODS.has(method))).toEqual([])
    expect(methods).toContain('HEAD')
  })

  test('an unsafe method goes only to a request without the key, and every class of methods goes to those too, TRACE (a framework may answer it itself) at every seed', () => {
    for (const seed of SEEDS) {
      const methods = planEdits(plains(), { seed, every: false, writes: true }).edits.filter((edit) => edit.operator === 'other-method')
      const unsafe = methods.filter((edit) => !SAFE_METHODS.has(edit.model.method) && !UNKNOWN_METHODS.includes(edit.model.method) && !['GET', 'POST'].includes(edit.model.method))
      expect(unsafe.length, `seed ${seed}`).toBeGreaterThan(0)
      expect(unsafe.filter((edit) => !edit.plain.keyless)).toEqual([])
      expect(methods.filter((edit) => edit.model.method === 'TRACE' && !edit.plain.keyless)).toEqual([])
      for (const plain of plains().filter((candidate) => candidate.keyless)) {
        const sent = new Set(methods.filter((edit) => edit.plain.name === plain.name).map((edit) => edit.valueClass))
        expect(sent, plain.name).toEqual(new Set(['HEAD', 'OPTIONS', 'TRACE', 'other safe methods', 'unknown tokens', 'unsafe methods']))
      }
    }
  })
})

describe('the octets after the key a reader may take for its end', () => {
  test.for(SEEDS)('seed %i: the key takes each octet a trim takes away at both ends, and a bare CR with a field line after it, NUL with text', (seed) => {
    const { edits, alike } = planEdits(plains(), { seed, every: false, writes: true })
    const token = [...edits, ...alike].filter((edit) => edit.operator === 'octet' && edit.plain.name === 'GET /pets with the key' && edit.part.label === 'Authorization token')
    const tokens = new Set(token.map((edit) => edit.model.authorization[0]?.token))
    for (const octet of ['\v', '\f', '\x1c', '\x85', '\xa0']) {
      expect(tokens, JSON.stringify(octet)).toContain(`${PLAIN_KEY}${octet}`)
      expect(tokens, JSON.stringify(octet)).toContain(`${octet}${PLAIN_KEY}`)
    }
    expect(tokens).toContain(`${PLAIN_KEY}\rX-Request-Id: 1`)
    expect(tokens).toContain(`${PLAIN_KEY}\0x`)
  })

  test.for(SEEDS)('seed %i: the scheme of the list request takes each octet a trim takes away before it (Mojo::Headers takes NBSP and NEL off a value’s start)', (seed) => {
    const { edits, alike } = planEdits(plains(), { seed, every: false, writes: true })
    const before = [...edits, ...alike].filter((edit) => edit.operator === 'octet' && edit.plain.name === 'GET /pets with the key' && / before it$/.test(edit.valueClass))
    const schemes = new Set(before.filter((edit) => edit.part.label === 'Authorization scheme').map((edit) => edit.model.authorization[0]?.scheme))
    for (const octet of ['\v', '\f', '\x1c', '\x1f', '\x85', '\xa0']) expect(schemes, JSON.stringify(octet)).toContain(`${octet}Bearer`)
    // SP and HTAB are the whitespace HTTP itself takes off a value (RFC 9110 §5.5), CR and LF end its line: other classes' octets.
    expect(schemes.size).toBe(8)
  })
})

describe('escapes a decoder stops at, after the id and the query’s values', () => {
  test.for(SEEDS)(
    'seed %i: every full run writes an escaped NUL and text, and an escape that is no UTF-8, after the id and each value of the list request with the key',
    (seed) => {
      const { edits, alike } = planEdits(plains(), { seed, every: false, writes: true })
      for (const [valueClass, after] of [
        ['an escaped NUL, then text', '%00x'],
        ['an escape that is no UTF-8', '%FF'],
      ] as const) {
        const written = [...edits, ...alike].filter((edit) => edit.valueClass === valueClass)
        const labels = written.map((edit) => `${edit.plain.name} | ${edit.part.label}`)
        for (const label of ['GET /pets with the key | query value limit', 'GET /pets with the key | query value status', 'GET /pets/{id} with the key | id segment {petId}']) {
          expect(labels, `${valueClass}: ${label}`).toContain(label)
        }
        const id = written.find((edit) => edit.plain.name === 'GET /pets/{id} with the key')
        expect(id?.model.segments.at(-1)?.text.endsWith(after), valueClass).toBe(true)
      }
    },
  )
})

describe('the octets around the create’s JSON text that a trim takes and JSON does not (Servant’s skipSpace took VT and FF)', () => {
  test.for(SEEDS)('seed %i: each is a class of its own, at one end of the body text, the ends in turn', (seed) => {
    const { edits, alike } = planEdits(plains(), { seed, every: false, writes: true })
    const around = [...edits, ...alike].filter(
      (edit) => edit.plain.name === 'POST /pets with the key' && edit.part.label === 'body text' && edit.valueClass.startsWith('a trimmed '),
    )
    expect(around.map((edit) => edit.label).sort()).toEqual(
      ['0x0B before', '0x0C after', '0x1C before', '0x1D after', '0x1E before', '0x1F after', '0x85 before', '0xA0 after'].map((at) => `${at} body text`).sort(),
    )
  })
})

describe('the pet the plain read names', () => {
  test('one whose digits an octal reader takes for another listed pet comes first, so a leading zero can reach that pet', () => {
    const ids = Array.from({ length: 20 }, (_, index) => BigInt(index + 1))
    expect(octalTwin(ids)).toBe(10n)
    // 11 to 17 are 9 to 15 in octal; 8 and 9 have no octal reading, and 10 is none without 8.
    expect(octalTwin([8n, 9n, 15n, 13n])).toBe(15n)
    expect(octalTwin([10n, 18n, 19n, 100n])).toBeUndefined()
    expect(octalTwin([1n, 2n, 7n])).toBeUndefined()
    expect(octalTwin([2n ** 63n, 1n])).toBeUndefined()
  })
})

describe('the readings of query parsers that build arrays and maps (PHP, Rack, qs)', () => {
  test.for(SEEDS)('seed %i: every query name goes in the array, indexed, map and nested map forms, and plain beside its array form, brackets encoded', (seed) => {
    const { edits } = planEdits(plains(), { seed, every: false, writes: true })
    for (const name of ['limit', 'status']) {
      const bracketed = edits.filter((edit) => edit.operator === 'bracket-name' && edit.plain.name === 'GET /pets with the key' && edit.part.label === `query name ${name}`)
      expect(new Set(bracketed.map((edit) => edit.valueClass))).toEqual(new Set(['array form', 'indexed form', 'map form', 'nested map form', 'plain and array form']))
      for (const edit of bracketed) expect(wireOf(edit.model).head.split('\r\n')[0], edit.label).not.toMatch(/[[\]]/)
      const both = bracketed.find((edit) => edit.valueClass === 'plain and array form')
      expect(both?.model.query.filter((field) => field.name === name || field.name === `${name}%5B%5D`)).toHaveLength(2)
      const nested = bracketed.find((edit) => edit.valueClass === 'nested map form')
      expect(nested?.model.query.find((field) => field.name.startsWith(name))?.name.match(/%5Bx%5D/g)).toHaveLength(100)
    }
  })

  test.for(SEEDS)('seed %i: every part of the request-target gets a `%` that starts no escape', (seed) => {
    // Sent, or written as another edit sent (the id's octet sweep puts a bare `%` after it too).
    const { edits, alike } = planEdits(plains(), { seed, every: false, writes: true })
    const malformed = [...edits, ...alike].filter((edit) => edit.valueClass === 'a malformed escape' && !edit.plain.keyless)
    const parts = new Set(malformed.map((edit) => `${edit.plain.name}: ${edit.part.label}`))
    for (const part of ['GET /pets with the key: query value limit', 'GET /pets with the key: query name status', 'GET /pets/{id} with the key: id segment {petId}'])
      expect(parts).toContain(part)
  })
})

describe('deep sends every value, and --max-edits a sample that keeps every operator', () => {
  test('deep: every value of every class of every keyed request and part', () => {
    const full = planEdits(plains(), { seed: 1, every: false, writes: true }).edits.length
    const deep = planEdits(plains(), { seed: 1, every: true, writes: true }).edits
    expect(deep.length).toBeGreaterThan(5 * full)
    // Every C0 control, DEL and octet past 0x7F, before, inside or after the Accept value.
    const accept = deep.filter(
      (edit) => edit.operator === 'octet' && !edit.plain.keyless && edit.plain.name === 'GET /pets with the key' && edit.part.label === 'header value Accept',
    )
    expect(accept.length).toBe(31 + 1 + 1 + 1 + 128 + 128)
  })

  test.for([20, 40, 300])('--max-edits %i: at most that many, every operator among them', (budget) => {
    const { edits } = planEdits(plains(), { seed: 5, every: false, writes: true, maxEdits: budget })
    expect(edits.length).toBe(budget)
    expect(new Set(edits.map((edit) => edit.operator))).toEqual(new Set<OperatorId>(EDIT_OPERATORS.map((operator) => operator.id)))
  })
})

describe('the edits change one part and nothing else', () => {
  test('each edit of a text part leaves every other part as it was', () => {
    const { edits } = planEdits(plains(), { seed: 3, every: false, writes: true })
    for (const edit of edits.filter((candidate) => ['case', 'percent', 'octet', 'notation'].includes(candidate.operator))) {
      expect(readPart(edit.model, edit.part), edit.label).not.toBe(readPart(edit.plain.model, edit.part))
      expect(edit.model.method === edit.plain.model.method || edit.part.kind === 'method', edit.label).toBe(true)
    }
  })
})
