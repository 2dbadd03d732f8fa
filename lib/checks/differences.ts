/**
 * What exactly differs between what was expected and what came back, in words a reader can act on:
 * the first code point where two names part (some differences are invisible), and which fields changed.
 */
import { integerField, type JsonValue, stringifyJson } from '../http/json.js'

/** U+00E9: one code point, spelled so that invisible ones show. */
export function codePoint(char: string | undefined): string {
  return char === undefined ? '(none)' : `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`
}

/** Where two names first differ, code point by code point. */
export function nameDifference(expected: string, got: string): string {
  const a = [...expected]
  const b = [...got]
  let index = 0
  while (index < a.length && index < b.length && a[index] === b[index]) index += 1
  return `name differs at code point ${index}: expected ${codePoint(a[index])}, got ${codePoint(b[index])} (expected ${a.length} code points, got ${b.length})`
}

export interface ExpectedPet {
  id?: bigint
  name?: unknown
  categoryId?: unknown
  status?: unknown
}

/** Every field of `expected` that `actual` does not hold, compared exactly (integers digit for digit); empty when they agree. */
export function petDifferences(expected: ExpectedPet, actual: { [key: string]: JsonValue }): string[] {
  const differences: string[] = []
  if (expected.id !== undefined && integerField(actual.id) !== expected.id) differences.push(`id: expected ${expected.id}, got ${stringifyJson(actual.id)}`)
  if (expected.name !== undefined && actual.name !== expected.name) {
    differences.push(
      typeof expected.name === 'string' && typeof actual.name === 'string'
        ? nameDifference(expected.name, actual.name)
        : `name: expected ${stringifyJson(expected.name)}, got ${stringifyJson(actual.name)}`,
    )
  }
  if (expected.categoryId !== undefined) {
    const want = typeof expected.categoryId === 'bigint' ? expected.categoryId : integerField(expected.categoryId as JsonValue)
    if (integerField(actual.categoryId) !== want) differences.push(`categoryId: expected ${String(want)}, got ${stringifyJson(actual.categoryId)}`)
  }
  if (expected.status !== undefined && actual.status !== expected.status)
    differences.push(`status: expected ${stringifyJson(expected.status)}, got ${stringifyJson(actual.status)}`)
  return differences
}

/** The fields of the Animal schema: what every view of one pet must agree on (other properties are outside the interface). */
const ANIMAL_FIELDS = ['id', 'name', 'categoryId', 'status'] as const

function fieldText(value: JsonValue | undefined): string {
  return value === undefined ? '(absent)' : stringifyJson(value)
}

/**
 * Every field of the Animal schema on which two views of one pet differ, compared exactly: integers digit
 * for digit, names code point for code point, and a field present in one view but absent in the other.
 */
export function viewDifferences(recorded: { [key: string]: JsonValue }, seen: { [key: string]: JsonValue }): string[] {
  const differences: string[] = []
  for (const field of ANIMAL_FIELDS) {
    const a = recorded[field]
    const b = seen[field]
    if (a === undefined && b === undefined) continue
    const integer = field === 'id' || field === 'categoryId' ? integerField(a) : undefined
    const same = integer !== undefined ? integer === integerField(b) : a !== undefined && b !== undefined && stringifyJson(a) === stringifyJson(b)
    if (same) continue
    if (field === 'name' && typeof a === 'string' && typeof b === 'string') differences.push(nameDifference(a, b))
    else differences.push(`${field}: ${fieldText(a)} before, ${fieldText(b)} here`)
  }
  return differences
}
