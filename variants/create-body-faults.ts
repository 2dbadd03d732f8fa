/**
 * Faults in how POST /pets reads its body: each rewrites the NewPet before the reference sees it, the way
 * an implementation with that one defect would store it. The generated-body properties must catch each
 * with a minimal counterexample.
 */
import { exactInteger } from '../lib/int64.js'
import { isJsonObject, JsonNumber, type JsonValue, parseJson, stringifyJson } from '../lib/json.js'
import type { Handler } from '../reference/http-types.js'
import type { Variant } from './variant.js'

type Fields = { [key: string]: JsonValue }

/** The reference, with each POST /pets body object passed through `rewrite` first. */
function rewritingNewPet(rewrite: (fields: Fields) => Fields): (reference: Handler) => Handler {
  return (reference) => async (request) => {
    if (request.method !== 'POST' || request.path !== '/pets') return reference(request)
    const parsed = parseJson(request.body)
    if (!parsed.ok || !isJsonObject(parsed.value)) return reference(request)
    return reference({ ...request, body: stringifyJson(rewrite(parsed.value)) })
  }
}

const STATUSES: readonly JsonValue[] = ['available', 'pending', 'sold']

export const createBodyFaults: Variant[] = [
  {
    name: 'name-trimmed',
    description: 'POST /pets trims white space around the name',
    catches: ['createPet/echoes-fields'],
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: fields.name.trim() } : fields)),
  },
  {
    name: 'name-ascii-only',
    description: 'POST /pets replaces every non-ASCII character of the name with "?"',
    catches: ['createPet/echoes-fields'],
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the range is the point: everything outside ASCII
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: fields.name.replace(/[^\u0000-\u007f]/gu, '?') } : fields)),
  },
  {
    name: 'name-truncated-255',
    description: 'POST /pets keeps only the first 255 UTF-16 units of the name',
    catches: ['createPet/echoes-fields'],
    wrap: rewritingNewPet((fields) => (typeof fields.name === 'string' ? { ...fields, name: fields.name.slice(0, 255) } : fields)),
  },
  {
    name: 'categoryId-numeric-string-accepted',
    description: 'POST /pets accepts categoryId "42" as the number 42',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) =>
      typeof fields.categoryId === 'string' && /^-?\d+$/.test(fields.categoryId) ? { ...fields, categoryId: new JsonNumber(fields.categoryId) } : fields,
    ),
  },
  {
    name: 'categoryId-fraction-truncated',
    description: 'POST /pets accepts a fractional categoryId and drops the fraction',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) => {
      const { categoryId } = fields
      if (!(categoryId instanceof JsonNumber) || exactInteger(categoryId.text) !== undefined) return fields
      const whole = /^-?\d+/.exec(categoryId.text)?.[0] ?? '0'
      return { ...fields, categoryId: new JsonNumber(whole) }
    }),
  },
  {
    name: 'unknown-status-dropped',
    description: 'POST /pets accepts a status string outside the enum and stores the pet without one',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) => {
      if (typeof fields.status !== 'string' || STATUSES.includes(fields.status)) return fields
      const { status: _dropped, ...rest } = fields
      return rest
    }),
  },
  {
    name: 'missing-name-defaulted',
    description: 'POST /pets accepts a body without name and stores the pet with an empty name',
    catches: ['createPet/invalid-body-400'],
    wrap: rewritingNewPet((fields) => ('name' in fields ? fields : { ...fields, name: '' })),
  },
]
