/**
 * What the policy requires of the answer to an edited request, worked out from the request as it went on the
 * wire, never from the edit's name: so an octet, a notation or a field nobody listed is judged by the same rules
 * as the ones somebody did. In order: whether HTTP refuses the message as written (the HTTP layer may then answer
 * 400 on its own or close the connection); whether the request carries the key; whether it means what the plain
 * request means (then it gets the plain answer); and otherwise what the request names: an operation of the spec
 * with its own rules for the id, the list parameters and the body, or a path the spec does not name.
 */
import { fieldValues, type KeyState, keyOfFields } from '../http/wire-reading.js'
import type { RequirementId } from '../spec/catalogue.js'
import type { Operation } from '../spec/petstore-api.js'
import type { RuleSourceId } from '../spec/rule-sources.js'
import type { Edit } from './edit-operators.js'
import { FIELD_DICTIONARY } from './field-dictionary.js'
import { createJudgement, getPetJudgement, type Judgement, listJudgement, type ReadRequest } from './operation-judgements.js'
import {
  acceptAdmitsJson,
  acceptOf,
  decodedUriPart,
  keySpellingRelaxations,
  type MeaningInput,
  meaningUnder,
  RELAXATIONS,
  type Relaxation,
  type RequestMeaning,
  readMeaning,
} from './request-meaning.js'
import type { RequestReading } from './request-reading.js'

/** An answer the policy allows an edited request beside what its judgement expects: taken as it is, or warned on a SHOULD requirement. */
export interface AllowedAnswer {
  status: number
  /** The SHOULD requirement the answer departs from, when it warns; otherwise the answer simply passes. */
  warns?: RequirementId
  why: string
  source: RuleSourceId
}

export interface Expectation {
  key: KeyState
  /** Answers allowed beside the judgement's: 406 to an Accept without JSON, 401 to a key spelled in a way only a SHOULD accepts. */
  allowed: AllowedAnswer[]
  /** Why HTTP refuses the message as written: a closed connection answers it too. */
  invalidMessage?: string
  /** The version a lenient reader finds in the refused message's request line, no HTTP/1.x: 505 answers it too (WireReading.unsupportedVersion). */
  unsupportedVersion?: string
  /**
   * Why an HTTP layer may refuse the request in its own words (refusableInOwnWords): HTTP refuses it as written, its
   * request line is longer than some layers take, its Host names another authority, or its path holds an escaped
   * slash. Any 4xx answers it.
   */
  ownWords?: string
  /**
   * Why the service may refuse the request with any 4xx and an Error body, whatever its judgement: a parameter the
   * operation does not take (a query on the create), which a service may refuse as it may on the lists.
   */
  refusable?: { why: string; source: RuleSourceId }
  /** A method the spec does not name, HEAD aside: 405, or 501 (RFC 9110 §9.1), answers it. */
  otherMethod: boolean
  /** The forms HTTP/1.1 defines that the message takes beside the plain ones (HTTP/1.0, absolute-form, chunked, 100-continue): its HTTP layer may refuse them in its own words. */
  otherForms: readonly string[]
  route?: Operation
  /** The path is below the base URL's own path as written (a path the service answers for, whether or not the spec names it). */
  underBase: boolean
  /**
   * For a message HTTP refuses, edited from a read of one pet: that pet's id, and whether a list answers it as another
   * pet would (a request line split at a space the edit put in the target). A layer that repairs the message reads some
   * request, never one of another pet (§2b); a target with a `#` aside, whose fragment a server may drop (Node's own
   * URL reading makes `/pets/4#06` pet 4).
   */
  namedPet?: { id: bigint; listsOthers: boolean }
  judgement: Judgement
}

export interface OracleContext {
  apiKey: string
  /** The base URL's own segments (`v1`). */
  baseSegments: readonly string[]
  /** The target's answers are written in HTTP/1.0 only, as their status lines say. */
  answersInHttp10?: boolean
}

const MEANINGLESS = new Set(FIELD_DICTIONARY.filter((field) => field.meaning === 'no meaning').map((field) => field.name.toLowerCase()))

/** Each equivalence the policy holds only as a SHOULD: the requirement a difference under it is charged to, and its source. */
const RELAXATION_RULE: Record<Relaxation, { requirementId: RequirementId; source: RuleSourceId }> = {
  'fixed segments decoded': { requirementId: 'listPets/path-spelling-equivalent', source: 'fixed segments spelled otherwise' },
  'scheme in any case': { requirementId: 'auth/scheme-case-insensitive', source: 'Bearer scheme case' },
  'spaces after the scheme': { requirementId: 'auth/bearer-spacing', source: 'Bearer spacing' },
  'fields without meaning ignored': { requirementId: 'responses/meaningless-fields-ignored', source: 'fields without meaning' },
  'host in any case': { requirementId: 'responses/meaningless-fields-ignored', source: 'host in any case' },
  'message forms read': { requirementId: 'responses/message-forms', source: 'message forms' },
}

const EQUIVALENT_RULE: Record<Operation, RequirementId> = {
  listPets: 'listPets/equivalent-spellings',
  getPet: 'getPet/equivalent-spellings',
  createPet: 'createPet/equivalent-spellings',
}

/**
 * The operation a path and method name, and the id segment. The fixed segments (the base URL's and `pets`) must be
 * written as the spec writes them: the same spelled with escapes is a SHOULD only (policy, equivalent spellings),
 * which many routers and edge proxies do not route, so such a request is judged as the same request in other words
 * (at that level) or by the invariants, never as an operation whose rules hold at MUST.
 */
function routeOf(request: ReadRequest, base: readonly string[]): { route?: Operation; idSegment?: string } {
  const decoded = request.path.map((segment) => decodedUriPart(segment))
  const fixed = [...base, 'pets']
  const matches = fixed.every((segment, index) => request.path[index] === segment)
  if (!matches || request.path.some((segment) => segment.includes('#'))) return {}
  if (decoded.length === fixed.length) return request.method === 'POST' ? { route: 'createPet' } : request.method === 'GET' ? { route: 'listPets' } : {}
  // An empty segment is no petId (`/pets/` is a spelling of the list's path the spec does not name).
  const idSegment = request.path[fixed.length]
  if (decoded.length === fixed.length + 1 && request.method === 'GET' && idSegment) return { route: 'getPet', idSegment }
  return {}
}

function meaningInput(request: ReadRequest & { otherForms: readonly string[] }, context: OracleContext): MeaningInput {
  const fixedCount = context.baseSegments.length + 1
  return {
    otherForms: request.otherForms,
    method: request.method,
    segments: request.path.map((text, index) => ({ text, fixed: index < fixedCount })),
    query: request.query,
    fields: request.fields,
    body: request.body,
    apiKey: context.apiKey,
    meaningless: MEANINGLESS,
  }
}

/**
 * The plain requests' meanings, kept with the reading each was read from: every edit of a plain request is compared
 * with it, and its edits share one reading of it (edit-as-sent.ts). Read again when the context differs.
 */
const plainMeanings = new WeakMap<RequestReading, { apiKey: string; base: string; meaning: RequestMeaning }>()

function plainMeaning(plain: RequestReading, context: OracleContext): RequestMeaning {
  const base = context.baseSegments.join('/')
  const kept = plainMeanings.get(plain)
  if (kept?.apiKey === context.apiKey && kept.base === base) return kept.meaning
  const meaning = readMeaning(meaningInput(plain, context))
  plainMeanings.set(plain, { apiKey: context.apiKey, base, meaning })
  return meaning
}

/** The path's segments with its dot segments removed (RFC 3986 §5.2.4), or undefined when it holds none as written. */
function withoutDotSegments(path: readonly string[]): string[] | undefined {
  if (!path.some((segment) => segment === '.' || segment === '..')) return undefined
  const kept: string[] = []
  for (const [index, segment] of path.entries()) {
    if (segment !== '.' && segment !== '..') kept.push(segment)
    else {
      if (segment === '..') kept.pop()
      // A dot segment at the end leaves the path ending in a slash: `/pets/4/..` is `/pets/`.
      if (index === path.length - 1) kept.push('')
    }
  }
  return kept
}

const STRICT: ReadonlySet<Relaxation> = new Set()
const ALONE = new Map(RELAXATIONS.map((relaxation) => [relaxation, new Set([relaxation])]))

/** The strict reading first; then each relaxation alone: the rule a difference is charged to. */
function sameMeaning(plain: RequestMeaning, edited: RequestMeaning): { level: 'MUST' } | { level: 'SHOULD'; relaxation: Relaxation } | undefined {
  // No relaxation reads the method, the query, Accept, Content-Type or the body otherwise.
  if (plain.unrelaxed !== edited.unrelaxed) return undefined
  if (meaningUnder(plain, STRICT) === meaningUnder(edited, STRICT)) return { level: 'MUST' }
  for (const [relaxation, alone] of ALONE) {
    if (meaningUnder(plain, alone) === meaningUnder(edited, alone)) return { level: 'SHOULD', relaxation }
  }
  return undefined
}

/** The body size every service accepts (policy, name lengths): beyond it, 413 with an Error body may come first, before the key is read (auth precedence). */
const BODY_LIMIT_BYTES = 64 * 1024

/**
 * What a request may get beside its judgement: 413 with an Error body to a body over 64 KiB, whatever its key
 * (policy, name lengths and auth precedence), and to a body of any size without a valid key (auth precedence: a 413 for
 * a body over a size limit may come first; the 64 KiB the name lengths row asks to be accepted binds only bodies a
 * valid key lets in, so a service may refuse smaller ones from nobody known; the plain keyless requests of the auth
 * checks still get their 401); and, with the key, 406 with an Error body when its Accept admits no
 * JSON (policy §2b, RFC 9110 §12.5.1), and 401 when the key is spelled in a way only a SHOULD row accepts (the scheme
 * in another case, more than one space after it): a warning on that row's requirement, never a failure.
 */
function allowedAnswers(request: ReadRequest, key: KeyState, apiKey: string): AllowedAnswer[] {
  const allowed: AllowedAnswer[] = []
  const bytes = request.body === undefined ? 0 : request.body.length
  if (bytes > BODY_LIMIT_BYTES) allowed.push({ status: 413, source: 'a body over 64 KiB', why: `a body of ${bytes} bytes, over 64 KiB: 413 with an Error body may come first` })
  else if (bytes > 0 && key !== 'valid')
    allowed.push({
      status: 413,
      source: 'a body refused before the key',
      why: `a body of ${bytes} bytes without a valid key: 413 with an Error body for a size limit may come first`,
    })
  if (key !== 'valid') return allowed
  const accept = acceptOf(fieldValues(request.fields, 'accept'))
  if (!acceptAdmitsJson(accept))
    allowed.push({ status: 406, source: 'an Accept without JSON', why: `Accept: ${accept} admits no JSON: 406 with an Error body, or the answer in JSON` })
  const keyed = fieldValues(request.fields, 'authorization').filter((value) => keyOfFields([{ name: 'authorization', value }], apiKey) === 'valid')
  const relaxations = keyed.length === 1 ? keySpellingRelaxations(keyed[0] as string) : []
  for (const relaxation of relaxations) {
    const { requirementId, source } = RELAXATION_RULE[relaxation]
    allowed.push({
      status: 401,
      warns: requirementId,
      source,
      why: `the key written ${JSON.stringify(`${keyed[0]?.split(' ')[0]}…`)} is accepted only by a SHOULD (${relaxation})`,
    })
  }
  return allowed
}

/** The rules an edited request's answer is held to, from the plain request and the edited one, each as read once (readEdited). */
export function expectationOf(plain: RequestReading, request: RequestReading, edit: Edit, context: OracleContext): Expectation {
  const { key } = request
  const { route, idSegment } = routeOf(request, context.baseSegments)
  // What the plain request names (its route and id), read once for every rule below that compares an edit with it.
  const plainNamed = routeOf(plain, context.baseSegments)
  const otherMethod = !['GET', 'POST', 'HEAD'].includes(request.method)
  // Below the base path, as written: `/v1` itself, like `/%76%31/pets`, is a path an edge in front may answer on its own.
  const underBase = request.path.length > context.baseSegments.length && context.baseSegments.every((segment, index) => request.path[index] === segment)
  const allowed = allowedAnswers(request, key, context.apiKey)
  const { ownWords } = request
  // POST /pets takes no parameter: a service may refuse one it does not know (CherryPy's dispatcher answers 404), as on the lists.
  const refusable =
    key === 'valid' && request.method === 'POST' && request.query
      ? {
          why: `a query on the create (${request.query.slice(0, 60)}), which takes none: a 4xx with an Error body may refuse it`,
          source: 'a query the create does not take' as const,
        }
      : undefined
  const base = {
    key,
    allowed,
    otherMethod,
    otherForms: request.otherForms,
    underBase,
    ...(request.invalid ? { invalidMessage: request.invalid } : {}),
    ...(request.unsupportedVersion !== undefined ? { unsupportedVersion: request.unsupportedVersion } : {}),
    ...(ownWords ? { ownWords } : {}),
    ...(refusable ? { refusable } : {}),
    ...(route ? { route } : {}),
  }
  if (key === 'lenient')
    return { ...base, judgement: { kind: 'invariants', source: 'a key only a lenient reader finds', why: 'a lenient reading of the field lines finds the key' } }
  if (key === 'none') {
    const hasField = fieldValues(request.fields, 'authorization').length > 0
    // A request an HTTP layer may refuse in its own words (an escaped slash a router may read as a slash, a Host
    // elsewhere, a long line) may never reach the service's auth: no access is all it is held to.
    if (route && ownWords === undefined) {
      return {
        ...base,
        judgement: {
          kind: 'refused',
          statuses: [401],
          requirementId: hasField ? 'auth/key-lookalike-401' : 'auth/missing-key-401',
          source: 'auth precedence',
          why: 'an operation of the spec without a valid key: 401 before every other answer',
        },
      }
    }
    // OPTIONS without the key: no 2xx, as for every request (policy §2b), charged to its own requirement so the report names the method.
    if (request.method === 'OPTIONS' && !request.invalid)
      return {
        ...base,
        judgement: { kind: 'no access', requirementId: 'auth/options-without-key', source: 'OPTIONS without the key', why: 'OPTIONS without a valid key: no 2xx and no pet data' },
      }
    return {
      ...base,
      judgement: { kind: 'no access', requirementId: 'auth/no-access-without-key', source: 'no access without the key', why: 'no valid key: no 2xx and no pet data' },
    }
  }
  // A message HTTP refuses as written reaches the service, if at all, as its HTTP layer repaired it: only the invariants judge it.
  if (request.invalid) {
    const judged = plainNamed.route === 'getPet' && !request.target.includes('#') ? getPetJudgement(plainNamed.idSegment ?? '') : undefined
    const splitAtSpace = (request.head.slice(0, request.head.indexOf('\r\n') >>> 0).match(/ /g)?.length ?? 0) > 2
    return {
      ...base,
      ...(judged?.kind === 'pet' ? { namedPet: { id: judged.id, listsOthers: splitAtSpace } } : {}),
      judgement: { kind: 'invariants', source: 'a message HTTP refuses', why: `HTTP refuses the message as written (${request.invalid})` },
    }
  }
  if (request.hostElsewhere !== undefined) return { ...base, judgement: { kind: 'invariants', source: 'a Host the service may not serve', why: ownWords ?? '' } }
  // A client must not send a chunked body to a server it knows answers in HTTP/1.0 (RFC 9112 §6.1): what it answers is its own, no form it must read.
  if (context.answersInHttp10 && request.otherForms.includes('a chunked body')) {
    const why = 'a chunked body to a target that answers in HTTP/1.0, which a client must not send (RFC 9112 §6.1)'
    return { ...base, otherForms: request.otherForms.filter((form) => form !== 'a chunked body'), judgement: { kind: 'invariants', source: 'message forms', why } }
  }
  // Authorization takes one credential (RFC 9110 §11.6.2), so a field line of it twice is no list (§5.3): a service may read either line, or refuse.
  if (fieldValues(request.fields, 'authorization').length > 1) {
    return {
      ...base,
      judgement: {
        kind: 'invariants',
        source: 'a field given twice',
        why: 'Authorization is given twice, which RFC 9110 does not let a client send: a service may read either line, or refuse the request',
      },
    }
  }
  const plainRoute = plainNamed.route
  // HEAD in place of a read's GET, the rest as it was: GET's status without content (RFC 9110 §9.3.2).
  const plainRead = plainMeaning(plain, context)
  const editedInput = meaningInput(request, context)
  if (request.method === 'HEAD' && plain.method === 'GET' && sameMeaning(plainRead, readMeaning({ ...editedInput, method: 'GET' }))?.level === 'MUST') {
    return {
      ...base,
      judgement: { kind: 'head', requirementId: 'responses/head-as-get', source: 'HEAD as GET', why: 'HEAD in place of GET: the status GET gets, without content' },
    }
  }
  const same = sameMeaning(plainRead, readMeaning(editedInput))
  const rule = (operation: Operation) =>
    same?.level === 'SHOULD' ? RELAXATION_RULE[same.relaxation] : { requirementId: EQUIVALENT_RULE[operation], source: 'same meaning' as const }
  if (same && plainRoute === 'createPet') {
    const created = createJudgement(request, edit)
    if (created.kind === 'created') return { ...base, judgement: { ...created, ...rule('createPet'), why: `the plain request in other words: ${created.why}` } }
  }
  if (same && plainRoute && plainRoute !== 'createPet') {
    return {
      ...base,
      judgement: {
        kind: 'plain answer',
        ...rule(plainRoute),
        why: same.level === 'MUST' ? 'the same request in other words' : `the same request once ${same.relaxation}`,
      },
    }
  }
  if (edit.field?.meaning === 'no meaning' && route === 'createPet') {
    return {
      ...base,
      judgement: { kind: 'invariants', source: 'fields without meaning', why: `${edit.field.name} carries no meaning, and a create is not compared with another` },
    }
  }
  // Dot segments as the path's own: a path that names a pet once they are removed is that pet or none, never another.
  const dotsRemoved = route ? undefined : withoutDotSegments(request.path)
  const named = dotsRemoved && request.method === 'GET' ? routeOf({ ...request, path: dotsRemoved }, context.baseSegments) : undefined
  const namedPet = named?.route === 'getPet' ? getPetJudgement(named.idSegment ?? '') : undefined
  if (namedPet?.kind === 'pet') {
    const why = `the path names pet ${namedPet.id} once its dot segments are removed (RFC 3986 §5.2.4): that pet, or none where a server routes the path as written, never another`
    return { ...base, judgement: { kind: 'lenient pet', value: namedPet.id, source: 'lenient readings', why } }
  }
  // A read of one pet with other segments below /pets/ (`1/2`, `/1`, `1/`), no dot segment among them: no path the spec
  // names, and no edit reaches a pet other than the one the plain request names (§2b). Go's path.Base reads the last
  // segment (`/pets/1/2` is pet 2), Twisted's isLeaf resource the first.
  const fixed = [...context.baseSegments, 'pets']
  const belowPets = request.path.length > fixed.length + 1 && fixed.every((segment, index) => request.path[index] === segment)
  const plainPet = !route && !dotsRemoved && request.method === 'GET' && belowPets && plainNamed.route === 'getPet' ? getPetJudgement(plainNamed.idSegment ?? '') : undefined
  if (plainPet?.kind === 'pet') {
    const why = `a read of pet ${plainPet.id} with other segments below /pets/, a path the spec does not name: that pet, or none, never another (§2b)`
    return { ...base, judgement: { kind: 'lenient pet', value: plainPet.id, source: 'lenient readings', why } }
  }
  if (!route)
    return {
      ...base,
      judgement: {
        kind: 'invariants',
        source: 'a path or method the spec does not name',
        why: otherMethod ? 'a method the spec does not name' : 'a path the spec does not name',
      },
    }
  if (edit.operator === 'add-field' && edit.field?.meaning === 'may change' && route !== 'createPet') {
    return { ...base, judgement: { kind: 'invariants', source: 'fields that may change the answer', why: `${edit.field.name} may change the answer (RFC 9110)` } }
  }
  if (route === 'getPet') return { ...base, judgement: getPetJudgement(idSegment ?? '') }
  if (route === 'listPets') return { ...base, judgement: listJudgement(request.query) }
  return { ...base, judgement: createJudgement(request, edit) }
}
