/**
 * The operators on the parts of HTTP beside those a plain request writes (policy §2b; RFC 9110 §9, RFC 9112 §2.3,
 * §3.2, §6–7): another method of the registry or an unknown token, HTTP/1.0, an absolute-form target, the body framed
 * otherwise, and a parameter, field, key or member given twice with another value.
 */

import { multipartForm, urlencodedForm } from '../spec/form-bodies.js'
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

/**
 * The parameters a read names, each with another value, as content would name them: the list's own query parameters
 * (another limit, another status), or the pet's id as `petId` and `id` (the id below it, a pet a store that numbers its
 * pets in turn holds). A framework that merges content into its parameters (scotty's `param`, PHP's `$_REQUEST`,
 * Flask's `request.values`) reads them in place of the request's own.
 */
function parametersOtherwise(model: RequestModel): Array<{ name: string; value: string; number: boolean }> {
  const id = model.segments.find((segment) => segment.role === 'id')?.text
  if (id !== undefined && /^-?\d+$/.test(id)) {
    const other = String(BigInt(id) > 1n ? BigInt(id) - 1n : BigInt(id) + 1n)
    return ['petId', 'id'].map((name) => ({ name, value: other, number: true }))
  }
  return model.query.map((field) => {
    const [other] = otherValues(model, { kind: 'query value', index: model.query.indexOf(field), label: '' }, field.value)
    return { name: field.name, value: other?.values[0] ?? `${field.value}x`, number: field.name === 'limit' }
  })
}

type ContentForm = 'urlencoded' | 'multipart' | 'JSON'

/**
 * The request with content that names its parameters otherwise, in the form `form` writes (and its Content-Type):
 * beside the query, or `inPlace` of it (the target without a query), which a framework that lets the query win over
 * the content (Rails' `params`) reads all the same.
 */
function withContent(model: RequestModel, form: ContentForm, inPlace = false): RequestModel {
  // In place of the query, the status stays the one the list asked for (the one with most pets, over 20 where the run
  // seeded): a reader that takes the content's limit of 100 then lists more than the default page of 20.
  const status = model.query.find((field) => field.name === 'status')?.value
  const parameters = parametersOtherwise(model).map((parameter) => (inPlace && parameter.name === 'status' && status !== undefined ? { ...parameter, value: status } : parameter))
  const fields = parameters.map(({ name, value }) => [name, value] as const)
  const { contentType, text } =
    form === 'urlencoded'
      ? urlencodedForm(fields)
      : form === 'multipart'
        ? multipartForm(fields)
        : { contentType: 'application/json', text: JSON.stringify(Object.fromEntries(parameters.map(({ name, value, number }) => [name, number ? Number(value) : value]))) }
  const edited = clone(model)
  return { ...edited, ...(inPlace ? { query: [] } : {}), headers: [...edited.headers, { name: 'Content-Type', value: contentType }], body: { text } }
}

/** A member's value as a query writes it: a JSON string's text, a number's digits. */
function queryValueOf(json: string): string {
  try {
    const value: unknown = JSON.parse(json)
    return typeof value === 'string' ? value : json
  } catch {
    return json
  }
}

/**
 * The create with a query naming its members: each with another valid value beside the body (`?name=another name&…`),
 * or `moved`, the name taken out of the body into the query. A framework that merges the query into its parameters
 * (Rails' `params`, PHP's `$_REQUEST`) stores the query's values, or takes the name the body lacks.
 */
function withQuery(model: RequestModel, moved: boolean): RequestModel {
  const edited = clone(model)
  const members = membersIn(edited)
  if (moved) {
    const at = members.findIndex((member) => member.name === 'name')
    const [name] = at < 0 ? [] : members.splice(at, 1)
    return { ...edited, query: name ? [{ name: 'name', value: encodeURIComponent(queryValueOf(name.value)) }] : [] }
  }
  const query = members.map((member, index) => {
    const [other] = otherValues(model, { kind: 'member value', index, label: '' }, member.value)
    return { name: member.name, value: encodeURIComponent(queryValueOf(other?.values[0] ?? member.value)) }
  })
  return { ...edited, query }
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
        // Each order is a class of its own, the seed choosing the value: a layer that reads one end and one that reads the
        // other (a validator and a reader; hyper's headers().get, which takes the first Accept line of two) differ only
        // where the other value comes first, or only where it comes last.
        return (['last', 'first'] as const).map((order) => lazyClass(`${kind} ${order}`, values, (value) => duplicate(value, order, `${kind} ${order}`)))
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
    title: 'send the request as HTTP/1.0, or as HTTP/1.2 (a minor version past any a server implements, which RFC 9110 §2.5 has it read as 1.1)',
    edits: (part) => part.kind === 'version',
    classes: (model, part) =>
      (['HTTP/1.0', 'HTTP/1.2'] as const).map((version) =>
        lazyClass(version, [version], (chosen) => edit('other-version', part, version, `sent as ${chosen}`, writePart(model, part, chosen))),
      ),
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
    id: 'add-content',
    title:
      'send a read with the key content that names its parameters with other values (a form, multipart, JSON), beside its query or in place of it: content on a GET has no meaning (RFC 9110 §9.3.1)',
    // Without the key, any request is refused whatever it carries: content naming a limit is no way past the key.
    edits: (part, _text, model) => part.kind === 'content' && model.authorization.length > 0,
    classes: (model, part) => {
      const made = (form: ContentForm, inPlace = false) =>
        edit(
          'add-content',
          part,
          inPlace ? 'the query as content' : form === 'JSON' ? 'a JSON body' : 'a form body',
          `content naming the parameters otherwise, as ${form === 'JSON' ? 'JSON' : `a ${form} form`}${inPlace ? ', in place of the query' : ''}`,
          withContent(model, form, inPlace),
        )
      return [
        lazyClass('a form body', ['urlencoded', 'multipart'] as const, (form) => made(form)),
        lazyClass('a JSON body', ['JSON'] as const, (form) => made(form)),
        ...(model.query.length > 0 ? [lazyClass('the query as content', ['urlencoded', 'JSON'] as const, (form) => made(form, true))] : []),
      ]
    },
  },
  {
    id: 'add-query',
    title: 'send the create with the key and a query naming its members: with other values beside the body, or the name moved out of the body into the query',
    edits: (part, _text, model) => part.kind === 'query' && model.method === 'POST' && model.authorization.length > 0 && membersIn(model).length > 0,
    classes: (model, part) => [
      lazyClass('the members as a query', [false], (moved) =>
        edit('add-query', part, 'the members as a query', 'a query naming every member with another value', withQuery(model, moved)),
      ),
      lazyClass('a member moved to the query', [true], (moved) =>
        edit('add-query', part, 'a member moved to the query', 'the name moved out of the body into the query', withQuery(model, moved)),
      ),
    ],
  },
  {
    id: 'framing',
    title: 'frame the body otherwise: chunked in one chunk or many, with an extension or a trailer, after Expect: 100-continue, or with Content-Length twice and differing',
    edits: (part) => part.kind === 'framing',
    classes: (model, part) =>
      FRAMINGS.filter((framing) => framing !== model.framing).map((framing) =>
        lazyClass(framing, [framing], (chosen) => edit('framing', part, chosen, `the body framed ${chosen}`, writePart(model, part, chosen))),
      ),
  },
]
