import { parse, stringify } from 'lossless-json'
import { exactInteger } from './int64.js'

/** A JSON number kept as the text the target sent, so int64 values above 2^53 survive. */
export class JsonNumber {
  constructor(readonly text: string) {}
  /** The exact integer, or undefined for a fractional number. */
  get integer(): bigint | undefined {
    return exactInteger(this.text)
  }
  toNumber(): number {
    return Number(this.text)
  }
}

/** A parsed JSON value whose numbers are JsonNumber instances. */
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | { [key: string]: JsonValue }

export type JsonParseResult = { ok: true; value: JsonValue } | { ok: false; error: string }

export function parseJson(text: string): JsonParseResult {
  try {
    return { ok: true, value: parse(text, null, (digits) => new JsonNumber(digits)) as JsonValue }
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
