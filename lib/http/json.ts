import { parse, stringify } from 'lossless-json'
import { exactInteger } from './int64.js'

/** A JSON number kept as the text the target sent, so int64 values above 2^53 survive. */
export class JsonNumber {
  private exact: bigint | undefined | null = null
  constructor(readonly text: string) {}
  /** The exact integer, or undefined for a fractional number; worked out once, however often it is read. */
  get integer(): bigint | undefined {
    if (this.exact === null) this.exact = exactInteger(this.text)
    return this.exact
  }
  toNumber(): number {
    return Number(this.text)
  }
}

/** A parsed JSON value whose numbers are JsonNumber instances. */
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | { [key: string]: JsonValue }

export type JsonParseResult = { ok: true; value: JsonValue } | { ok: false; error: string }

/** Deepest nesting of arrays and objects parsed: a Pets body needs 3; anything far deeper is hostile. */
export const MAX_JSON_DEPTH = 64

/** How deep arrays and objects nest, strings skipped; stops counting past `limit`. One pass, linear in the text. */
export function nestingDepth(text: string, limit: number): number {
  let depth = 0
  let deepest = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index += 1
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) {
      depth += 1
      if (depth > deepest) deepest = depth
      if (deepest > limit) return deepest
    } else if (code === 0x5d || code === 0x7d) depth -= 1
  }
  return deepest
}

/**
 * lossless-json builds each string one character at a time, which leaves it in V8 as a chain of one cons
 * cell per character: about 70 bytes a character, so a run that keeps a few thousand lists of long names
 * grew past 500 MiB. Reading one character flattens the chain in place (one byte a character); the text is
 * the same, code unit for code unit.
 */
function flattenStrings(_key: string, value: unknown): unknown {
  if (typeof value === 'string' && value.length > 1) value.charCodeAt(0)
  return value
}

export function parseJson(text: string): JsonParseResult {
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { ok: false, error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }
  try {
    return { ok: true, value: parse(text, flattenStrings, (digits) => new JsonNumber(digits)) as JsonValue }
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
}

/** The same value with plain JS numbers, for JSON Schema validation (which sees values, not digits). */
export function toPlain(value: JsonValue): unknown {
  if (value instanceof JsonNumber) return value.toNumber()
  if (Array.isArray(value)) return value.map(toPlain)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toPlain(item)]))
  }
  return value
}

const numberStringifiers = [
  { test: (value: unknown) => value instanceof JsonNumber, stringify: (value: unknown) => (value as JsonNumber).text },
  { test: (value: unknown) => typeof value === 'bigint', stringify: (value: unknown) => String(value) },
]

/** JSON text of a value that may hold JsonNumber or bigint, digits untouched. */
export function stringifyJson(value: unknown, indent?: number): string {
  return stringify(value, null, indent, numberStringifiers) ?? 'null'
}

export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof JsonNumber)
}

/** Exact integer of a JSON field, or undefined when the field is absent or not an integer. */
export function integerField(value: JsonValue | undefined): bigint | undefined {
  return value instanceof JsonNumber ? value.integer : undefined
}
