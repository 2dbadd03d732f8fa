/** What a requirement of the catalogue is, its levels, and the places its words come from: shared by the catalogue's files. */

export type Level = 'MUST' | 'SHOULD' | 'INFO'

export type Area = 'listPets' | 'createPet' | 'getPet' | 'views' | 'auth' | 'errors' | 'responses' | 'limits' | 'versioning' | 'scope'

export interface RequirementDefinition {
  level: Level
  title: string
  /** The spec's own words (or the policy's, for a settled gap). */
  specText: string
  /** Where the words stand: spec heading path, or the policy section. */
  source: string
  /** How the policy settles a gap, when it does. */
  decision?: string
  /** False for statements the suite lists but cannot test (store orders, events, key issuing, …). */
  testable: boolean
  /** Requirements of the deprecated getPet operation drop to INFO on its removal date. */
  deprecatedOperation?: boolean
  /** True when a check needs to create pets: such a check is inconclusive in the smoke profile. */
  needsWrites?: boolean
  /** Judged by the run from what all checks saw, not by a check of its own (the lag of created pets). */
  reportedByRun?: boolean
}

type Definition = Omit<RequirementDefinition, 'level' | 'testable'>

export const must = (d: Definition) => ({ ...d, level: 'MUST' as const, testable: true })
export const should = (d: Definition) => ({ ...d, level: 'SHOULD' as const, testable: true })
export const info = (d: Definition) => ({ ...d, level: 'INFO' as const, testable: true })
export const untestable = (d: Definition) => ({ ...d, level: 'INFO' as const, testable: false })

export const LIST = 'Endpoints › List animals'
export const CREATE = 'Endpoints › Add an animal'
export const GET = 'Endpoints › Get an animal (deprecated)'
export const AUTH = 'Authentication'
export const ERRORS = 'Errors'
export const POLICY = 'CONFORMANCE-POLICY §2'
