/**
 * The edit operators of policy §2b, as data: each row says which parts it edits and gives every edit it makes of
 * one part, each in a class of values. A full run sends one edit of each class (the seed choosing which) for every
 * part an operator edits; the `deep` profile sends them all. Adding an operator is one row; adding a value to a
 * class is one line of its list.
 */
import { gzipSync } from 'node:zlib'
import { bodyText, clone, octetsOf, type PartKind, type PartRef, type RequestModel, writePart } from '../spec/request-model.js'
import { percentEncodedOctet } from '../spec/spellings.js'
import { type ClassOptions, type Edit, type EditClass, type EditOperator, edit, lazyClass } from './edit.js'
import { FIELD_DICTIONARY } from './field-dictionary.js'
import { HTTP_PART_OPERATORS } from './http-part-operators.js'
import { type CorpusText, isMalformedJson, jsonCorpus } from './json-corpus.js'
import { MEMBER_DICTIONARY, memberValue } from './member-dictionary.js'
import { NOTATION_CLASSES } from './notations.js'
import { ESCAPES_AFTER_A_VALUE } from './octet-classes.js'
import { octetOperator } from './octet-operator.js'
import { dropUnit, duplicateUnit } from './unit-edits.js'

export type { ClassOptions, Edit, EditClass, EditOperator }

/** Edits already made, grouped into classes by their valueClass. */
function grouped(edits: readonly Edit[]): EditClass[] {
  const classes = new Map<string, Edit[]>()
  for (const made of edits) classes.set(made.valueClass, [...(classes.get(made.valueClass) ?? []), made])
  return [...classes].map(([name, members]) => ({ name, count: members.length, edit: (index) => members[index] as Edit }))
}

const TEXT_PARTS: readonly PartKind[] = [
  'method',
  'segment',
  'query name',
  'query value',
  'header name',
  'header value',
  'auth name',
  'auth scheme',
  'auth separator',
  'auth token',
  'body text',
  'member name',
  'member value',
]

const isTextPart = (part: PartRef) => TEXT_PARTS.includes(part.kind)

const asciiUpper = (text: string) => text.replace(/[a-z]/g, (letter) => letter.toUpperCase())
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
const swapFirstLetter = (text: string) => text.replace(/[A-Za-z]/, (letter) => (letter === asciiUpper(letter) ? asciiLower(letter) : asciiUpper(letter)))

/** An octet (one character of an octet string) as %XX. */
const percentOf = (octet: string) => percentEncodedOctet(octet.charCodeAt(0))

/** The parts of the request-target, where an escape means the octet it encodes (RFC 3986 §2.1). */
const URI_PARTS: ReadonlySet<PartKind> = new Set(['segment', 'query name', 'query value'])

/** A `%` that starts no escape: no hex digit after it, one only, or letters past F. */
const MALFORMED_ESCAPES = ['%zz', '%', '%4', '%G1']

/** How deep the nested map form nests a parameter's name: past Rack's 32 (QueryParser's param_depth_limit) and qs's 5. */
const NESTED_NAME_DEPTH = 100

/** Brackets as a form writes them in a query: `%5B` and `%5D`. */
const encodedBrackets = (brackets: string) => brackets.replace(/\[/g, '%5B').replace(/\]/g, '%5D')

/** The request with a copy of a query parameter right after it, under another name. */
function withParameterCopy(model: RequestModel, index: number, name: string): RequestModel {
  const edited = clone(model)
  const field = edited.query[index]
  if (field) edited.query.splice(index + 1, 0, { ...field, name })
  return edited
}

/** A body member whose value is a number: the notation operator's part in a body. */
const NUMERIC_MEMBERS = new Set(['categoryId'])

function isNumericPart(part: PartRef, text: string, model: RequestModel): boolean {
  if (part.kind === 'segment') return model.segments[part.index]?.role === 'id'
  if (part.kind === 'query value') return model.query[part.index]?.name === 'limit' && /^\d+$/.test(text)
  if (part.kind === 'member value') {
    const member = model.body && 'members' in model.body ? model.body.members[part.index] : undefined
    return member !== undefined && NUMERIC_MEMBERS.has(member.name)
  }
  return false
}

/**
 * A notation as the part carries it: in the path or the query, every octet outside unreserved ASCII percent-encoded
 * (a path segment's own slashes aside, for a class written as it is); in a body, as written.
 */
function carried(part: PartRef, notation: string, asWritten = false): string {
  if (part.kind === 'member value' || asWritten) return octetsOf(notation)
  return [...octetsOf(notation)].map((octet) => (/[A-Za-z0-9\-._~]/.test(octet) ? octet : percentOf(octet))).join('')
}

/** The body with one member more, written after the others. */
function withMember(model: RequestModel, name: string, value: string): RequestModel {
  if (!model.body || !('members' in model.body)) return model
  return { ...model, body: { members: [...model.body.members, { name, value }] } }
}

/** The n_ texts that leave a body malformed as the value of a member (a lone space, say, does not): worked out once. */
let fragments: readonly CorpusText[] | undefined
function malformedFragments(): readonly CorpusText[] {
  fragments ??= jsonCorpus().malformed.filter((entry) => isMalformedJson(`{"a":${entry.text}}`))
  return fragments
}

/** A member nested `depth` arrays deep: `[[[…1…]]]`. */
const nested = (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`

export const EDIT_OPERATORS: readonly EditOperator[] = [
  {
    id: 'drop',
    title: 'drop the part (the segment, parameter, field, member; the method or body left empty)',
    edits: isTextPart,
    classes: (model, part) => grouped([edit('drop', part, 'drop', `drop ${part.label}`, dropUnit(model, part))]),
  },
  {
    id: 'duplicate',
    title: 'give the part twice (a segment, parameter, field or member twice; the method or body written twice)',
    edits: isTextPart,
    classes: (model, part) => grouped([edit('duplicate', part, 'duplicate', `${part.label} twice`, duplicateUnit(model, part))]),
  },
  ...HTTP_PART_OPERATORS.filter((operator) => operator.id === 'differing-duplicate'),
  {
    id: 'case',
    title: 'change the letter case',
    edits: (part, text) => isTextPart(part) && /[A-Za-z]/.test(text),
    classes: (model, part, text) =>
      grouped(
        [
          { valueClass: 'upper case', spelled: asciiUpper(text) },
          { valueClass: 'lower case', spelled: asciiLower(text) },
          { valueClass: 'first letter swapped', spelled: swapFirstLetter(text) },
        ]
          .filter(({ spelled }) => spelled !== text)
          .map(({ valueClass, spelled }) => edit('case', part, valueClass, `${part.label} in ${valueClass}`, writePart(model, part, spelled))),
      ),
  },
  {
    id: 'percent',
    title: 'percent-encode an octet, every octet, or decode the escapes',
    edits: (part, text) => isTextPart(part) && text.length > 0,
    classes: (model, part, text) => {
      /** One octet of the text, the seed choosing which, written as `spell` makes it. */
      const oneOctet = (name: string, spell: (octet: string) => string) =>
        lazyClass(
          name,
          Array.from(text, (_octet, index) => index),
          (index) => {
            const escaped = spell(text[index] as string)
            return edit(
              'percent',
              part,
              name,
              `${part.label} with octet ${index + 1} as ${escaped}`,
              writePart(model, part, `${text.slice(0, index)}${escaped}${text.slice(index + 1)}`),
            )
          },
        )
      const classes = [
        oneOctet('one octet encoded', percentOf),
        lazyClass('every octet encoded', [text], (all) =>
          edit('percent', part, 'every octet encoded', `${part.label} with every octet percent-encoded`, writePart(model, part, [...all].map(percentOf).join(''))),
        ),
      ]
      // An escape of an escape (`%2531` for `1`): one decoding leaves `%31`, no integer and no name; a layer that decodes
      // the target twice (a router after a proxy, a framework after the server) reads the plain value.
      if (URI_PARTS.has(part.kind)) classes.push(oneOctet('one octet encoded twice', (octet) => `%25${percentOf(octet).slice(1)}`))
      // A `%` without two hex digits after it (RFC 3986 §2.1 makes it no escape): a target HTTP refuses, which a layer may
      // refuse in its own words (Rack's query parser raises, Sinatra answers its HTML 400) and one that lets it through
      // must still keep to the invariants (never another pet, never a 5xx). The seed chooses the octets after the `%`.
      if (URI_PARTS.has(part.kind))
        classes.push(
          lazyClass('a malformed escape', MALFORMED_ESCAPES, (broken) =>
            edit('percent', part, 'a malformed escape', `${part.label} with ${JSON.stringify(broken)} after it`, writePart(model, part, `${text}${broken}`)),
          ),
        )
      // Escapes a decoder stops at (ESCAPES_AFTER_A_VALUE), after the id and the query's values: there a value cut short is
      // another id or another filter, and one a decoder raises on an invalid value, never a 5xx.
      if (part.kind === 'query value' || (part.kind === 'segment' && model.segments[part.index]?.role === 'id'))
        classes.push(
          ...ESCAPES_AFTER_A_VALUE.map(({ name, after }) =>
            lazyClass(name, [after], (octets) => edit('percent', part, name, `${part.label} with ${JSON.stringify(octets)} after it`, writePart(model, part, `${text}${octets}`))),
          ),
        )
      if (/%[0-9A-Fa-f]{2}/.test(text)) {
        const decoded = text.replace(/%([0-9A-Fa-f]{2})/g, (_whole, digits: string) => String.fromCharCode(Number.parseInt(digits, 16)))
        classes.push(
          lazyClass('escapes decoded', [decoded], (value) => edit('percent', part, 'escapes decoded', `${part.label} with its escapes decoded`, writePart(model, part, value))),
        )
      }
      return classes
    },
  },
  octetOperator(isTextPart),
  {
    id: 'notation',
    title: 'write the number in another notation, of the same value and of another',
    edits: isNumericPart,
    classes: (model, part, text) => {
      const values = [text, String(BigInt(text) + 7n)]
      const inTarget = URI_PARTS.has(part.kind)
      const classes = NOTATION_CLASSES.filter((notationClass) => (inTarget || !notationClass.targetOnly) && (part.kind === 'segment' || !notationClass.asWritten))
      return classes.flatMap((notationClass) =>
        (notationClass.targetOnly ? values.slice(0, 1) : values).map((digits, which) => {
          const name = `${notationClass.name}, ${which === 0 ? 'same value' : 'another value'}`
          return lazyClass(name, (which === 0 && notationClass.sameValue) || notationClass.spellings, (spelling) => {
            const notation = spelling.spell(digits)
            const written = carried(part, notation, notationClass.asWritten)
            return edit('notation', part, name, `${part.label} as ${JSON.stringify(notation)} (${spelling.label})`, writePart(model, part, written))
          })
        }),
      )
    },
  },
  {
    id: 'bracket-name',
    title:
      'write a query parameter’s name in the array and map forms PHP, Rack and qs parse (limit[]=7, limit[0]=7, limit[x]=7, a map nested 100 deep), or give it plain and in the array form',
    edits: (part) => part.kind === 'query name',
    // The brackets go percent-encoded (`limit%5B%5D`), as a form writes them: RFC 3986 lets no `[` or `]` into a query
    // (§3.4), so a server may refuse a target with them in its own words, where the rules of the list do not bind it.
    // PHP, Rack and qs decode a name before they read its brackets, so the encoded name is the same array to them.
    classes: (model, part, text) => [
      ...(['array form', 'indexed form', 'map form', 'nested map form'] as const).map((name, index) =>
        lazyClass(name, [['[]', '[0]', '[x]', '[x]'.repeat(NESTED_NAME_DEPTH)][index] as string], (brackets) =>
          edit(
            'bracket-name',
            part,
            name,
            `${part.label} as ${JSON.stringify(`${text}${brackets.length > 12 ? `${brackets.slice(0, 9)}…` : brackets}`)} (${name}, which PHP, Rack and qs read as an array or a map)`,
            writePart(model, part, `${text}${encodedBrackets(brackets)}`),
          ),
        ),
      ),
      // The name given plain and again in the array form (`status=sold&status[]=sold`): Rack raises on a name that is a
      // string and an array at once, and Sinatra answers an HTML 400 before the key is read.
      lazyClass('plain and array form', ['[]'], (brackets) =>
        edit(
          'bracket-name',
          part,
          'plain and array form',
          `${part.label} given plain and again as ${JSON.stringify(`${text}${brackets}`)}`,
          withParameterCopy(model, part.index, `${text}${encodedBrackets(brackets)}`),
        ),
      ),
    ],
  },
  ...HTTP_PART_OPERATORS.filter((operator) => operator.id !== 'differing-duplicate'),
  {
    id: 'add-field',
    title: 'add a header field from the dictionary',
    edits: (part) => part.kind === 'header fields',
    classes: (model, part) =>
      FIELD_DICTIONARY.filter((field) => !field.withBody || model.body !== undefined).map((field) => {
        const name = `dictionary field ${field.name}${field.codesBody ? ', body coded' : `: ${field.value}`}`
        return lazyClass(name, [field], (row) => {
          const added = { ...model, headers: [...model.headers, { name: row.name, value: row.value }] }
          const body = row.codesBody && model.body ? gzipSync(Buffer.from(bodyText(model.body), 'latin1')).toString('latin1') : undefined
          return edit('add-field', part, name, `add ${row.name}: ${row.value}${row.codesBody ? ' (the body gzipped)' : ''}`, added, {
            field: row,
            ...(body !== undefined ? { bodyOctets: body } : {}),
          })
        })
      }),
  },
  {
    id: 'add-member',
    title: 'add a member from the dictionary to the body',
    edits: (part, _text, model) => part.kind === 'body text' && model.body !== undefined && 'members' in model.body,
    classes: (model, part) =>
      MEMBER_DICTIONARY.map((member) => {
        const long = member.name.length > 40
        const name = `dictionary member ${long ? `of ${member.name.length} characters` : member.name}`
        const sent = model.body && 'members' in model.body ? model.body.members.find((existing) => existing.name === 'status')?.value : undefined
        return lazyClass(name, [member], (row) => {
          const value = memberValue(row, sent)
          return edit(
            'add-member',
            part,
            name,
            `add member ${long ? `"${row.name.slice(0, 8)}…" (${row.name.length} characters)` : JSON.stringify(row.name)}: ${value}`,
            withMember(model, row.name, value),
          )
        })
      }),
  },
  {
    id: 'nest',
    title: 'add a member nested deep',
    edits: (part, _text, model) => part.kind === 'body text' && model.body !== undefined && 'members' in model.body,
    classes: (model, part) =>
      [32, 512, 10_000].map((depth) =>
        lazyClass(`nested ${depth} deep`, [depth], () =>
          edit('nest', part, `nested ${depth} deep`, `add a member nested ${depth} arrays deep`, withMember(model, 'nested', nested(depth))),
        ),
      ),
  },
  {
    id: 'json-text',
    title: 'put a JSONTestSuite text in place of the body, or as the value of a member more',
    edits: (part, _text, model) => part.kind === 'body text' && model.body !== undefined && 'members' in model.body,
    classes: (model, part) => {
      const asBody = (prefix: 'n_' | 'i_', entries: readonly CorpusText[]) =>
        entries.map((entry) =>
          lazyClass(`${prefix} body ${entry.name}`, [entry], (chosen) =>
            edit('json-text', part, `${prefix} body ${chosen.name}`, `the body is ${chosen.name}`, writePart(model, part, octetsOf(chosen.text)), { corpus: prefix }),
          ),
        )
      const asMember = (prefix: 'n_' | 'y_', entries: readonly CorpusText[]) =>
        entries.map((entry) =>
          lazyClass(`${prefix} member ${entry.name}`, [entry], (chosen) =>
            edit('json-text', part, `${prefix} member ${chosen.name}`, `a member more whose value is ${chosen.name}`, withMember(model, 'fragment', octetsOf(chosen.text)), {
              corpus: prefix,
            }),
          ),
        )
      return [
        ...asBody('n_', jsonCorpus().malformed),
        ...asBody('i_', jsonCorpus().implementationDefined),
        ...asMember('n_', malformedFragments()),
        ...asMember('y_', jsonCorpus().wellFormed),
      ]
    },
  },
]
