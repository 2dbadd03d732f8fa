/**
 * An edit of a request as a value (policy §2b): the operator and part it edits, the class of values it belongs to, and
 * the request it makes; the operators (edit-operators.ts, http-part-operators.ts) give their edits in classes.
 */
import type { OperatorId } from '../settings/settings.js'
import type { PartRef, RequestModel } from '../spec/request-model.js'
import type { DictionaryField } from './field-dictionary.js'

export interface Edit {
  operator: OperatorId
  part: PartRef
  /** The class of values the edit belongs to: a full run sends one edit of each class. */
  valueClass: string
  /** The edit in words: `0x1F inside`, `add X-Forwarded-For`. */
  label: string
  model: RequestModel
  /** The body's octets when they are not the model's JSON text (a body sent gzipped). */
  bodyOctets?: string
  /** The field the edit added, for the answer's judgement. */
  field?: DictionaryField
  /** The corpus a JSON text came from, for its judgement: `n_` must be refused, `i_` and `y_` fragments are INFO. */
  corpus?: 'n_' | 'i_' | 'y_'
}

/** A class of values of one operator on one part: how many edits it holds, and each made only when asked for. */
export interface EditClass {
  name: string
  count: number
  edit: (index: number) => Edit
}

export interface EditOperator {
  id: OperatorId
  title: string
  /** Whether it edits this part (whose text is `text`). */
  edits: (part: PartRef, text: string, model: RequestModel) => boolean
  /**
   * The classes of edits it makes of the part. `sweep`: the part takes every octet value as a class of its own (the
   * key, the id). `place`: where an inserted octet goes, by the seed, when a run sends every value but not at every place.
   */
  classes: (model: RequestModel, part: PartRef, text: string, options: ClassOptions) => EditClass[]
}

export interface ClassOptions {
  /** The part takes every octet value, each a class of its own (the key, the id). */
  sweep: boolean
  /**
   * Where a reader's trim takes octets away from the part: each octet a trim takes beyond HTTP's and JSON's whitespace
   * (TRIMMED_BEYOND_WHITESPACE) is a class of its own there. `before`: the part begins a field's value (the scheme of the list request's Authorization, as the key's
   * sweep has them after the key). `ends`: the part is a whole text whose own whitespace is narrower than a trim's (the
   * create's JSON text), each such octet at one end, the ends taken in turn.
   */
  trimmed?: 'before' | 'ends'
  /** Where an inserted octet goes, by the seed, when a run sends every value but not at every place. */
  place?: (value: string, count: number) => number
  /** Whether the run may write (false: read-only, and no method that may change the store is sent). */
  writes: boolean
}

/** A class whose edits are made one at a time, from a list of values. */
export function lazyClass<T>(name: string, values: readonly T[], make: (value: T) => Edit): EditClass {
  return { name, count: values.length, edit: (index) => make(values[index] as T) }
}

export function edit(operator: OperatorId, part: PartRef, valueClass: string, label: string, model: RequestModel, extra: Partial<Edit> = {}): Edit {
  return { operator, part, valueClass, label, model, ...extra }
}
