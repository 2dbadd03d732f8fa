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

/** Deepest nesting of arrays and objects read into a value: a Pets body needs 3; what lies deeper is read as null (prunedText). */
export const MAX_JSON_DEPTH = 64

/**
 * The deepest an answer may nest and still be read: past the deepest JSON a run itself sends (a member nested 10,000
 * arrays deep, the nest operator's), which a service that keeps unknown members (policy §2: the schemas are open) writes
 * back in its 201, its reads and its lists. Deeper is hostile, and a parse failure (policy §5).
 */
export const MAX_ECHOED_DEPTH = 10_064

/** How deep arrays and objects nest, strings skipped; stops counting past `limit`. One pass, linear in the text. */
export function nestingDepth(text: string, limit: number): number {
  return scanJsonText(text, limit).depth
}

/** What one pass over a JSON text (strings skipped) tells before it is parsed. */
interface TextScan {
  /** How deep arrays and objects nest (counting stops past the limit). */
  depth: number
  /** Object members written (colons outside strings): JSON.parse keeps one of two members of the same name, so fewer in its value means a duplicate. */
  members: number
  /** The text of every number, in the order the text writes them. */
  numbers: string[]
}

/** A character a JSON number is written with: digits, sign, point, exponent. */
function inNumber(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2d || code === 0x2b || code === 0x2e || code === 0x65 || code === 0x45
}

/** One pass, linear in the text: nesting, members and the numbers' texts (see TextScan). */
function scanJsonText(text: string, limit: number): TextScan {
  let depth = 0
  let deepest = 0
  let members = 0
  const numbers: string[] = []
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index += 1
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x3a) members += 1
    else if (code === 0x5b || code === 0x7b) {
      depth += 1
      if (depth > deepest) deepest = depth
      if (deepest > limit) return { depth: deepest, members, numbers }
    } else if (code === 0x5d || code === 0x7d) depth -= 1
    else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      // Outside strings, a minus or a digit starts a number ('e' also ends true and false, which start with a letter).
      let end = index + 1
      while (end < text.length && inNumber(text.charCodeAt(end))) end += 1
      numbers.push(text.slice(index, end))
      index = end - 1
    }
  }
  return { depth: deepest, members, numbers }
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

/** A name JSON.parse's object would put before the others (an array index), so that its members no longer follow the text. */
function isIndexName(key: string): boolean {
  return /^(?:0|[1-9]\d{0,9})$/.test(key) && Number(key) < 2 ** 32 - 1
}

/** A member set as its own property, `__proto__` included (plain assignment of that name would set the prototype). */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  else object[key] = value
}

/** Thrown inside numbersAsWritten when the value does not follow the text: the lossless parser reads it instead. */
class NotAsWritten extends Error {}

/**
 * JSON.parse's value with each number a JsonNumber of its text as written. The value is walked in the text's
 * order, so the n-th number met is the n-th the scan found; each is checked to be that text's value, and the
 * walk gives up (NotAsWritten) wherever the value may not follow the text: a member named twice (JSON.parse
 * keeps one, lossless-json refuses the text), or an object with an array-index name (JSON.parse puts those first).
 */
function numbersAsWritten(value: unknown, scan: TextScan): JsonValue {
  let next = 0
  let members = 0
  const visit = (item: unknown): JsonValue => {
    if (typeof item === 'number') {
      const text = scan.numbers[next++]
      if (text === undefined || Number(text) !== item) throw new NotAsWritten()
      return new JsonNumber(text)
    }
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) item[index] = visit(item[index])
    } else if (item !== null && typeof item === 'object') {
      const object = item as Record<string, unknown>
      for (const key of Object.keys(object)) {
        if (isIndexName(key)) throw new NotAsWritten()
        members += 1
        const child = object[key]
        if (typeof child === 'number' || (child !== null && typeof child === 'object')) setMember(object, key, visit(child))
      }
    }
    return item as JsonValue
  }
  const read = visit(value)
  if (next !== scan.numbers.length || members !== scan.members) throw new NotAsWritten()
  return read
}

/**
 * A JSON text parsed with every number's digits kept (JsonNumber): by the engine's JSON.parse, with each number's
 * text taken from the scan (numbersAsWritten), on every Node version; by lossless-json, several times slower, only
 * where the value may not follow the text, and for text that is not JSON (its error's words are the ones the
 * reports have always quoted). Self-tests hold the two readings equal on generated texts.
 */
export function parseJson(text: string): JsonParseResult {
  const scan = scanJsonText(text, MAX_JSON_DEPTH)
  if (scan.depth > MAX_JSON_DEPTH) return readDeep(text)
  try {
    return { ok: true, value: numbersAsWritten(JSON.parse(text), scan) }
  } catch {
    return readLosslessly(text)
  }
}

/**
 * A text nested deeper than MAX_JSON_DEPTH and within MAX_ECHOED_DEPTH: checked to be JSON whole (the engine's
 * JSON.parse reads any depth without recursion), then read with what lies deeper than MAX_JSON_DEPTH as null. Nothing
 * the spec names nests that deep, so no rule reads what was cut; the views of one pet are cut alike.
 */
function readDeep(text: string): JsonParseResult {
  if (nestingDepth(text, MAX_ECHOED_DEPTH) > MAX_ECHOED_DEPTH) return { ok: false, error: `JSON nested deeper than ${MAX_ECHOED_DEPTH.toLocaleString('en')} levels` }
  try {
    JSON.parse(text)
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) }
  }
  return parseJson(prunedText(text, MAX_JSON_DEPTH))
}

/** The text with every array and object that opens deeper than `keep` levels written as null, strings read as strings. One pass. */
function prunedText(text: string, keep: number): string {
  const parts: string[] = []
  let from = 0
  let depth = 0
  let cutAt = -1
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === 0x5c) index += 1
      else if (code === 0x22) inString = false
    } else if (code === 0x22) inString = true
    else if (code === 0x5b || code === 0x7b) {
      depth += 1
      if (depth === keep + 1) cutAt = index
    } else if (code === 0x5d || code === 0x7d) {
      if (depth === keep + 1) {
        parts.push(text.slice(from, cutAt), 'null')
        from = index + 1
      }
      depth -= 1
    }
  }
  parts.push(text.slice(from))
  return parts.join('')
}

/** lossless-json's reading of the text: the reference parseJson agrees with (self-tests hold the two together). */
export function parseLosslessly(text: string): JsonParseResult {
  if (nestingDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) return { ok: false, error: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` }
  return readLosslessly(text)
}

/** lossless-json's reading of a text whose nesting is already known to be within the bound. */
function readLosslessly(text: string): JsonParseResult {
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
    const plain: Record<string, unknown> = {}
    for (const key of Object.keys(value)) setMember(plain, key, toPlain(value[key] as JsonValue))
    return plain
  }
  return value
}

const numberStringifiers = [
  { test: (value: unknown) => value instanceof JsonNumber, stringify: (value: unknown) => (value as JsonNumber).text },
  { test: (value: unknown) => typeof value === 'bigint', stringify: (value: unknown) => String(value) },
]

/** JSON text of a value that may hold JsonNumber or bigint, digits untouched. */
export function stringifyJson(value: unknown, indent?: number): string {
  if (indent === undefined) return writeCompact(value) ?? 'null'
  return stringifyLosslessly(value, indent)
}

/** lossless-json's writing of the value: the reference writeCompact agrees with (self-tests hold the two together), and the indented form. */
export function stringifyLosslessly(value: unknown, indent?: number): string {
  return stringify(value, null, indent, numberStringifiers) ?? 'null'
}

const JSON_NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/

/**
 * The compact JSON text of a value, as lossless-json writes it with the suite's number stringifiers, several
 * times faster: JSON.stringify for strings, numbers, booleans and dates, the digits of a JsonNumber or a bigint
 * as they are, members without a JSON form left out (null in an array), toJSON honoured. Undefined when the value
 * has no JSON form.
 */
function writeCompact(value: unknown): string | undefined {
  if (value instanceof JsonNumber) {
    if (!JSON_NUMBER_TEXT.test(value.text)) throw new Error(`Invalid JSON number: output of a number stringifier must be a string containing a JSON number (output: ${value.text})`)
    return value.text
  }
  switch (typeof value) {
    case 'bigint':
      return String(value)
    case 'string':
    case 'number':
    case 'boolean':
      return JSON.stringify(value)
    case 'object':
      break
    default:
      return undefined
  }
  if (value === null) return 'null'
  if (value instanceof Date || value instanceof Boolean || value instanceof Number || value instanceof String) return JSON.stringify(value)
  if (Array.isArray(value)) {
    let text = '['
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index]
      text += `${index > 0 ? ',' : ''}${typeof item === 'undefined' || typeof item === 'function' ? 'null' : (writeCompact(item) ?? 'null')}`
    }
    return `${text}]`
  }
  const object = value as Record<string, unknown> & { toJSON?: unknown }
  if (typeof object.toJSON === 'function') return writeCompact((object.toJSON as () => unknown)())
  let text = '{'
  for (const key of Object.keys(object)) {
    const written = writeCompact(object[key])
    if (written === undefined) continue
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${written}`
  }
  return `${text}}`
}

export function isJsonObject(value: unknown): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof JsonNumber)
}

/** Exact integer of a JSON field, or undefined when the field is absent or not an integer. */
export function integerField(value: JsonValue | undefined): bigint | undefined {
  return value instanceof JsonNumber ? value.integer : undefined
}
