/**
 * Members an edit adds to a NewPet body (policy §2b): the spec's names in other letter cases (member names are
 * case-sensitive, RFC 8259 §8.3, so each is an unknown member the open schema allows, and must not stand in for
 * the spec's own), names that mean something to common object models, and very long names. Every one leaves the
 * body a valid NewPet: the answer is a 201 that echoes the spec's members as sent.
 */

export interface DictionaryMember {
  /** The name as written between the quotes. */
  name: string
  /**
   * Its value as JSON text: one that would change the pet if a service read it as the spec's member. `another
   * status` is a status other than the one the body sends, so that a service that reads it shows something.
   */
  value: string | 'another status'
  family: 'spec name in another case' | 'object-model name' | 'long name'
}

export const MEMBER_DICTIONARY: readonly DictionaryMember[] = [
  { name: 'Name', value: '"read as name"', family: 'spec name in another case' },
  { name: 'NAME', value: '"read as name"', family: 'spec name in another case' },
  { name: 'categoryid', value: '987654321', family: 'spec name in another case' },
  { name: 'CategoryId', value: '987654321', family: 'spec name in another case' },
  { name: 'CATEGORYID', value: '"not a number"', family: 'spec name in another case' },
  { name: 'Status', value: '"no-such-status"', family: 'spec name in another case' },
  { name: 'STATUS', value: 'another status', family: 'spec name in another case' },
  { name: 'Id', value: '1', family: 'spec name in another case' },
  { name: '__proto__', value: '{"name":"from the prototype","categoryId":1,"status":"sold","isAdmin":true}', family: 'object-model name' },
  { name: 'constructor', value: '{"prototype":{"status":"sold","isAdmin":true}}', family: 'object-model name' },
  { name: 'prototype', value: '{"status":"sold"}', family: 'object-model name' },
  { name: 'toString', value: '"not a function"', family: 'object-model name' },
  { name: 'hasOwnProperty', value: '"not a function"', family: 'object-model name' },
  { name: 'valueOf', value: '0', family: 'object-model name' },
  { name: '$where', value: '"1 == 1"', family: 'object-model name' },
  { name: 'class', value: '"java.lang.Runtime"', family: 'object-model name' },
  { name: 'x'.repeat(1024), value: '1', family: 'long name' },
  { name: 'n'.repeat(65_536), value: '1', family: 'long name' },
]

const STATUSES = ['available', 'pending', 'sold'] as const

/** A member's value as JSON text for a body whose own status member is `sent` (its JSON text, or undefined without one). */
export function memberValue(member: DictionaryMember, sent: string | undefined): string {
  if (member.value !== 'another status') return member.value
  const at = STATUSES.findIndex((status) => JSON.stringify(status) === sent)
  return JSON.stringify(STATUSES[(at + 1) % STATUSES.length])
}
