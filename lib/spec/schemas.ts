import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { excerpt } from '../http/excerpt.js'
import { isInt64 } from '../http/int64.js'
import { JsonNumber, type JsonValue, toPlain } from '../http/json.js'
import { packageRoot } from './package-root.js'

// ajv-formats ships CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

/** The schemas of the interface (the components of openapi.json). */
export const apiSchemaFiles = {
  Pet: 'pet.schema.json',
  NewPet: 'new-pet.schema.json',
  Pets: 'pets.schema.json',
  Error: 'error.schema.json',
  PetStatus: 'pet-status.schema.json',
} as const

/** Every schema: the interface's, and the contracts of results.json and fleet.json. */
export const schemaFiles = { ...apiSchemaFiles, Results: 'results.schema.json', Fleet: 'fleet.schema.json' } as const

export type SchemaName = keyof typeof schemaFiles

export const schemasDir = join(packageRoot, 'schemas')

type JsonSchema = {
  $id?: string
  $ref?: string
  type?: string
  format?: string
  properties?: Record<string, JsonSchema>
  items?: JsonSchema
}

function loadSchema(file: string): JsonSchema & { $id: string } {
  return JSON.parse(readFileSync(join(schemasDir, file), 'utf8'))
}

const schemasByFile = new Map<string, JsonSchema & { $id: string }>(Object.values(schemaFiles).map((file) => [file, loadSchema(file)]))

export function schemaDocument(name: SchemaName): JsonSchema & { $id: string } {
  const schema = schemasByFile.get(schemaFiles[name])
  if (!schema) throw new Error(`schema ${name} not loaded`)
  return schema
}

function createAjv(): Ajv2020 {
  // The shipped schemas are not checked against the draft 2020-12 meta-schema at each start (compiling that
  // meta-schema was about half of the suite's start-up in Ajv): a self-test does it once, with Ajv's defaults
  // (self-tests/lib/schemas.test.ts), and strict mode still refuses an unknown keyword when a schema compiles.
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateSchema: false })
  addFormats(ajv)
  for (const schema of schemasByFile.values()) ajv.addSchema(schema)
  return ajv
}

const ajv = createAjv()
const validators = new Map<SchemaName, ValidateFunction>()

function validatorFor(name: SchemaName): ValidateFunction {
  let validate = validators.get(name)
  if (!validate) {
    validate = ajv.getSchema(schemaDocument(name).$id)
    if (!validate) throw new Error(`schema ${name} did not compile`)
    validators.set(name, validate)
  }
  return validate
}

/** One reason a value does not match a schema, at a JSON Pointer. */
export interface SchemaViolation {
  /** JSON Pointer of the offending value; `/` for the whole document. */
  path: string
  message: string
  /** The JSON Schema keyword that failed (`type`, `required`, `enum`, …; `integer` and `int64` for the exact checks). */
  keyword: string
  /** For `required`: the property that is missing. */
  missingProperty?: string
}

function describe(error: ErrorObject): SchemaViolation {
  const path = error.instancePath || '/'
  const { keyword } = error
  if (keyword === 'required') {
    const missingProperty = String(error.params.missingProperty)
    return { path, keyword, missingProperty, message: `missing required property '${missingProperty}'` }
  }
  if (keyword === 'enum') return { path, keyword, message: `must be one of ${JSON.stringify(error.params.allowedValues)}` }
  return { path, keyword, message: error.message ?? keyword }
}

/** An integer of at most 18 digits: inside int64 (whose bounds have 19). */
const SURELY_INT64 = /^-?\d{1,18}$/

/**
 * `integer` and `int64` checked on the exact digits, which Ajv cannot do: it sees JS numbers, in which
 * 2^63 equals 2^63 − 1 and 1.00000000000000001 equals 1.
 */
function exactNumberViolations(schema: JsonSchema, value: JsonValue, path: string, found: SchemaViolation[] = []): SchemaViolation[] {
  const resolved = schema.$ref ? schemasByFile.get(schema.$ref) : schema
  if (!resolved) return found
  if (value instanceof JsonNumber) {
    // Up to 18 digits, no point or exponent: an integer inside int64 whatever its digits, known without converting it.
    if (SURELY_INT64.test(value.text)) return found
    const integer = value.integer
    if (resolved.type === 'integer' && integer === undefined) found.push({ path: path || '/', keyword: 'integer', message: `${excerpt(value.text, 40)} is not an integer` })
    else if (resolved.format === 'int64' && integer !== undefined && !isInt64(integer)) {
      found.push({ path: path || '/', keyword: 'int64', message: `${excerpt(value.text, 40)} is outside the int64 range` })
    }
    return found
  }
  if (resolved.properties && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, JsonValue>
    for (const key of Object.keys(resolved.properties)) {
      if (Object.hasOwn(record, key)) exactNumberViolations(resolved.properties[key] as JsonSchema, record[key] as JsonValue, `${path}/${key}`, found)
    }
  } else if (resolved.items && Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) exactNumberViolations(resolved.items, value[index] as JsonValue, `${path}/${index}`, found)
  }
  return found
}

/**
 * Violations already found, by parsed value and schema: a body is parsed once per exchange (responseJson), and
 * the rules of every answer and the check that reads it judge the same value, so each schema judges it once.
 */
const judged = new WeakMap<object, Map<SchemaName, SchemaViolation[]>>()

/** Every violation of the named schema by a parsed (lossless) JSON value; empty when it conforms. */
export function schemaViolations(name: SchemaName, value: JsonValue): SchemaViolation[] {
  if (value === null || typeof value !== 'object' || value instanceof JsonNumber) return judge(name, value)
  let bySchema = judged.get(value)
  if (!bySchema) {
    bySchema = new Map()
    judged.set(value, bySchema)
  }
  let violations = bySchema.get(name)
  if (!violations) {
    violations = judge(name, value)
    bySchema.set(name, violations)
  }
  return violations
}

function judge(name: SchemaName, value: JsonValue): SchemaViolation[] {
  const validate = validatorFor(name)
  const plainViolations = validate(toPlain(value)) ? [] : (validate.errors ?? []).map(describe)
  // An exact finding at a path Ajv already faulted (e.g. `type` on 1.5) says nothing new.
  const exact = exactNumberViolations(schemaDocument(name), value, '').filter((found) => !plainViolations.some((plain) => plain.path === found.path))
  return [...plainViolations, ...exact]
}

export function formatViolations(violations: readonly SchemaViolation[]): string {
  return violations.map((violation) => `${violation.path} ${violation.message}`).join('; ')
}
