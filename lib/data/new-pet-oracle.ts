/**
 * The oracle for request bodies of createPet: before a body is sent, it says whether the NewPet schema
 * accepts it (Ajv, with `integer` and int64 decided on the exact digits) and, when it does not, which
 * rules it breaks. Valid means exactly what the JSON Schema accepts (policy §2): `""` is a valid name,
 * `5.0` a valid integer, unknown properties are allowed.
 */
import { isJsonObject, JsonNumber, type JsonValue, parseJson } from '../http/json.js'
import { type SchemaViolation, schemaViolations } from '../spec/schemas.js'

/** One rule a NewPet body can break; every generated invalid body breaks exactly one. */
export const NEW_PET_RULES = [
  'body-empty',
  'body-malformed-json',
  'body-not-object',
  'name-missing',
  'name-wrong-type',
  'categoryId-missing',
  'categoryId-wrong-type',
  'categoryId-fractional',
  'categoryId-outside-int64',
  'status-wrong-type',
  'status-outside-enum',
] as const

export type NewPetRule = (typeof NEW_PET_RULES)[number]

export type NewPetClassification = { valid: true } | { valid: false; rules: NewPetRule[]; violations: string[] }

function ruleOf(violation: SchemaViolation, body: { [key: string]: JsonValue }): NewPetRule | undefined {
  if (violation.keyword === 'required') {
    if (violation.missingProperty === 'name') return 'name-missing'
    if (violation.missingProperty === 'categoryId') return 'categoryId-missing'
    return undefined
  }
  switch (violation.path) {
    case '/name':
      return 'name-wrong-type'
    case '/categoryId':
      if (violation.keyword === 'int64') return 'categoryId-outside-int64'
      if (violation.keyword === 'integer') return 'categoryId-fractional'
      // Ajv's `type` on a number means a number that is not an integer; on anything else, the wrong JSON type.
      return body.categoryId instanceof JsonNumber ? 'categoryId-fractional' : 'categoryId-wrong-type'
    case '/status':
      return typeof body.status === 'string' ? 'status-outside-enum' : 'status-wrong-type'
    default:
      return undefined
  }
}

/** Classify the exact text of a request body. */
export function classifyNewPet(text: string): NewPetClassification {
  if (text.trim() === '') return { valid: false, rules: ['body-empty'], violations: ['the body is empty'] }
  const parsed = parseJson(text)
  if (!parsed.ok) return { valid: false, rules: ['body-malformed-json'], violations: [parsed.error] }
  const violations = schemaViolations('NewPet', parsed.value)
  if (violations.length === 0) return { valid: true }
  const described = violations.map((violation) => `${violation.path} ${violation.message}`)
  if (!isJsonObject(parsed.value)) return { valid: false, rules: ['body-not-object'], violations: described }
  const body = parsed.value
  const rules = new Set<NewPetRule>()
  for (const violation of violations) {
    const rule = ruleOf(violation, body)
    if (rule === undefined) throw new Error(`the NewPet oracle cannot name the rule broken by: ${violation.path} ${violation.message}`)
    rules.add(rule)
  }
  return { valid: false, rules: [...rules], violations: described }
}
