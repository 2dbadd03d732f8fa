/**
 * Masks the API key, and every token derived from it, in everything a run writes or prints (policy §5); and
 * every other secret of the run (the extra headers' values, the client key's passphrase) by its own placeholder.
 *
 * Two layers. The forms the suite sends (the key, URL-encoded, as Basic credentials) are replaced whole by a
 * placeholder. Then, whatever the text holds, every run of 6 characters or more of the key, in any letter case,
 * as written or URL-encoded, and every stretch of base64 that encodes such a run, is masked too: a token a check
 * cut, extended, re-cased or wrapped in whitespace, or a target echoed back changed, leaves no piece of the key.
 *
 * A mask says what was done to the key, in the shell's own words, so that evidence explains itself and a curl
 * line that holds it sends the same bytes: `${PETSTORE_API_KEY%?}` is the key without its last character,
 * `${PETSTORE_API_KEY:0:12}` its first 12 characters, `${PETSTORE_API_KEY^^}` the key upper-cased.
 */
import { detached } from './excerpt.js'
import { RecentlyUsed } from './recently-used.js'

export const KEY_VARIABLE = 'PETSTORE_API_KEY'
export const KEY_PLACEHOLDER = `$${KEY_VARIABLE}`

const KEY_BEFORE_NAME_CHARACTER = /\$PETSTORE_API_KEY(?=[A-Za-z0-9_])/g

/** The shortest piece of the key that is masked wherever it stands (policy §5: "any part of it six characters or longer"). */
export const KEY_PIECE_LENGTH = 6
/**
 * The texts a redactor remembers its answer for: up to 16 KiB each (an evidence body is cut at 4 KiB, a curl line
 * quotes one) and 6 MiB of text in all, the most recently used kept. Reports quote the same texts again and again
 * (a URL, a title, every answer of a target that answers alike), and each report file redacts what the evidence
 * already redacted once.
 */
const MEMO_TEXT_LIMIT = 16 * 1024
const MEMO_CHARS = 6 * 1024 * 1024
/** The shortest stretch of base64 that is checked for a piece of the key (8 base64 characters carry 6 bytes). */
const BASE64_PIECE_LENGTH = 8

export type Redactor = (text: string) => string

/** A value to mask in every output, and what stands in its place. */
export interface Secret {
  value: string
  placeholder: string
}

/** The key's base64 (as Basic credentials carry it): a command substitution, so a curl line sends the same bytes. */
const base64Of = (printf: string, url = false) => `$(printf ${printf} "${KEY_PLACEHOLDER}" | base64 | tr -d ${url ? `'\\n=' | tr '+/' '-_'` : `'\\n'`})`

/** Masks: the shell expressions that stand for the key and what was done to it. A curl line keeps them expandable. */
export const KEY_MASK_PATTERN = /\$\{PETSTORE_API_KEY[^}]*\}|\$\(printf [^)]*\$PETSTORE_API_KEY[^)]*\)|\$PETSTORE_API_KEY/

/** How a run of text that is a piece of the key reads as a mask, given where it stands in the key. */
function maskOfPiece(piece: string, key: string): string {
  const at = key.indexOf(piece)
  if (at === 0 && piece.length === key.length) return KEY_PLACEHOLDER
  if (at === 0 && piece.length === key.length - 1) return `\${${KEY_VARIABLE}%?}`
  if (at === 1 && piece.length === key.length - 1) return `\${${KEY_VARIABLE}#?}`
  if (at >= 0 && at + piece.length === key.length) return `\${${KEY_VARIABLE}:${at}}`
  if (at >= 0) return `\${${KEY_VARIABLE}:${at}:${piece.length}}`
  if (piece === key.toUpperCase()) return `\${${KEY_VARIABLE}^^}`
  if (piece === key.toLowerCase()) return `\${${KEY_VARIABLE},,}`
  return `[${piece.length} characters of the API key, re-cased]`
}

/** Masks, in a text, the runs that are pieces of one source (see pieceMasker). */
type PieceMasker = (text: string) => string

/** Multiplier of the rolling hash of a window's code units (any odd number spreads them well enough here). */
const HASH_MULTIPLIER = 31

/** The hash of `text`'s code units from `at` for `length`, in 32 bits: the start of a rolling hash. */
function windowHash(text: string, at: number, length: number): number {
  let hash = 0
  for (let index = at; index < at + length; index++) hash = (Math.imul(hash, HASH_MULTIPLIER) + text.charCodeAt(index)) | 0
  return hash
}

/**
 * Finds the maximal runs of a text that are pieces of `source` (at least `minimum` long) and replaces each
 * with `mask(run)`. A run is grown one character at a time while it still stands in the source, so a token
 * the key was cut from or added to is masked as the key's piece and the rest stays readable. What the source
 * gives (its windows and their hashes) is worked out once, when the run's redactor is made, not per text; a
 * text is read with a rolling hash of its windows, so only a window whose hash is one of the source's is cut
 * out and compared: every text a run reports passes here, and most hold no piece of the key at all.
 */
function pieceMasker(source: string, minimum: number, caseless: boolean, mask: (run: string) => string): PieceMasker {
  if (source.length < minimum) return (text) => text
  const haystack = caseless ? source.toLowerCase() : source
  const starts = new Set<string>()
  const hashes = new Set<number>()
  for (let at = 0; at + minimum <= haystack.length; at++) {
    starts.add(haystack.slice(at, at + minimum))
    hashes.add(windowHash(haystack, at, minimum))
  }
  // What the code unit leaving a window weighs in its hash: HASH_MULTIPLIER ** (minimum - 1), in 32 bits.
  let leaving = 1
  for (let step = 1; step < minimum; step++) leaving = Math.imul(leaving, HASH_MULTIPLIER)
  return (text) => {
    if (text.length < minimum) return text
    const probe = caseless ? text.toLowerCase() : text
    let out = ''
    let copied = 0
    let at = 0
    let hash = windowHash(probe, 0, minimum)
    while (at + minimum <= probe.length) {
      if (hashes.has(hash) && starts.has(probe.slice(at, at + minimum))) {
        let end = at + minimum
        while (end < probe.length && haystack.includes(probe.slice(at, end + 1))) end += 1
        out += text.slice(copied, at) + mask(text.slice(at, end))
        copied = end
        at = end
        if (at + minimum <= probe.length) hash = windowHash(probe, at, minimum)
        continue
      }
      if (at + minimum < probe.length) {
        hash = (Math.imul(hash - Math.imul(probe.charCodeAt(at), leaving), HASH_MULTIPLIER) + probe.charCodeAt(at + minimum)) | 0
      }
      at += 1
    }
    return copied === 0 ? text : out + text.slice(copied)
  }
}

/** The stretches of base64 that encode the key's bytes whatever stands before them (the first quad mixes in a prefix, the last the padding). */
function base64Sources(key: string): string[] {
  return [0, 1, 2].map((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift, 0x20), Buffer.from(key)]).toString('base64')
    return encoded.slice(shift === 0 ? 0 : 4, -4)
  })
}

/** Every octet of the text's UTF-8 as %XX. */
function everyOctetEncoded(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((octet) => `%${octet.toString(16).toUpperCase().padStart(2, '0')}`).join('')
}

function escapeForPattern(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}

/** Replaces every form in `placeholders` (longest first, so a secret that holds another is masked whole). */
function replaceForms(placeholders: Map<string, string>): Redactor {
  if (placeholders.size === 0) return (text) => text
  const forms = [...placeholders.keys()].sort((a, b) => b.length - a.length)
  const pattern = new RegExp(forms.map(escapeForPattern).join('|'), 'g')
  return (text) => text.replace(pattern, (form) => placeholders.get(form) ?? KEY_PLACEHOLDER)
}

/**
 * `vocabulary`: the suite's own fixed words (its requirement ids), which the piece search leaves whole where they
 * stand: they cannot carry the key, and a key that shares six characters with one (`-key-4` in `auth/wrong-key-401`)
 * must not turn an id into a mask.
 */
export function createRedactor(apiKey: string | undefined, secrets: readonly Secret[] = [], vocabulary: readonly string[] = []): Redactor {
  const placeholders = new Map<string, string>()
  // A blank key is refused by the configuration; masking it would mask every space.
  const key = apiKey && apiKey.trim() !== '' ? apiKey : undefined
  if (key) {
    placeholders.set(Buffer.from(`${key}:`).toString('base64'), base64Of('%s:'))
    placeholders.set(Buffer.from(`:${key}`).toString('base64'), base64Of(':%s'))
    placeholders.set(Buffer.from(key).toString('base64'), base64Of('%s'))
    placeholders.set(Buffer.from(key).toString('base64url'), base64Of('%s', true))
    placeholders.set(encodeURIComponent(key), KEY_PLACEHOLDER)
    placeholders.set(key, KEY_PLACEHOLDER)
  }
  for (const { value, placeholder } of secrets) {
    if (value.trim() === '') continue
    for (const form of [value, encodeURIComponent(value), Buffer.from(value).toString('base64')]) if (!placeholders.has(form)) placeholders.set(form, placeholder)
  }
  const whole = replaceForms(placeholders)
  if (!key) return whole
  const encoded = encodeURIComponent(key)
  const maskers = [
    pieceMasker(key, KEY_PIECE_LENGTH, true, (run) => maskOfPiece(run, key)),
    ...(encoded !== key ? [pieceMasker(encoded, KEY_PIECE_LENGTH, false, () => '[URL-encoded piece of the API key]')] : []),
    // Every octet as %XX (an edit of the neighbourhood encodes the token so): six of the key's octets are eighteen characters, hex in any case.
    pieceMasker(everyOctetEncoded(key), KEY_PIECE_LENGTH * 3, true, () => '[percent-encoded piece of the API key]'),
    ...base64Sources(key).map((source) => pieceMasker(source, BASE64_PIECE_LENGTH, false, () => '[base64 of a piece of the API key]')),
  ]
  const pieces = (segment: string) => maskers.reduce((masked, masker) => masker(masked), segment)
  // The masks the first layer wrote, and the suite's own words, stay as they are: only the text between them is searched for pieces.
  const kept = [...new Set([...placeholders.values(), ...vocabulary])].sort((a, b) => b.length - a.length)
  const masks = new RegExp(`(${KEY_MASK_PATTERN.source}|${kept.map(escapeForPattern).join('|')})`)
  const memo = new RecentlyUsed<string, string>({ maxWeight: MEMO_CHARS, weigh: (text, redacted) => text.length + redacted.length })
  return (text) => {
    if (text.length > MEMO_TEXT_LIMIT) return redactText(text)
    const known = memo.get(text)
    if (known !== undefined) return known
    const redacted = redactText(text)
    // Copies: a text cut from a long body would otherwise keep all of that body in memory for as long as the redactor lives.
    memo.set(detached(text), detached(redacted))
    return redacted
  }
  function redactText(text: string): string {
    const wholeMasked = whole(text)
    const masked =
      wholeMasked.length < KEY_PIECE_LENGTH
        ? wholeMasked
        : wholeMasked
            .split(masks)
            .map((part, index) => (index % 2 === 1 ? part : pieces(part)))
            .join('')
    // `$PETSTORE_API_KEYx` would be another variable to the shell: the key's mask takes braces before a name character.
    return masked.replace(KEY_BEFORE_NAME_CHARACTER, `\${${KEY_VARIABLE}}`)
  }
}

/**
 * Redacts every string inside a report value, leaving the report's own property names alone: a short key
 * (say `k`) must not turn `"skipped"` into a broken field name. Numbers, bigints and JsonNumbers pass through.
 */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length)
    for (let index = 0; index < value.length; index++) items[index] = redactDeep(value[index], redact)
    return items as T
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    // A copy built member by member, without the arrays of entries: results.json is the largest value a run writes.
    const record = value as Record<string, unknown>
    const copy: Record<string, unknown> = {}
    for (const name of Object.keys(record)) {
      const item = redactDeep(record[name], redact)
      // `__proto__` as a member of its own, as JSON has it (assigning it would set the copy's prototype).
      if (name === '__proto__') Object.defineProperty(copy, name, { value: item, writable: true, enumerable: true, configurable: true })
      else copy[name] = item
    }
    return copy as T
  }
  return value
}
