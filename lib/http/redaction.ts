/** Replaces the API key, in plain text and in its common encodings, by a placeholder. */
export const KEY_PLACEHOLDER = '$PETSTORE_API_KEY'

export type Redactor = (text: string) => string

export function createRedactor(apiKey: string | undefined): Redactor {
  // A blank key is refused by the configuration; masking it would mask every space.
  if (!apiKey || apiKey.trim() === '') return (text) => text
  const forms = [
    apiKey,
    encodeURIComponent(apiKey),
    Buffer.from(apiKey).toString('base64'),
    Buffer.from(apiKey).toString('base64url'),
    Buffer.from(`${apiKey}:`).toString('base64'),
    Buffer.from(`:${apiKey}`).toString('base64'),
  ]
  const unique = [...new Set(forms)].sort((a, b) => b.length - a.length)
  const pattern = new RegExp(unique.map((form) => form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g')
  return (text) => text.replace(pattern, KEY_PLACEHOLDER)
}

/**
 * Redacts every string inside a report value, leaving the report's own property names alone: a short key
 * (say `k`) must not turn `"skipped"` into a broken field name. Numbers, bigints and JsonNumbers pass through.
 */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact)) as T
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, redactDeep(item, redact)])) as T
  }
  return value
}
