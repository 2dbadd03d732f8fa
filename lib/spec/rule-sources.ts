/**
 * Where every expectation the edit oracle and the invariants assert comes from: a row of the conformance policy, a
 * rule of the spec, or an RFC section, and the level that source gives it. An expectation takes its source's level:
 * a finding is charged to a requirement of that level (self-tests/lib/rule-sources.test.ts walks the oracle's
 * judgements and the invariants and fails on one without a source, or charged above its source's level). Where the
 * policy is silent, a source is SHOULD at most, and docs/decisions.md proposes its row.
 */
import type { Level } from './requirement-definition.js'

export interface RuleSource {
  /** What the reports cite: the policy row (its §2 name, or the §2b invariant), the spec rule, the RFC section. */
  cites: string
  level: Level
}

export const RULE_SOURCES = {
  // The invariants of every exchange (policy §2b).
  'no access without the key': { cites: 'policy §2b (no 2xx and no pet data without a valid Bearer key); spec Authentication 1, 3', level: 'MUST' },
  'no server error': { cites: 'policy §2b (never a 5xx, for any request)', level: 'MUST' },
  'error answers': { cites: 'policy §2b (every error answer carries a valid Error body as application/json); spec Errors', level: 'MUST' },
  'list answers': { cites: 'policy §2b (every list answer is a JSON array of valid pets, never longer than 100, nor than its limit); spec listPets rules 1–3', level: 'MUST' },
  'answers in JSON': { cites: 'policy §2 (Content-Type of JSON answers); spec "Request and response bodies are JSON"', level: 'MUST' },
  'answer schemas': { cites: 'spec Resources (Pet, Pets, Error); policy §2 (what counts as valid: the schemas are open)', level: 'MUST' },
  'error status': { cites: 'spec Errors ("The `status` field repeats the HTTP status code")', level: 'MUST' },
  'distinct ids': { cites: 'policy §2 (ids: distinct across created pets); spec (the id is assigned on creation)', level: 'MUST' },
  'edits answered': { cites: 'policy §2b (the neighbourhood of a request: every edit is sent and its answer judged)', level: 'SHOULD' },

  // What an edited request means, and gets.
  'same meaning': { cites: 'policy §2 (equivalent spellings); policy §2b (an edit that keeps the meaning gets the plain answer); RFC 3986 §6, RFC 9110, RFC 8259', level: 'MUST' },
  'fixed segments spelled otherwise': { cites: 'policy §2 (equivalent spellings: SHOULD only in the fixed segments of the path, the base URL’s own included)', level: 'SHOULD' },
  'Bearer scheme case': { cites: 'policy §2 (Bearer scheme case); RFC 9110 §11.1', level: 'SHOULD' },
  'Bearer spacing': { cites: 'policy §2 (Bearer spacing); RFC 6750 §2.1, RFC 9110 §11.4', level: 'SHOULD' },
  'fields without meaning': { cites: 'policy §2b (a header that carries no meaning for this API does not change the answer); RFC 9110 §10.1.3', level: 'SHOULD' },
  'host in any case': {
    cites: 'RFC 3986 §6.2.2.1, RFC 9110 §4.2.3 (the host is case-insensitive); no policy row (docs/decisions.md proposes one): SHOULD at most',
    level: 'SHOULD',
  },
  'message forms': {
    cites:
      'RFC 9112 §2.3 (HTTP/1.0), §3.2.2 (a server MUST accept absolute-form), §7.1 (a recipient MUST parse chunked); RFC 9110 §10.1.1 (100-continue); no policy row (docs/decisions.md proposes one): SHOULD at most',
    level: 'SHOULD',
  },
  'differing lengths': {
    cites: 'RFC 9112 §6.3 (Content-Length with differing values: the server MUST answer 400 and close); no policy row (docs/decisions.md proposes one): SHOULD at most',
    level: 'SHOULD',
  },
  'Allow on 405': {
    cites: 'RFC 9110 §15.5.6 (the origin server MUST generate an Allow header field in a 405 response); no policy row (docs/decisions.md proposes one): SHOULD at most',
    level: 'SHOULD',
  },
  'HEAD as GET': {
    cites: 'RFC 9110 §9.1 (every general-purpose server MUST support HEAD), §9.3.2 (HEAD is GET without content); no policy row (docs/decisions.md proposes one): SHOULD at most',
    level: 'SHOULD',
  },
  'OPTIONS without the key': {
    cites: 'policy §2b (no 2xx and no pet data without a valid Bearer key, whatever else the request carries); row "the key in other places" (no request gets a 2xx)',
    level: 'MUST',
  },
  'auth precedence': { cites: 'policy §2 (auth precedence: 401 comes before every other answer); spec Authentication 3', level: 'MUST' },
  'the pet the id names': { cites: 'spec getPet; policy §2b (no edit reaches a pet other than the one the plain request names)', level: 'MUST' },
  'ids in other notations': { cites: 'policy §2 (other notations), policy §2 (non-integer or out-of-int64 `petId`: 400 or 404 with an Error body)', level: 'MUST' },
  'lenient readings': { cites: 'policy §2 (other notations: INFO only, `+5`, `05`, `5.0`, `1e1`)', level: 'INFO' },
  'a status made invalid': {
    cites: "policy §2b (an edit that makes a value invalid never gets the plain request's answer; for `limit` only, SHOULD); policy §2 (invalid `status` filter value)",
    level: 'MUST',
  },
  'limit in other notations': { cites: 'policy §2 (other notations: for `limit`, a list as long as a lenient reading is a SHOULD warning)', level: 'SHOULD' },
  'list rules': { cites: 'spec listPets rules 1–3; policy §2 (parameters together)', level: 'MUST' },
  'invalid NewPet': { cites: 'policy §2 (invalid NewPet body: exactly 400, nothing created); policy §2b (JSON text that RFC 8259 refuses)', level: 'MUST' },
  'created pet': { cites: 'policy §2 (created pet: 201, the body echoes what was sent)', level: 'MUST' },
  'request media types': { cites: 'policy §2 (request media types: 415 or 400 with an Error body, or 201 for a valid NewPet as JSON text)', level: 'MUST' },
  'request content codings': { cites: 'policy §2b (a request body with a Content-Encoding); RFC 9110 §8.4', level: 'MUST' },
  'text that is not Unicode': { cites: 'policy §2 (text that is not Unicode: 400 with an Error body, or 201 read back the same; which, INFO)', level: 'MUST' },
  'parser limits': { cites: 'policy §2b (JSONTestSuite `i_` cases and `y_` fragments are INFO); RFC 8259 §9', level: 'INFO' },

  // Why only the invariants judge an answer, or what else it may be.
  'a message HTTP refuses': { cites: 'RFC 9112 §2.2, §3, §5 (a message HTTP refuses as written may be refused by the HTTP layer, or its connection closed)', level: 'INFO' },
  'a Host the service may not serve': {
    cites:
      'RFC 9110 §7.4 (a server may refuse a target authority it does not serve: 421), §4.2.1 (an http URI with an empty host MUST be rejected); RFC 3986 §6.2.2.1 (the host in any letter case is the same)',
    level: 'INFO',
  },
  'a key only a lenient reader finds': { cites: 'RFC 9110 §5.5, RFC 9112 §2.2 (CR, LF, NUL and a bare LF as a lenient reader takes them)', level: 'INFO' },
  'a field given twice': { cites: 'RFC 9110 §5.3 (a singleton field given twice: a recipient may take either, or refuse)', level: 'INFO' },
  'a path or method the spec does not name': { cites: 'policy §2 (the key in other places); policy §2b (the invariants only); RFC 9110 §9.1, §15.5.6', level: 'INFO' },
  'fields that may change the answer': { cites: 'RFC 9110 (a conditional, a range or a preference may change the answer)', level: 'INFO' },
  'member names given twice': { cites: 'policy §2 (JSON text: duplicate member names, INFO); RFC 8259 §4', level: 'INFO' },
  'a query the create does not take': {
    cites:
      'policy §2b (a parameter the spec does not name is held to the invariants: a 4xx with an Error body is one of their answers); spec createPet (POST /pets takes no parameter)',
    level: 'INFO',
  },
  'an Accept without JSON': { cites: 'policy §2b (to an Accept that admits no JSON, 406 with an Error body or the answer in JSON); RFC 9110 §12.5.1', level: 'INFO' },
  'a body refused before the key': {
    cites: 'policy §2 (auth precedence: a 413 for a body over a size limit may come first, INFO; name lengths: the 64 KiB accepted binds bodies with a valid key)',
    level: 'INFO',
  },
  'a body over 64 KiB': { cites: 'policy §2 (name lengths: beyond 64 KiB a 413 with an Error body, INFO; auth precedence: a 413 may come first)', level: 'INFO' },
  'past the removal date': { cites: 'policy §2 (deprecated `getPet`: from 2030-12-05 its requirements drop to INFO)', level: 'INFO' },
} as const satisfies Record<string, RuleSource>

export type RuleSourceId = keyof typeof RULE_SOURCES

/** The level a source gives, and its words, for a finding's message. */
export function cited(source: RuleSourceId): string {
  return RULE_SOURCES[source].cites
}
