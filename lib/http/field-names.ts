/**
 * The name a field goes out under. The run holds field names in lower case (RFC 9110 §5.1: they are
 * case-insensitive, and every reading of a recorded request looks them up so); the key's field goes out as the spec
 * writes it, `Authorization: Bearer <API_KEY>`. A service that reads field names case-sensitively then still gets the
 * key on every plain request, and the neighbourhood's edits of the name's letter case show that fault on their own
 * requirement, instead of the run ending at its first reads as a key refused everywhere (a set-up mistake).
 */
const AS_THE_SPEC_WRITES_THEM: Readonly<Record<string, string>> = { authorization: 'Authorization' }

export function nameOnTheWire(name: string): string {
  return AS_THE_SPEC_WRITES_THEM[name] ?? name
}

/** The fields as they go out: the same values, the names the spec writes in its own letter case. */
export function fieldsOnTheWire(headers: Record<string, string>): Record<string, string> {
  if (!Object.keys(headers).some((name) => name in AS_THE_SPEC_WRITES_THEM)) return headers
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [nameOnTheWire(name), value]))
}
