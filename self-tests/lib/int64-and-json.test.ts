import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.js'
import { exactInteger, INT64_MAX, INT64_MIN, isInt64 } from '../../lib/http/int64.js'
import { JsonNumber, type JsonParseResult, MAX_ECHOED_DEPTH, nestingDepth, parseJson, parseLosslessly, stringifyJson, stringifyLosslessly, toPlain } from '../../lib/http/json.js'
import { responseJson } from '../../lib/http/response-json.js'

describe('exactInteger reads JSON number text exactly', () => {
  test.for([
    ['0', 0n],
    ['-0', 0n],
    ['5.0', 5n],
    ['5e0', 5n],
    ['50e-1', 5n],
    ['1E2', 100n],
    ['9223372036854775807', INT64_MAX],
    ['9223372036854775808', INT64_MAX + 1n],
    ['-9223372036854775808', INT64_MIN],
  ] as const)('%s is the integer %s', ([text, value]) => {
    expect(exactInteger(text)).toBe(value)
  })

  test.for(['1.5', '5e-1', '0.1e1x', 'abc', '', '--1', '01'])('%s is not an integer', (text) => {
    expect(exactInteger(text)).toBeUndefined()
  })

  test('int64 bounds are inclusive and exact', () => {
    expect(isInt64(INT64_MAX)).toBe(true)
    expect(isInt64(INT64_MAX + 1n)).toBe(false)
    expect(isInt64(INT64_MIN)).toBe(true)
    expect(isInt64(INT64_MIN - 1n)).toBe(false)
  })
})

describe('lossless JSON', () => {
  test('an id above 2^53 keeps every digit through parse and stringify', () => {
    const parsed = parseJson('{"id":9007199254740993,"n":1.50}')
    expect(parsed.ok).toBe(true)
    if (!parsed.ok) return
    const value = parsed.value as Record<string, JsonNumber>
    expect(value.id?.integer).toBe(9007199254740993n)
    expect(stringifyJson(parsed.value)).toBe('{"id":9007199254740993,"n":1.50}')
  })

  test('bigint values are written digit for digit', () => {
    expect(stringifyJson({ categoryId: 2n ** 63n - 1n })).toBe('{"categoryId":9223372036854775807}')
  })

  test('malformed and truncated JSON is reported, not thrown', () => {
    expect(parseJson('{"a":').ok).toBe(false)
    expect(parseJson('').ok).toBe(false)
    expect(parseJson('<html>').ok).toBe(false)
  })

  test('the plain view turns numbers into JS numbers for schema validation', () => {
    expect(toPlain([new JsonNumber('1'), { a: new JsonNumber('2.5') }])).toEqual([1, { a: 2.5 }])
  })
})

/** A parse's outcome with each number as its text: two readings agree when these are equal, key order and digits included. */
function shape(result: JsonParseResult): unknown {
  if (!result.ok) return { error: result.error }
  const visit = (value: unknown): unknown => {
    if (value instanceof JsonNumber) return { number: value.text }
    if (Array.isArray(value)) return value.map(visit)
    if (value !== null && typeof value === 'object') return Object.entries(value).map(([key, item]) => [key, visit(item)])
    return value
  }
  return { value: visit(result.value), prototype: result.value !== null && typeof result.value === 'object' ? Object.getPrototypeOf(result.value) === Object.prototype : undefined }
}

/** Numbers as targets write them: plain, past 2^53, fractions, exponents, minus zero. */
const numberTexts = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.constantFrom('-0', '0.0', '1.0', '1e2', '1E+2', '5e-1', '9007199254740993', '123456789012345', '1234567890123456', '-9223372036854775808'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
)
/** JSON texts built from parts, so that member names repeat and numbers take every form; some are then cut or spoiled. */
const jsonTexts = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    numberTexts,
    fc.constantFrom('true', 'false', 'null', '"a:b"', '"\\u00e9\\"x"', '"-0"', '"1e5"'),
    fc.string().map((text) => JSON.stringify(text)),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc
      .array(fc.tuple(fc.constantFrom('id', 'name', '__proto__', '', 'Id', 'a:b', '2', '0', '01'), tie('value')), { maxLength: 4 })
      .map((members) => `{${members.map(([key, item]) => `${JSON.stringify(key)}:${item}`).join(' , ')}}`),
  ),
})).value
const spoiledTexts = fc.oneof(
  jsonTexts,
  fc.tuple(jsonTexts, fc.nat(), fc.constantFrom('', ',', ':', '"', '\\', '-', '.', 'e', '0', ' ', '\u0000', '}')).map(([text, at, part]) => {
    const index = at % (text.length + 1)
    return `${text.slice(0, index)}${part}${text.slice(index + 1)}`
  }),
)

describe('the fast reading of JSON is the lossless one, whatever the text', () => {
  test('every generated text (numbers of every form, repeated member names, __proto__, cut or spoiled text) reads the same both ways', () => {
    fc.assert(
      fc.property(spoiledTexts, (text) => {
        expect(shape(parseJson(text))).toEqual(shape(parseLosslessly(text)))
      }),
      { seed: 20261124, numRuns: 3_000 },
    )
  })

  test.for([
    ['a member named twice', '{"id":1,"id":2}'],
    ['digits past 2^53', '[9007199254740993]'],
    ['a fraction that a double rounds', '{"n":1.50}'],
    ['minus zero', '[-0]'],
    ['__proto__ as a member', '{"__proto__":{"id":1}}'],
    ['an array-index name, which JSON.parse puts first', '{"b":1.0,"2":1}'],
  ] as const)('%s: read as the lossless parser reads it', ([, text]) => {
    expect(shape(parseJson(text))).toEqual(shape(parseLosslessly(text)))
  })
})

/** Values the suite and the variants write: JsonNumbers of every text, bigints, and what has no JSON form. */
const writtenValues = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue(),
    numberTexts.map((text) => new JsonNumber(text)),
    fc.bigInt(),
    fc.constantFrom(undefined, () => 1, Number.NaN, -0, new Date(0), { toJSON: () => 'as JSON' }, { toJSON: () => undefined }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('id', 'name', '__proto__', '', '2', 'a"b'), tie('value'), { maxKeys: 4 }),
  ),
})).value

describe('the fast writing of JSON is the lossless one, whatever the value', () => {
  test('every generated value (JsonNumbers, bigints, values with no JSON form, toJSON) is written the same both ways', () => {
    fc.assert(
      fc.property(writtenValues, (value) => {
        expect(stringifyJson(value)).toBe(stringifyLosslessly(value))
      }),
      { seed: 20261124, numRuns: 2_000 },
    )
  })

  test('a JsonNumber whose text is not a JSON number is refused both ways', () => {
    expect(() => stringifyJson([new JsonNumber('1.')])).toThrow(/Invalid JSON number/)
    expect(() => stringifyLosslessly([new JsonNumber('1.')])).toThrow(/Invalid JSON number/)
  })
})

describe('parsing stays bounded and linear, whatever the target sends (policy §5)', () => {
  test('nesting is counted in one pass, brackets inside strings and escaped quotes left out', () => {
    expect(nestingDepth('[{"a":[1]}]', 64)).toBe(3)
    expect(nestingDepth('["[[[[", "\\"[[["]', 64)).toBe(1)
    expect(nestingDepth(`${'['.repeat(65)}${']'.repeat(65)}`, 64)).toBe(65)
    expect(parseJson(`${'['.repeat(64)}${']'.repeat(64)}`).ok).toBe(true)
    // Deeper than 64, up to what a run itself sends and a service may write back (a member 10,000 deep): JSON checked
    // whole, what lies past 64 levels read as null.
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`
    expect(parseJson(nested(65))).toEqual({ ok: true, value: JSON.parse(`${'['.repeat(64)}null${']'.repeat(64)}`) })
    const echoed = parseJson(`{"id":7,"name":"a[{","nested":${nested(10_000)},"categoryId":1}`)
    expect(echoed.ok && !Array.isArray(echoed.value) && echoed.value !== null && typeof echoed.value === 'object' ? Object.keys(echoed.value) : []).toEqual([
      'id',
      'name',
      'nested',
      'categoryId',
    ])
    // Text that is not JSON deep inside is no JSON, and deeper than that bound is hostile: a parse failure either way.
    expect(parseJson(`[${nested(100).slice(0, -1)}x]]`).ok).toBe(false)
    expect(parseJson(nested(MAX_ECHOED_DEPTH + 1))).toEqual({ ok: false, error: 'JSON nested deeper than 10,064 levels' })
  })

  test('nesting is what a reading character by character finds, on every generated text, cut and spoiled ones included (an open string, a lone backslash)', () => {
    /** The definition: brackets outside strings, a backslash in a string taking the next character with it, an open string running to the end. */
    const depthByCharacters = (text: string, limit: number) => {
      let depth = 0
      let deepest = 0
      let inString = false
      for (let index = 0; index < text.length && deepest <= limit; index++) {
        const character = text[index]
        if (inString) {
          if (character === '\\') index += 1
          else if (character === '"') inString = false
        } else if (character === '"') inString = true
        else if (character === '[' || character === '{') deepest = Math.max(deepest, ++depth)
        else if (character === ']' || character === '}') depth -= 1
      }
      return deepest
    }
    const nested = fc.tuple(fc.integer({ min: 0, max: 70 }), spoiledTexts).map(([levels, text]) => `${'[{"a":'.repeat(levels)}${text}`)
    fc.assert(
      fc.property(fc.oneof(spoiledTexts, nested), fc.constantFrom(3, 64), (text, limit) => {
        expect(nestingDepth(text, limit)).toBe(depthByCharacters(text, limit))
      }),
      { seed: 20261125, numRuns: 3_000 },
    )
    for (const text of ['["[', '["\\', '["\\"]', '[["a\\\\"]]', '{"a":"\\u005d"}', '"]]]"[[', '\\"[[']) expect(nestingDepth(text, 64), text).toBe(depthByCharacters(text, 64))
  })

  test('an integer of more digits than any int64 is judged without being converted: outside int64, sign kept, fractions still refused', () => {
    const huge = exactInteger('9'.repeat(1_000_000))
    expect(huge !== undefined && !isInt64(huge) && huge > 0n).toBe(true)
    const negative = exactInteger(`-${'9'.repeat(100)}`)
    expect(negative !== undefined && negative < INT64_MIN).toBe(true)
    expect(exactInteger(`${'1'.repeat(60)}.5`)).toBeUndefined()
    expect(exactInteger(`${'1'.repeat(60)}.000`)).toBe(10n ** 40n)
    expect(exactInteger('9223372036854775807')).toBe(INT64_MAX)
    expect(new JsonNumber('123456789012345678901234567890123456789012345').integer).toBe(10n ** 40n)
  })
})

describe('each distinct body is parsed once (and so judged once), within a bound on memory', () => {
  const exchangeWith = (id: number, body: string): Exchange => ({
    id,
    request: { method: 'GET', url: 'http://127.0.0.1/v1/pets', headers: {}, timeoutMs: 1000 },
    response: { status: 200, headers: {}, body, bodyBytes: body.length },
    retries: [],
    durationMs: 1,
  })
  const readingOf = (exchange: Exchange) => {
    const parsed = responseJson(exchange)
    if (!parsed.ok) throw new Error(parsed.error)
    return parsed.value
  }

  test('two answers with the same body share one reading; another body gets its own', () => {
    const page = JSON.stringify([{ id: 1, name: 'Rex', categoryId: 9223372036854775807n.toString() }])
    expect(readingOf(exchangeWith(1, page))).toBe(readingOf(exchangeWith(2, page)))
    expect(readingOf(exchangeWith(3, `${page} `))).not.toBe(readingOf(exchangeWith(4, page)))
  })

  test('of large bodies only the last four are remembered; old bodies are let go once the remembered text passes its bound', () => {
    const large = (index: number) => `[${index},${'1,'.repeat(40_000)}1]`
    // The same large body twice in a row (a target answering every request alike) is read once.
    const firstReading = readingOf(exchangeWith(5, large(0)))
    expect(readingOf(exchangeWith(6, large(0)))).toBe(firstReading)
    // Four other large bodies later it is read anew, to the same value.
    for (let index = 1; index <= 4; index++) readingOf(exchangeWith(10 + index, large(index)))
    const reread = readingOf(exchangeWith(20, large(0)))
    expect(reread).not.toBe(firstReading)
    expect(reread).toEqual(firstReading)
    const first = '{"first":1}'
    const firstValue = readingOf(exchangeWith(7, first))
    // 3 MiB of other bodies, each 60 KiB and distinct: past the 2 MiB the remembered bodies may hold together.
    for (let index = 0; index < 52; index++) readingOf(exchangeWith(100 + index, JSON.stringify({ index, pad: 'x'.repeat(60 * 1024) })))
    expect(readingOf(exchangeWith(8, first))).not.toBe(firstValue)
  })
})
