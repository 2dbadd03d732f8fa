/** int64 bounds and exact integer reading of JSON number text: a JS number cannot tell 2^63-1 from 2^63. */

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

/** Digits past which an integer is not converted exactly: far beyond int64's 19. */
const MAX_EXACT_DIGITS = 40

/**
 * The exact integer a JSON number text denotes, or undefined when it is not an integer.
 * `5.0`, `5e0` and `50e-1` all denote 5: JSON Schema's "integer" is about the value, not the spelling.
 */
export function exactInteger(text: string): bigint | undefined {
  const match = JSON_NUMBER.exec(text)
  if (!match) return undefined
  const negative = text.startsWith('-')
  const whole = match[1] ?? '0'
  const fraction = (match[2] ?? '').slice(1)
  const exponent = match[3] ? Number.parseInt(match[3].slice(1), 10) : 0
  // Guard against absurd exponents before building digit strings.
  if (Math.abs(exponent) > 400) {
    if (/^0*$/.test(whole + fraction)) return 0n
    return exponent < 0 ? undefined : (negative ? -1n : 1n) * 10n ** 400n
  }
  let digits = (whole + fraction).replace(/^0+(?=\d)/, '')
  // A number far longer than any int64 is judged on its digits, never converted: turning a million digits
  // into a BigInt takes seconds. What matters of it is that it is no int64, which this value keeps.
  if (digits.length + exponent > MAX_EXACT_DIGITS) {
    if (/^0*$/.test(digits)) return 0n
    return fraction.length > 0 && /[^0]/.test(fraction.slice(Math.max(0, exponent))) ? undefined : (negative ? -1n : 1n) * 10n ** BigInt(MAX_EXACT_DIGITS)
  }
  let scale = exponent - fraction.length
  if (scale >= 0) {
    digits += '0'.repeat(scale)
    scale = 0
  } else {
    const dropped = digits.slice(digits.length + scale)
    if (/[^0]/.test(dropped)) return undefined
    digits = digits.slice(0, digits.length + scale) || '0'
  }
  const value = BigInt(digits)
  return negative ? -value : value
}

export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX
}
