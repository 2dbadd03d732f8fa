/**
 * Extra headers sent on every request: what a gateway in front of a staging service asks for (a tenant
 * header, an access client's id and secret). Given as `Name: value` lines (`--header` once per header) or
 * as a JSON object; `${VAR}` in a value is read from the environment when the run is configured, so a
 * secret stays off the command line. Every value is masked in every report, as the key is. Names the suite
 * must own itself are refused: the auth checks send exactly the Authorization they test, Host and
 * Content-Length belong to the request, and the others are hop-by-hop or the run's own trace.
 */
import type { Secret } from '../http/redaction.js'
import { Refused } from './refused.js'

/** Header name → value, names as given. */
export type ExtraHeaders = Readonly<Record<string, string>>

const OWNED_BY_THE_SUITE = ['authorization', 'host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'te', 'trailer', 'expect', 'traceparent']

/** A header name as RFC 9110 §5.1 allows it (a token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/** `Name: value` lines, or a JSON object of strings. */
export function parseExtraHeaders(text: string, name: string): ExtraHeaders | Refused {
  const trimmed = text.trim()
  if (trimmed.startsWith('{')) {
    let parsed: unknown
    try {
      parsed = JSON.parse(trimmed)
    } catch (error) {
      return new Refused(`${name}: not a JSON object (${error instanceof Error ? error.message : String(error)})`)
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((value) => typeof value !== 'string')) {
      return new Refused(`${name}: the JSON must be an object of header names to string values`)
    }
    return parsed as ExtraHeaders
  }
  const headers: Record<string, string> = {}
  for (const line of trimmed.split(/\r?\n/)) {
    if (line.trim() === '') continue
    const colon = line.indexOf(':')
    // The line is not quoted back: it may hold a secret.
    if (colon <= 0) return new Refused(`${name}: each header must read "Name: value"; a line has no name before a colon`)
    const headerName = line.slice(0, colon).trim()
    // A name given twice (in any letter case) is refused by extraHeadersProblem, which checks values from the typed API too.
    if (headerName in headers) return new Refused(`${name}: ${headerName} is given twice`)
    headers[headerName] = line.slice(colon + 1).trim()
  }
  return headers
}

/** What is wrong with the headers, naming names only: a value may be a secret. */
export function extraHeadersProblem(headers: ExtraHeaders, name: string): string | undefined {
  if (headers === null || typeof headers !== 'object') return `${name} must be an object of header names to values`
  const seen = new Set<string>()
  for (const [headerName, value] of Object.entries(headers)) {
    const lower = headerName.toLowerCase()
    if (!TOKEN.test(headerName)) return `${name}: "${headerName}" is not a header name`
    if (OWNED_BY_THE_SUITE.includes(lower)) {
      return `${name}: ${headerName} cannot be set: the suite sends its own${lower === 'traceparent' ? ' (--omit-traceparent leaves it out)' : lower === 'authorization' ? ' (the key goes in PETSTORE_API_KEY; the auth checks send exactly the Authorization they test)' : ''}`
    }
    if (seen.has(lower)) return `${name}: ${headerName} is given twice`
    seen.add(lower)
    if (typeof value !== 'string') return `${name}: the value of ${headerName} must be text`
    if (/[\r\n\0]/.test(value)) return `${name}: the value of ${headerName} holds a line break or a NUL`
  }
  return undefined
}

/**
 * The headers with each `${VAR}` read from `env`, the secrets to mask (every value: a value written with a
 * reference is shown as written, so a curl line in a report reads it from the same variable), and the
 * references that name no variable.
 */
export function expandExtraHeaders(headers: ExtraHeaders, env: Readonly<Record<string, string | undefined>>): { headers: ExtraHeaders; secrets: Secret[]; problems: string[] } {
  const expanded: Record<string, string> = {}
  const secrets: Secret[] = []
  const problems: string[] = []
  for (const [name, template] of Object.entries(headers)) {
    const value = template.replace(REFERENCE, (reference, variable: string) => {
      const found = env[variable]
      if (found === undefined || found === '') problems.push(`--header ${name}: \${${variable}} is not set in the environment`)
      return found ?? reference
    })
    if (/[\r\n\0]/.test(value)) problems.push(`--header ${name}: the value read from the environment holds a line break or a NUL`)
    expanded[name] = value
    if (value.trim() !== '') secrets.push({ value, placeholder: template === value ? `[value of ${name}]` : template })
  }
  return { headers: expanded, secrets, problems }
}
