/**
 * The edit operators of the neighbourhood, by id: the one list of them. lib/neighbourhood/edit-operators.ts writes a
 * row for each (its type says so), --edit-operators may name them, and results.json's schema enumerates them (a
 * self-test holds the schema to this list).
 */
export const EDIT_OPERATOR_IDS = [
  'drop',
  'duplicate',
  'differing-duplicate',
  'case',
  'percent',
  'octet',
  'notation',
  'bracket-name',
  'other-method',
  'other-version',
  'target-form',
  'add-content',
  'add-query',
  'framing',
  'add-field',
  'add-member',
  'nest',
  'json-text',
] as const

export type OperatorId = (typeof EDIT_OPERATOR_IDS)[number]
