/**
 * Which edits a run sends (policy §2b, §3): every operator on every part it edits, of every plain request. A
 * full or smoke run sends one edit of each class of values per part (the seed choosing which), every octet value
 * into the key and the id, and every row of a dictionary once, on a plain request the seed chooses; the `deep`
 * profile sends every edit of every class. A plain request without the key gets one edit per operator and part:
 * any edit of it must still be refused, whatever it is.
 */
import type { OperatorId } from '../settings/settings.js'
import { type PartRef, partsOf, type RequestModel, readPart, wireOf } from '../spec/request-model.js'
import { EDIT_OPERATORS, type Edit, type EditClass } from './edit-operators.js'
import type { PlainRequest } from './plain-requests.js'
import { seededIndex, seededPick } from './seeded-choice.js'

export interface PlannedEdit extends Edit {
  plain: PlainRequest
  /**
   * One of the few edits that reach every plain request, every part of each and every operator on each once: what
   * a run still sends when the target's rate limit makes the rest give way (policy §2, rate limits).
   */
  cover: boolean
}

/** An edit not sent because an edit sent, or a plain request, is written with the same octets: that request's answer is its answer. */
export interface AlikeEdit extends PlannedEdit {
  /** The label of the edit it is written as, or `the plain request`. */
  writtenAs: string
}

export interface CoverageRow {
  request: string
  part: string
  operator: OperatorId
  edits: number
}

/** The operators whose values are rows of a dictionary or a corpus: each row goes once per run, not once per request. */
const DICTIONARY_OPERATORS: ReadonlySet<OperatorId> = new Set(['add-field', 'add-member', 'json-text'])

/**
 * Operators whose every class goes to a request without the key too: the methods, where a way past the key hides in
 * one of them (HEAD answered by GET's handler before its check, OPTIONS, an unsafe method routed around it).
 */
const EVERY_CLASS_WITHOUT_KEY: ReadonlySet<OperatorId> = new Set(['other-method'])

/**
 * Parts that take every octet value, each a class of its own: the key (on the list request) and the id, where one
 * octet decides who gets in and what is read.
 */
function sweeps(plain: PlainRequest, part: PartRef): boolean {
  if (plain.keyless) return false
  if (part.kind === 'auth token') return plain.model.operation === 'listPets'
  return part.kind === 'segment' && plain.model.segments[part.index]?.role === 'id'
}

/**
 * Parts that take each octet a trim takes away as a class of its own (one such octet by the seed missed the rest): the
 * scheme that begins the list request's Authorization value, where a header parser that trims Unicode whitespace
 * (Mojo::Headers, Perl's `\s`) takes NBSP, NEL, VT or FF off and reads the key; and the create's JSON text, where a
 * parser that skips C's whitespace around the value (attoparsec's skipSpace in Servant) takes VT and FF for JSON's.
 */
function trimmed(plain: PlainRequest, part: PartRef): 'before' | 'ends' | undefined {
  if (plain.keyless) return undefined
  if (part.kind === 'auth scheme' && plain.model.operation === 'listPets') return 'before'
  if (part.kind === 'body text' && plain.model.operation === 'createPet') return 'ends'
  return undefined
}

/** Corpus texts a parser may take or refuse (INFO): a run short of `deep` sends one of each kind, not each. */
const leftToTheParser = (name: string) => /^[iy]_ /.test(name)

export function planEdits(
  plains: readonly PlainRequest[],
  options: { seed: number; every: boolean; writes: boolean; maxEdits?: number | undefined; operators?: readonly string[] | undefined },
): { edits: PlannedEdit[]; alike: AlikeEdit[]; coverage: CoverageRow[] } {
  const { seed, every } = options
  /** The edits chosen, each made only once it is known to be sent. */
  const chosen: Chosen[] = []
  type Place = Omit<Chosen, 'index'>
  const take = (place: Place, index: number) => chosen.push({ ...place, index })
  const pick = (place: Place, name: string) => take(place, seededIndex(seed, name, place.editClass.count))
  /** Dictionary rows, with every request and part each could go to: the seed picks one. */
  const rows = new Map<string, Place[]>()
  /** Every class of a dictionary operator on each request and part, for a pair no row went to. */
  const dictionaryPairs = new Map<string, Place[]>()
  for (const plain of plains) {
    for (const part of partsOf(plain.model)) {
      const text = readPart(plain.model, part)
      for (const operator of EDIT_OPERATORS) {
        if (!operator.edits(part, text, plain.model) || !applies(operator.id, options.operators)) continue
        const where = `${plain.name}|${part.label}|${operator.id}`
        const place = every ? (value: string, count: number) => seededIndex(seed, `${where}|${value}`, count) : undefined
        const classes = operator
          .classes(plain.model, part, text, { sweep: sweeps(plain, part), trimmed: trimmed(plain, part), writes: options.writes, ...(place ? { place } : {}) })
          .filter((editClass) => editClass.count > 0)
        if (classes.length === 0) continue
        const places = classes.map((editClass) => ({ plain, part, operator: operator.id, editClass }))
        const row = (key: string, place: Place) => rows.set(key, [...(rows.get(key) ?? []), place])
        if (plain.keyless && (operator.id === 'add-field' || operator.id === 'add-member')) {
          // A field or member is a way past the key only on a request without it: every row goes to one such request.
          for (const place of places) row(`keyless|${operator.id}|${place.editClass.name}`, place)
          continue
        }
        if (plain.keyless && !EVERY_CLASS_WITHOUT_KEY.has(operator.id)) {
          // Every other edit of a request without the key must be refused: one class per operator and part says it, deep or not.
          const place = seededPick(seed, where, places)
          pick(place, `${where}|${place.editClass.name}`)
          continue
        }
        if (DICTIONARY_OPERATORS.has(operator.id)) dictionaryPairs.set(where, places)
        const parserPlaces = places.filter((place) => leftToTheParser(place.editClass.name))
        if (!every && parserPlaces.length > 0) {
          const place = seededPick(seed, `${where}|left to the parser`, parserPlaces)
          pick(place, `${where}|${place.editClass.name}`)
        }
        for (const place of places) {
          if (every) for (let index = 0; index < place.editClass.count; index++) take(place, index)
          else if (leftToTheParser(place.editClass.name)) continue
          // A field goes to every read with the key (where its answer is compared with the plain one), a member to the create.
          else if (operator.id === 'add-field' && plain.model.method === 'GET') row(`${operator.id}|${place.editClass.name}|${plain.name}`, place)
          else if (DICTIONARY_OPERATORS.has(operator.id)) row(`${operator.id}|${place.editClass.name}`, place)
          else pick(place, `${where}|${place.editClass.name}`)
        }
      }
    }
  }
  for (const [key, places] of rows) pick(seededPick(seed, `${key}|place`, places), key)
  // Every operator reaches every part: a request and part no dictionary row went to gets one of its own.
  for (const row of coverageOf(plains, chosen, options.operators)) {
    const places = dictionaryPairs.get(`${row.request}|${row.part}|${row.operator}`)
    if (row.edits > 0 || !places) continue
    const name = `${row.request}|${row.part}|${row.operator}|left out`
    pick(seededPick(seed, name, places), name)
  }
  const made = new Map<Chosen, Edit>()
  const make = (edit: Chosen): Edit => {
    const edited = made.get(edit) ?? edit.editClass.edit(edit.index)
    made.set(edit, edited)
    return edited
  }
  const onTheWire = new WrittenOnce(plains, make)
  // Under a budget only the edits it keeps are made and written: a run of 20 edits does not write the other ~1,900 first.
  const budget = options.maxEdits !== undefined && chosen.length > options.maxEdits ? options.maxEdits : undefined
  const sent = budget === undefined ? chosen.filter((edit) => onTheWire.isNew(edit)) : withinBudget(chosen, seed, budget, onTheWire)
  const { alike } = onTheWire
  const cover = coverOf(sent, seed)
  // The cover first, so that whatever gives way comes last.
  const ordered = [...sent.filter((edit) => cover.has(edit)), ...sent.filter((edit) => !cover.has(edit))]
  const planned = (edit: Chosen): PlannedEdit => ({ ...(made.get(edit) as Edit), plain: edit.plain, cover: cover.has(edit) })
  const kept = new Set(sent)
  const alikeSent = alike.filter(({ as }) => as === undefined || kept.has(as))
  return {
    edits: ordered.map(planned),
    alike: alikeSent.map(({ edit, as }) => ({ ...planned(edit), writtenAs: as === undefined ? 'the plain request' : `${(made.get(as) as Edit).label}` })),
    // A pair whose edit is written as another's is reached by that edit's request: the same octets, judged once.
    coverage: coverageOf(plains, [...sent, ...alikeSent.map(({ edit }) => edit)], options.operators),
  }
}

/**
 * The edits written otherwise than every plain request and every edit kept before them: two operators may write the
 * same octets (`Host` given twice by its name and by its value, a digit's escape and every octet's), and a request sent
 * twice says nothing the first did not. A create's number is not yet in its body, so two creates that differ only in
 * it are one.
 */
class WrittenOnce {
  /** The edit each text was first written by (undefined: a plain request). */
  private readonly first: Map<string, Chosen | undefined>
  /** What was asked and found written as a plain request or an edit kept before it. */
  readonly alike: Array<{ edit: Chosen; as: Chosen | undefined }> = []
  private readonly seen = new Map<Chosen, boolean>()

  constructor(
    plains: readonly PlainRequest[],
    private readonly make: (edit: Chosen) => Edit,
  ) {
    this.first = new Map(plains.map((plain) => [WrittenOnce.written(plain.model), undefined]))
  }

  private static written(model: RequestModel, bodyOctets?: string): string {
    const wire = wireOf(model, bodyOctets)
    return `${wire.framing}\0${wire.head}\0${wire.body ?? ''}`
  }

  /** Whether the edit is written otherwise than all before it: if so, it is kept from now on (asked again, the same answer). */
  isNew(edit: Chosen): boolean {
    const known = this.seen.get(edit)
    if (known !== undefined) return known
    const { model, bodyOctets } = this.make(edit)
    const octets = WrittenOnce.written(model, bodyOctets)
    const isNew = !this.first.has(octets)
    if (isNew) this.first.set(octets, edit)
    else this.alike.push({ edit, as: this.first.get(octets) })
    this.seen.set(edit, isNew)
    return isNew
  }
}

/**
 * The edits, in the seed's order, that each reach a plain request and part, or a plain request and operator, no edit
 * before them reached: every request, every part of it and every operator on it, once.
 */
function coverOf(edits: readonly Chosen[], seed: number): Set<Chosen> {
  // Each rank worked out once, not once for every comparison of the sort.
  const ranks = new Map(edits.map((edit) => [edit, seededIndex(seed, `cover|${edit.plain.name}|${edit.part.label}|${edit.editClass.name}|${edit.index}`, 0x7fffffff)]))
  const reached = new Set<string>()
  const cover = new Set<Chosen>()
  for (const edit of [...edits].sort((a, b) => (ranks.get(a) ?? 0) - (ranks.get(b) ?? 0))) {
    const pairs = [`${edit.plain.name}|part|${edit.part.label}`, `${edit.plain.name}|operator|${edit.operator}`]
    if (pairs.every((pair) => reached.has(pair))) continue
    for (const pair of pairs) reached.add(pair)
    cover.add(edit)
  }
  return cover
}

/** An edit the plan chose: its class and its index there, made into a request only once it is kept. */
interface Chosen {
  plain: PlainRequest
  part: PartRef
  operator: OperatorId
  editClass: EditClass
  index: number
}

/**
 * At most `budget` of the edits, each written otherwise than the rest, chosen by the seed: one of each operator first,
 * so every operator still reaches some part. Only the edits looked at are made and written.
 */
function withinBudget(edits: readonly Chosen[], seed: number, budget: number, onTheWire: WrittenOnce): Chosen[] {
  const ranks = new Map(edits.map((edit) => [edit, seededIndex(seed, `${edit.plain.name}|${edit.part.label}|${edit.editClass.name}|${edit.index}`, 0x7fffffff)]))
  const ranked = [...edits].sort((a, b) => (ranks.get(a) ?? 0) - (ranks.get(b) ?? 0))
  const kept = new Set<Chosen>()
  for (const operator of new Set(edits.map((edit) => edit.operator))) {
    const first =
      ranked.find((edit) => edit.operator === operator && !edit.plain.keyless && onTheWire.isNew(edit)) ??
      ranked.find((edit) => edit.operator === operator && onTheWire.isNew(edit))
    if (first) kept.add(first)
  }
  for (const edit of ranked) {
    if (kept.size >= budget) break
    if (onTheWire.isNew(edit)) kept.add(edit)
  }
  return edits.filter((edit) => kept.has(edit))
}

/** Whether an operator is among those the run applies (all, when none are named). */
const applies = (operator: OperatorId, operators: readonly string[] | undefined) => operators === undefined || operators.length === 0 || operators.includes(operator)

/** Edits per request, part and operator, every pair an operator edits listed (so a pair left out shows as 0). */
function coverageOf(plains: readonly PlainRequest[], edits: readonly Chosen[], operators?: readonly string[]): CoverageRow[] {
  const counts = new Map<string, CoverageRow>()
  for (const plain of plains) {
    for (const part of partsOf(plain.model)) {
      const text = readPart(plain.model, part)
      for (const operator of EDIT_OPERATORS) {
        if (operator.edits(part, text, plain.model) && applies(operator.id, operators))
          counts.set(`${plain.name}|${part.label}|${operator.id}`, { request: plain.name, part: part.label, operator: operator.id, edits: 0 })
      }
    }
  }
  for (const edit of edits) {
    const row = counts.get(`${edit.plain.name}|${edit.part.label}|${edit.operator}`)
    if (row) row.edits += 1
  }
  return [...counts.values()]
}
