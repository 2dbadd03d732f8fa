/**
 * Other notations of a number (policy §2, other notations; §2b), in classes: a radix prefix (every `0<letter>`,
 * and the value in its radix where the letter names one; Lisp's `#x1e`), signs, digit separators, trailing points, exponents,
 * infinities and NaN (what a parser that reads a double first overflows on), parentheses (Haskell's read), thousands of digits (past a bounded
 * reader's limit), a format suffix (`5.json`, which routers read as a format), a slash (`5%2F` in a path, which a
 * router that decodes first reads as `5/`), dot segments after an escaped slash (`5%2F..%2F4`) and as the path's own (`4/../5`), digits of other scripts, whitespace a parser may drop, leading zeros.
 * Some are a decimal integer in one reading of the spec (`+5`, `05`, `5.0`, `5e0`): the oracle, not this list, says
 * which (edit-oracle.ts).
 */
import { LENIENT_NOTATIONS, OTHER_NOTATIONS, type Spelling } from '../spec/spellings.js'

export interface NotationClass {
  name: string
  spellings: readonly Spelling[]
  /** A class that shows only in the request-target, of the value the plain request names: not in a body, nor of another value. */
  targetOnly?: true
  /** Written into the request-target as it is, its slashes and dots the path's own: only into a path segment. */
  asWritten?: true
  /** The spellings of the number's own value, where one of the class is what servers take: sent in every run, the class's others rotating on another value. */
  sameValue?: readonly Spelling[]
}

const byLabel = (spellings: readonly Spelling[], pattern: RegExp) => spellings.filter((spelling) => pattern.test(spelling.label))

/** The number below (above, for 0 and 1): another pet's id beside the one a read names. */
const numberBeside = (digits: string) => (BigInt(digits) > 1n ? BigInt(digits) - 1n : BigInt(digits) + 1n)

const LETTERS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ']

const FORMAT_SUFFIXES: readonly Spelling[] = ['json', 'xml', 'html', 'txt'].map((format) => ({
  label: `a format suffix, 5.${format}`,
  spell: (digits: string) => `${digits}.${format}`,
}))

export const NOTATION_CLASSES: readonly NotationClass[] = [
  { name: 'radix prefix', spellings: byLabel(OTHER_NOTATIONS, /^(hexadecimal|octal|binary)/) },
  {
    // Lisp's number reader (Racket's string->number, under its integer-arg): a radix or exactness prefix after `#`.
    name: 'a Lisp radix prefix',
    spellings: [
      { label: 'hexadecimal, #x', spell: (digits) => `#x${BigInt(digits).toString(16)}` },
      { label: 'binary, #b', spell: (digits) => `#b${BigInt(digits).toString(2)}` },
      { label: 'octal, #o', spell: (digits) => `#o${BigInt(digits).toString(8)}` },
      { label: 'decimal, #d', spell: (digits) => `#d${digits}` },
      { label: 'exact, #e', spell: (digits) => `#e${digits}` },
    ],
  },
  { name: 'a letter after a zero', spellings: LETTERS.map((letter) => ({ label: `0${letter} before the digits`, spell: (digits: string) => `0${letter}${digits}` })) },
  {
    name: 'sign',
    spellings: [
      ...byLabel(LENIENT_NOTATIONS, /plus sign/),
      { label: 'a minus sign, -5', spell: (digits) => `-${digits}` },
      { label: 'two minus signs, --5', spell: (digits) => `--${digits}` },
      { label: 'a plus and a minus, +-5', spell: (digits) => `+-${digits}` },
      { label: 'a minus sign U+2212', spell: (digits) => `\u2212${digits}` },
    ],
  },
  {
    name: 'digit separator',
    spellings: [
      ...byLabel(OTHER_NOTATIONS, /separator/),
      { label: 'a comma, 1,0', spell: (digits) => `${digits.slice(0, 1)},${digits.slice(1) || '0'}` },
      { label: "an apostrophe, 1'0", spell: (digits) => `${digits.slice(0, 1)}'${digits.slice(1) || '0'}` },
      { label: 'a thin space, 1 0 (U+2009)', spell: (digits) => `${digits.slice(0, 1)}\u2009${digits.slice(1) || '0'}` },
    ],
  },
  {
    name: 'trailing point',
    spellings: [...byLabel(OTHER_NOTATIONS, /trailing point/), { label: 'two trailing points, 5..', spell: (digits) => `${digits}..` }, ...byLabel(LENIENT_NOTATIONS, /fraction/)],
  },
  {
    name: 'exponent',
    spellings: [
      ...byLabel(OTHER_NOTATIONS, /exponent/),
      ...byLabel(LENIENT_NOTATIONS, /exponent/),
      { label: 'an upper-case exponent, 5E0', spell: (digits) => `${digits}E0` },
      { label: 'an exponent with a sign, 50e-1', spell: (digits) => `${digits}0e-1` },
      { label: 'an exponent without digits, 5e', spell: (digits) => `${digits}e` },
    ],
  },
  {
    // A parser that reads the number as a double first (Python's int(float(s)), a JSON number) overflows on these: int() of an infinity raises.
    name: 'infinite',
    spellings: [
      { label: 'Infinity', spell: () => 'Infinity' },
      { label: 'inf', spell: () => 'inf' },
      { label: 'a minus infinity, -Infinity', spell: () => '-Infinity' },
      { label: 'an exponent past a double, 5e999', spell: (digits) => `${digits}e999` },
    ],
  },
  {
    // Past a decimal reader's exponent too: Python's Decimal, which a vendor reads JSON numbers with to keep integers
    // exact, raises InvalidOperation (a 500 where the number is out of range anyway). A class of its own, so that every
    // run sends it: among the infinities, one seed in five did (Falcon and Twisted red teams).
    name: 'an exponent past a decimal reader',
    spellings: [{ label: 'an exponent of twenty digits, 5e99999999999999999999', spell: (digits) => `${digits}e99999999999999999999` }],
  },
  {
    // Haskell's read takes a number in parentheses (scotty's param reads an Int64 so): `(5)` is 5.
    name: 'parentheses',
    spellings: [
      { label: 'in parentheses, (5)', spell: (digits: string) => `(${digits})` },
      { label: 'in parentheses with spaces, ( 5 )', spell: (digits: string) => `( ${digits} )` },
    ],
  },
  {
    name: 'not a number',
    spellings: [
      { label: 'NaN', spell: () => 'NaN' },
      { label: 'nan', spell: () => 'nan' },
    ],
  },
  {
    // Routers that read a format from a suffix (Mojolicious, Rails, Django REST framework) take `30.json` as id 30, and
    // a handler that strips `.json` alone does too: the number's own value always goes with `.json`, which every such
    // reader serves as the pet; another value rotates through the others, which some answer with a 5xx.
    name: 'a format suffix',
    spellings: FORMAT_SUFFIXES,
    sameValue: FORMAT_SUFFIXES.slice(0, 1),
  },
  {
    // CPython's int() refuses a text of more than 4,300 digits (ValueError), as other bounded readers do: a 5xx where
    // the number is out of range anyway. Its request line stays within the 8,000 octets RFC 9112 §3 recommends a server take.
    name: 'thousands of digits',
    spellings: [{ label: 'a number of 4,400 digits', spell: (digits) => `${digits}${'9'.repeat(4_400)}`.slice(0, 4_400) }],
  },
  {
    // A slash after the digits, escaped where the number is a URI part (`5%2F`): a router that decodes the path before
    // it matches it reads `5/` (gin redirects it to the pet, RedirectTrailingSlash).
    name: 'a slash',
    spellings: [{ label: 'a slash after it, 5/', spell: (digits: string) => `${digits}/` }],
    targetOnly: true,
  },
  {
    // Dot segments joined to the number by escaped slashes (`5%2F..%2F4`, `.%2F5`): a server that decodes the path and then
    // removes dot segments (Jetty) reads pet 4, or pet 5, where the segment as written is no integer.
    name: 'dot segments',
    spellings: [
      { label: 'a dot-dot segment to the number below, 5/../4', spell: (digits: string) => `${digits}/../${numberBeside(digits)}` },
      { label: 'a dot segment before it, ./5', spell: (digits: string) => `./${digits}` },
    ],
    targetOnly: true,
  },
  {
    // Dot segments as the path's own (`4/../5`): a path that names pet 5 once they are removed (RFC 3986 §5.2.4,
    // §6.2.2.3). A server removes them or routes the path as written (no route: 404); one that reads the id from the
    // first segment after `pets` and drops the rest (Twisted's isLeaf resource) answers pet 4, another pet. One
    // spelling, so that every run sends it.
    name: 'dot segments as written',
    spellings: [{ label: 'a dot-dot segment after the number below, 4/../5', spell: (digits: string) => `${numberBeside(digits)}/../${digits}` }],
    targetOnly: true,
    asWritten: true,
  },
  {
    // Another pet's id as a segment after the number (`5/4`): no path the spec names. Go's path.Base(r.URL.Path) reads
    // the last segment, pet 4, where the read was of pet 5.
    name: 'a segment after it, as written',
    spellings: [{ label: 'the number below as a segment after it, 5/4', spell: (digits: string) => `${digits}/${numberBeside(digits)}` }],
    targetOnly: true,
    asWritten: true,
  },
  { name: 'digits of another script', spellings: byLabel(OTHER_NOTATIONS, /digits \(U\+/) },
  { name: 'whitespace', spellings: byLabel(OTHER_NOTATIONS, /space|tab|line feed/) },
  { name: 'leading zeros', spellings: [...byLabel(LENIENT_NOTATIONS, /leading zero/), { label: 'many leading zeros, 0005', spell: (digits) => `000${digits}` }] },
]
