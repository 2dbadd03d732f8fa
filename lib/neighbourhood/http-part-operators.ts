/**
 * The operators on the parts of HTTP beside those a plain request writes (policy §2b; RFC 9110 §9, RFC 9112 §2.3,
 * §3.2, §6–7): another method of the registry or an unknown token, HTTP/1.0, an absolute-form target, the body framed
 * otherwise, and a parameter, field, key or member given twice with another value.
 */
import { PET_STATUSES } from '../spec/petstore-api.js'
import { clone, FRAMINGS, type Member, membersOf, type PartKind, type PartRef, type RequestModel, writePart } from '../spec/request-model.js'
import { type EditOperator, edit, lazyClass } from './edit.js'
import { otherMethodClasses } from './methods.js'

/** The value parts a parameter, field, key or member holds: each may be given twice with another value. */
const DIFFERING_PARTS: ReadonlySet<PartKind> = new Set(['query value', 'header value', 'auth token', 'member value'])

/**
 * Other values for a part, as the part carries them: where the spec says what is valid, a valid one and an invalid
 * one, each a class (a layer that validates one value and another that uses the other shows only with the invalid
 * one); elsewhere, another value. Host is left out: a Host given twice is a message HTTP refuses, whatever the values.
 */
function otherValues(model: RequestModel, part: PartRef, text: string): Array<{ kind: string; values: string[] }> {
  const name = (part.kind === 'query value' ? model.query[part.index]?.name : part.kind === 'member value' ? membersIn(model)[part.index]?.name : undefined) ?? ''
  const validAndInvalid = (valid: string[], invalid: string[]) => [
    { kind: 'another valid value', values: valid },
    { kind: 'an invalid value', values: invalid },
  ]
  const otherStatus = PET_STATUSES.find((status) => status !== text && JSON.stringify(status) !== text) ?? 'sold'
  if (part.kind === 'query value' && name === 'limit') return validAndInvalid([text === '100' ? '1' : '100'], ['500', 'x'])
  if (part.kind === 'query value' && name === 'status') return validAndInvalid([otherStatus], ['unknown'])
  if (part.kind === 'member value' && name === 'categoryId') return validAndInvalid([String(BigInt(text) + 1n)], ['"x"', '-1.5'])
  if (part.kind === 'member value' && name === 'status') return validAndInvalid([JSON.stringify(otherStatus)], ['"unknown"', 'null'])
  if (part.kind === 'member value' && name === 'name') return validAndInvalid(['"another name"'], ['42', 'null'])
  if (part.kind === 'auth token') return [{ kind: 'another value', values: ['not-the-key'] }]
  const field = model.headers[part.index]?.name.toLowerCase()
  if (field === 'accept') return [{ kind: 'another value', values: ['text/html', 'application/xml'] }]
  if (field === 'content-type') return [{ kind: 'another value', values: ['text/plain', 'application/x-www-form-urlencoded'] }]
  return [{ kind: 'another value', values: [`${text}x`] }]
}

function membersIn(model: RequestModel): Member[] {
  return model.body && 'members' in model.body ? model.body.members : []
}

/**
 * The request with the unit a value part belongs to given twice, the copy holding `value`: after the original, or
 * before it (a parameter, field, credentials or member read first by one layer and last by another).
 */
export function duplicateWithValue(model: RequestModel, part: PartRef, value: string, where: 'before' | 'after'): RequestModel {
  const edited = clone(model)
  const twice = <T>(items: T[], withValue: (item: T) => T) => {
    const item = items[part.index]
    if (item === undefined) throw new Error(`no ${part.label}`)
    items.splice(where === 'after' ? part.index + 1 : part.index, 0, withValue(structuredClone(item)))
  }
  switch (part.kind) {
    case 'query value':
      twice(edited.query, (field) => ({ ...field, value }))
      break
    case 'header value':
      twice(edited.headers, (field) => ({ ...field, value }))
      break
    case 'auth token':
      twice(edited.authorization, (credentials) => ({ ...credentials, token: value }))
      break
    case 'member value':
      twice(membersOf(edited), (member) => ({ ...member, value }))
      break
    default:
      throw new Error(`the ${part.label} is no value to give twice with another`)
  }
  return edited
}

export const HTTP_PART_OPERATORS: readonly EditOperator[] = [
  {
    id: 'differing-duplicate',
    title: 'give a parameter, field, key or member twice with another value (a valid one and an invalid one), the other first or last',
    edits: (part, _text, model) => DIFFERING_PARTS.has(part.kind) && !(part.kind === 'header value' && model.headers[part.index]?.name.toLowerCase() === 'host'),
    classes: (model, part, text) =>
      otherValues(model, part, text).flatMap(({ kind, values }) => {
        const duplicate = (value: string, order: 'last' | 'first', name: string) =>
          edit(
            'differing-duplicate',
            part,
            name,
            `${part.label} twice, ${JSON.stringify(value)} ${order}`,
            duplicateWithValue(model, part, value, order === 'last' ? 'after' : 'before'),
          )
        // Where valid and invalid differ, each order is a class of its own (a validator reading one end, a reader the
        // other); elsewhere one class, the seed choosing the value and the order.
        if (kind !== 'another value')
          return (['last', 'first'] as const).map((order) => lazyClass(`${kind} ${order}`, values, (value) => duplicate(value, order, `${kind} ${order}`)))
        const placed = values.flatMap((value) => (['last', 'first'] as const).map((order) => ({ value, order })))
        return [lazyClass(kind, placed, ({ value, order }) => duplicate(value, order, kind))]
      }),
  },
  {
    id: 'other-method',
    title: 'put another method in place of the method: HEAD, OPTIONS, the registry’s others, an unknown token',
    edits: (part) => part.kind === 'method',
    classes: (model, part, _text, { writes }) =>
      otherMethodClasses(model.method, { keyed: model.authorization.length > 0, writes }).map((methodClass) =>
        lazyClass(methodClass.name, methodClass.methods, (method) =>
          edit('other-method', part, methodClass.name, `${method} in place of ${model.method}`, writePart(model, part, method)),
        ),
      ),
  },
  {
    id: 'other-version',
    title: 'send the request as HTTP/1.0',
    edits: (part) => part.kind === 'version',
    classes: (model, part) => [lazyClass('HTTP/1.0', ['HTTP/1.0'], (version) => edit('other-version', part, 'HTTP/1.0', `sent as ${version}`, writePart(model, part, version)))],
  },
  {
    id: 'target-form',
    title: 'write the request-target in absolute-form',
    edits: (part) => part.kind === 'target form',
    classes: (model, part) => [
      lazyClass('absolute-form', ['absolute'], (form) => edit('target-form', part, 'absolute-form', 'the target in absolute-form', writePart(model, part, form))),
    ],
  },
  {
    id: 'framing',
    title: 'frame the body otherwise: chunked in one chunk or many, with an extension or a trailer, after Expect: 100-continue',
    edits: (part) => part.kind === 'framing',
    classes: (model, part) =>
      FRAMINGS.filter((framing) => framing !== model.framing).map((framing) =>
        lazyClass(framing, [framing], (chosen) => edit('framing', part, chosen, `the body framed ${chosen}`, writePart(model, part, chosen))),
      ),
  },
]
