/**
 * Invalid NewPet bodies, one violation each, labelled with the rule they break. Each carries a marker
 * (its name, or its categoryId when it has no usable name) so a pet wrongly created from it can be found.
 */
import type { Check } from '../../lib/checks/check.js'
import { JsonNumber } from '../../lib/http/json.js'
import { inputClass } from '../../lib/spec/input-catalogue.js'
import type { RequestBody } from '../../lib/spec/operation-requests.js'

export interface InvalidBody {
  rule: string
  body: (check: Check, marker: InvalidMarker) => RequestBody
  /** How a pet wrongly stored from this body would show in a list; undefined when it would not be recognisable. */
  findBy?: 'name' | 'categoryId'
}

export interface InvalidMarker {
  name: string
  categoryId: bigint
}

const json = (value: unknown): RequestBody => ({ json: value })

export const INVALID_BODIES: InvalidBody[] = [
  { rule: 'name missing', body: (_c, m) => json({ categoryId: m.categoryId, status: 'pending' }), findBy: 'categoryId' },
  { rule: 'categoryId missing', body: (_c, m) => json({ name: m.name, status: 'pending' }), findBy: 'name' },
  { rule: 'name is a number', body: (_c, m) => json({ name: 42, categoryId: m.categoryId, status: 'pending' }), findBy: 'categoryId' },
  { rule: 'name is null', body: (_c, m) => json({ name: null, categoryId: m.categoryId, status: 'pending' }), findBy: 'categoryId' },
  { rule: 'name is an array', body: (_c, m) => json({ name: [m.name], categoryId: m.categoryId, status: 'pending' }), findBy: 'categoryId' },
  { rule: 'categoryId is a numeric string', body: (_c, m) => json({ name: m.name, categoryId: String(m.categoryId), status: 'pending' }), findBy: 'name' },
  { rule: 'categoryId is fractional', body: (_c, m) => json({ name: m.name, categoryId: new JsonNumber('1.5'), status: 'pending' }), findBy: 'name' },
  { rule: 'categoryId is 2^63 (just above int64)', body: (_c, m) => json({ name: m.name, categoryId: 2n ** 63n, status: 'pending' }), findBy: 'name' },
  {
    rule: 'categoryId is -2^63-1 (just below int64)',
    body: (_c, m) => json({ name: m.name, categoryId: -(2n ** 63n) - 1n, status: 'pending' }),
    findBy: 'name',
  },
  { rule: 'categoryId is a boolean', body: (_c, m) => json({ name: m.name, categoryId: true, status: 'pending' }), findBy: 'name' },
  { rule: 'categoryId is null', body: (_c, m) => json({ name: m.name, categoryId: null, status: 'pending' }), findBy: 'name' },
  { rule: 'status outside the enum', body: (_c, m) => json({ name: m.name, categoryId: m.categoryId, status: 'adopted' }), findBy: 'name' },
  // A status checked against an object (`STATUSES[s]`) takes the names every JavaScript object has.
  { rule: 'status is a name every object has (constructor)', body: (_c, m) => json({ name: m.name, categoryId: m.categoryId, status: 'constructor' }), findBy: 'name' },
  { rule: 'status in the wrong letter case', body: (_c, m) => json({ name: m.name, categoryId: m.categoryId, status: 'Available' }), findBy: 'name' },
  { rule: 'status is an empty string', body: (_c, m) => json({ name: m.name, categoryId: m.categoryId, status: '' }), findBy: 'name' },
  { rule: 'body is an array', body: (_c, m) => json([{ name: m.name, categoryId: m.categoryId, status: 'pending' }]), findBy: 'name' },
  // What Python's dict() makes an object of (pydantic 1 reads a model from it): still an array, no NewPet.
  {
    rule: 'body is an array of name and value pairs',
    body: (_c, m) =>
      json([
        ['name', m.name],
        ['categoryId', m.categoryId],
        ['status', 'pending'],
      ]),
    findBy: 'name',
  },
  { rule: 'body is a string', body: () => json('a pet') },
  { rule: 'body is a number', body: () => json(7) },
  { rule: 'body is true', body: () => json(true) },
  { rule: 'body is null', body: () => json(null) },
  { rule: 'body is malformed JSON', body: (_c, m) => ({ raw: `{"name": ${JSON.stringify(m.name)}, "categoryId": ${m.categoryId},` }), findBy: 'name' },
  { rule: 'body is empty', body: () => ({ raw: '' }) },
  // JSON text that is no NewPet, and numbers a double misreads (the input catalogue's rows).
  ...inputClass('body text', 'not the value').spellings.map(
    (spelling): InvalidBody => ({ rule: `body with ${spelling.label}`, body: (_c, m) => ({ raw: spelling.spell(markedNewPet(m)) }), findBy: 'name' }),
  ),
  ...inputClass('NewPet categoryId', 'not the value').spellings.map(
    (spelling): InvalidBody => ({
      rule: `categoryId is ${spelling.label}`,
      body: (_c, m) => ({ raw: `{"name":${JSON.stringify(m.name)},"categoryId":${spelling.spell('')},"status":"pending"}` }),
      findBy: 'name',
    }),
  ),
]

/** A valid NewPet carrying the marker, as plain JSON text: what the catalogue's body spellings are made from. */
function markedNewPet(marker: InvalidMarker): string {
  return `{"name":${JSON.stringify(marker.name)},"categoryId":${marker.categoryId},"status":"pending"}`
}

/**
 * The edges of the body space (policy §2): the empty object, unknown properties only, and each required
 * field alone. Invalid like any other body; `{}` and the unknown-only body carry nothing a stored pet would
 * show, so for them only the answer itself can show a creation.
 */
export const EDGE_BODIES: InvalidBody[] = [
  { rule: 'the empty object {}', body: () => json({}) },
  { rule: 'unknown properties only', body: (_c, m) => json({ nickname: m.name, colour: 'grey' }) },
  { rule: 'name alone', body: (_c, m) => json({ name: m.name }), findBy: 'name' },
  { rule: 'categoryId alone', body: (_c, m) => json({ categoryId: m.categoryId }), findBy: 'categoryId' },
]
