/**
 * The octet operator of policy §2b ("an octet of every class before, inside and after it"): every class of octets at
 * every place of a text part, the sweep of every octet value the key and the id take, the octets a trim takes away, a
 * separator replaced, a reader's line end after the key, and NUL as a JSON escape inside a string member.
 */
import { writePart } from '../spec/request-model.js'
import { type EditClass, type EditOperator, edit, lazyClass } from './edit.js'
import { ENDS_THEN_TEXT, OCTET_CLASSES, positions, SEPARATOR_REPLACEMENTS, STRIPPED_OCTETS, SWEEP_CLASSES, shown, trimmedPlacements } from './octet-classes.js'

/** The class of a query value followed by `;` and text. */
const PAIR_SEPARATOR = 'a pair separator some readers take, then text'

/** The octet operator, over the parts `edits` names (the text parts). */
export function octetOperator(edits: EditOperator['edits']): EditOperator {
  return {
    id: 'octet',
    title: 'insert an octet of every class before, inside and after the part; the separator after Bearer also replaced by another octet',
    edits,
    classes: (model, part, text, { sweep, trimmed, place }) => {
      const places = positions(text)
      // echo's KeyAuth takes whatever follows `Bearer` and one octet as the key: an octet in place of the space gets in.
      const replaced =
        part.kind === 'auth separator'
          ? [
              lazyClass('an octet in its place', SEPARATOR_REPLACEMENTS, (octet) =>
                edit('octet', part, 'an octet in its place', `${shown(octet)} in place of ${part.label}`, writePart(model, part, octet)),
              ),
            ]
          : []
      /** A class of octets, each written where `at` places it (`perValue` edits of each value, one per place). */
      const placedClass = (name: string, values: readonly string[], at: (octets: string, index: number) => { name: string; at: number }, perValue = 1): EditClass => ({
        name,
        count: values.length * perValue,
        edit: (index: number) => {
          const octets = values[Math.floor(index / perValue)] as string
          const { name: where, at: offset } = at(octets, index)
          return edit('octet', part, name, `${shown(octets)} ${where} ${part.label}`, writePart(model, part, `${text.slice(0, offset)}${octets}${text.slice(offset)}`))
        },
      })
      // A bare CR or NUL after the key, then text (ENDS_THEN_TEXT): the token, which is then no key, to a reader that reads
      // them as HTTP has it; the key, to one that ends the value there (Python's header parser, PHP's built-in server).
      const endsThenText =
        part.kind === 'auth token'
          ? ENDS_THEN_TEXT.map(({ name, octet, text: after, words }) =>
              lazyClass(name, [octet], (chosen) =>
                edit('octet', part, name, `${shown(chosen)} and ${words} after ${part.label}`, writePart(model, part, `${text}${chosen}${after}`)),
              ),
            )
          : []
      // NUL written as a JSON escape inside a string member, then text (`"sold\u0000x"`): valid JSON whose string holds
      // NUL (a raw one makes the text malformed), which a service that hands strings to C reads as ending there: a status
      // outside the enum then reads as one in it, a name is stored cut.
      const escapedInString =
        part.kind === 'member value' && /^".*"$/s.test(text)
          ? [
              lazyClass('a JSON-escaped NUL, then text, inside the string', ['\\u0000'], (escaped) =>
                edit(
                  'octet',
                  part,
                  'a JSON-escaped NUL, then text, inside the string',
                  `${escaped} and x inside ${part.label}`,
                  writePart(model, part, `${text.slice(0, -1)}${escaped}x"`),
                ),
              ),
            ]
          : []
      // `;` then text after a query value (`status=sold;x`): no separator in a URI's query (RFC 3986 §3.4) or a form's
      // (WHATWG URL), where Netty's QueryStringDecoder, Python's parse_qs before 3.9.2 and Perl's CGI.pm split pairs at
      // it too (HTML 4.01 §B.2.2): the value cut there reads as the plain one.
      const pairSeparator =
        part.kind === 'query value'
          ? [
              lazyClass(PAIR_SEPARATOR, [';'], (octet) =>
                edit('octet', part, PAIR_SEPARATOR, `${shown(octet)} and x after ${part.label}`, writePart(model, part, `${text}${octet}x`)),
              ),
            ]
          : []
      // Each octet a trim takes away beyond HTTP's and JSON's whitespace, a class of its own: before the scheme,
      // `Authorization:\xA0Bearer <key>` is the key to a header parser that trims Unicode whitespace from a value's start
      // (Mojo::Headers); around a JSON text, at one end each in turn (Servant read `\x0C{…}` as the NewPet).
      const trimmedAway = trimmedPlacements(trimmed, places).map(({ name, octet, at }) => placedClass(name, [octet], () => at))
      return [
        ...replaced,
        ...endsThenText,
        ...escapedInString,
        ...pairSeparator,
        ...trimmedAway,
        ...(sweep ? SWEEP_CLASSES : OCTET_CLASSES).flatMap((octetClass): EditClass[] => {
          // An octet a trim takes away, a class of its own (the key's and the id's sweeps), goes at an end, where the trim
          // would take it (cheroot strips VT and FF from every field, and such a key got in); inside, a trim leaves it.
          const [only] = octetClass.values
          const stripped = octetClass.values.length === 1 && STRIPPED_OCTETS.has(only ?? '')
          const where = stripped && places.length > 2 ? places.filter((at) => at.name !== 'inside') : places
          // The key takes such an octet at each end, a class each: a trim of the field's value bites after it (PHP's trim()
          // let `<key>\x0B` in), a split of the value on whitespace before it (Python's split()); one end by the seed missed either.
          if (stripped && part.kind === 'auth token' && where.length === 2)
            return where.map((fixed) => placedClass(fixed.name === 'after' ? octetClass.name : `${octetClass.name} ${fixed.name} it`, octetClass.values, () => fixed))
          // Every value at every place, or (when a run places them by the seed) every value at one place.
          const perValue = place ? 1 : where.length
          const at = (octets: string, index: number) => (place ? where[place(octets, where.length)] : where[index % perValue]) as (typeof places)[number]
          return [placedClass(octetClass.name, octetClass.values, at, perValue)]
        }),
      ]
    },
  }
}
