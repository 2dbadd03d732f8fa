/**
 * Replaces the API key, in plain text and in its common encodings, by a placeholder; and every other secret
 * of the run (the extra headers' values, the client key's passphrase), as written and URL-encoded, by its own.
 */
export const KEY_PLACEHOLDER = '$PETSTORE_API_KEY'

export type Redactor = (text: string) => string

/** A value to mask in every output, and what stands in its place. */
export interface Secret {
  value: string
  placeholder: string
}

export function createRedactor(apiKey: string | undefined, secrets: readonly Secret[] = []): Redactor {
  const placeholders = new Map<string, string>()
  // A blank key is refused by the configuration; masking it would mask every space.
  if (apiKey && apiKey.trim() !== '') {
    const forms = [
      apiKey,
      encodeURIComponent(apiKey),
      Buffer.from(apiKey).toString('base64'),
      Buffer.from(apiKey).toString('base64url'),
      Buffer.from(`${apiKey}:`).toString('base64'),
      Buffer.from(`:${apiKey}`).toString('base64'),
    ]
    for (const form of forms) placeholders.set(form, KEY_PLACEHOLDER)
  }
  for (const { value, placeholder } of secrets) {
    if (value.trim() === '') continue
    for (const form of [value, encodeURIComponent(value)]) if (!placeholders.has(form)) placeholders.set(form, placeholder)
  }
  if (placeholders.size === 0) return (text) => text
  // Longest first, so a secret that holds another is masked whole.
  const forms = [...placeholders.keys()].sort((a, b) => b.length - a.length)
  const pattern = new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g')
  return (text) => text.replace(pattern, (form) => placeholders.get(form) ?? KEY_PLACEHOLDER)
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
