/** Replaces the API key, in plain text and in its common encodings, by a placeholder. */
export const KEY_PLACEHOLDER = '$PETSTORE_API_KEY'

export type Redactor = (text: string) => string

export function createRedactor(apiKey: string | undefined): Redactor {
  if (!apiKey) return (text) => text
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
