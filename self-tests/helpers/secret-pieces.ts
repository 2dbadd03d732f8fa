/**
 * Finds pieces of a secret in text, the way someone who reads an artifact could: any run of 6 characters or
 * more of the secret, in any letter case, as written, URL-encoded, every octet percent-encoded or inside base64 (at each of its three
 * alignments). Written apart from lib/http/redaction.ts on purpose: a test that reused the redactor's own
 * search would share its blind spots.
 */
const PIECE = 6

/** Every substring of `text` of length `size`. */
function windows(text: string, size: number): Set<string> {
  const found = new Set<string>()
  for (let at = 0; at + size <= text.length; at++) found.add(text.slice(at, at + size))
  return found
}

/** The base64 characters that depend only on the secret's bytes, whatever stands before it (0, 1 or 2 bytes). */
function base64Forms(secret: string): string[] {
  return [0, 1, 2].map((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift, 0x20), Buffer.from(secret)]).toString('base64')
    // The first quad mixes the prefix's bits in, the last one the padding: keep what lies between.
    return encoded.slice(shift === 0 ? 0 : 4, -4)
  })
}

/** The pieces of `secret` found in `text` (empty when none): each as it stands in the text, with its form. */
export function keyPiecesIn(text: string, secret: string): string[] {
  const found: string[] = []
  const lower = text.toLowerCase()
  for (const piece of windows(secret.toLowerCase(), PIECE)) if (lower.includes(piece)) found.push(`"${piece}" (any case)`)
  const encoded = encodeURIComponent(secret)
  if (encoded !== secret) for (const piece of windows(encoded, PIECE)) if (text.includes(piece) && /%/.test(piece)) found.push(`"${piece}" (URL-encoded)`)
  for (const form of base64Forms(secret)) for (const piece of windows(form, 8)) if (text.includes(piece)) found.push(`"${piece}" (base64)`)
  // Every octet as %XX, as an edit of the neighbourhood sends the token: six octets are eighteen characters.
  const everyOctet = [...Buffer.from(secret)].map((octet) => `%${octet.toString(16).padStart(2, '0')}`).join('')
  for (let at = 0; at + PIECE * 3 <= everyOctet.length; at += 3)
    if (lower.includes(everyOctet.slice(at, at + PIECE * 3))) found.push(`"${everyOctet.slice(at, at + PIECE * 3)}" (every octet percent-encoded)`)
  return found
}
