/**
 * Conformant look-alikes: implementations that behave unusually but within the spec and the policy. Each is one
 * allowance of variants/allowances/ applied alone to the reference; the variant score also draws them in combinations
 * (variants/allowances/combinations.ts). A careless suite fails them; this one must not.
 */
import { lookAlikeOf } from './allowances/allowance.js'
import { allowances } from './allowances/index.js'
import type { Variant } from './variant.js'

export const lookAlikes: Variant[] = allowances.map((allowance) => lookAlikeOf([allowance]))
