/**
 * An allowance: one thing the spec, the policy or HTTP lets a conformant service (or an intermediary in front of it)
 * do that the reference does not, written as an operator on the reference. Allowances compose: a look-alike is a set
 * of them, each applied at its layer, so the variant score can explore the space of conformant services as the
 * neighbourhood explores the space of requests (docs/allowances.md maps every allowance of the policy to its operator).
 */
import type { OperatorId } from '../../lib/settings/settings.js'
import type { RequirementId } from '../../lib/spec/catalogue.js'
import type { Handler } from '../../reference/http-types.js'
import { PetStore } from '../../reference/pet-store.js'
import type { Variant, VariantContext } from '../variant.js'

/**
 * Where an allowance acts, innermost first: what the store holds and assigns; the service's own choices once it has
 * the key; how it reads the key; its router, which may answer before the key is read; how it writes its answers; how
 * its HTTP server delivers them; and an edge (a gateway, a proxy) in front of it all.
 */
export const LAYERS = ['store', 'service', 'auth', 'router', 'answers', 'transport', 'edge'] as const
export type Layer = (typeof LAYERS)[number]

/** What grants an allowance: a row of the policy (its §2 or §2b name, as the policy writes it), the spec, or an RFC section. */
export type AllowanceSource = { policy: string } | { spec: string } | { rfc: string }

export interface Allowance {
  /** Stable, kebab-case; the look-alike of the allowance alone has this name. */
  id: string
  /** What the service does, in words a vendor would use. */
  does: string
  source: AllowanceSource
  /** The words of the source that allow it. */
  allowedBy: string
  layer: Layer
  /**
   * Allowances that decide the same thing in different ways share a group: a combination takes one of each group (a
   * store's ids come from one scheme; an out-of-range limit is refused or clamped, not both).
   */
  group?: string
  /** SHOULD requirements the allowance may warn on: the policy's SHOULD it departs from. Never a MUST. */
  warns?: readonly RequirementId[]
  /** A store of its own (the store layer's id schemes): the combination's store starts from it. */
  ids?: () => PetStore
  /** What it does to the store before the run: pets already there, the order lists come in. */
  prepare?: (store: PetStore) => void
  /** How its server runs (an edge sees every path; a short keep-alive). */
  server?: NonNullable<Variant['server']>
  /** The operator: the handler it makes of the one inside it. */
  wrap?: (inner: Handler, context: VariantContext) => Handler
  /** Operators whose edits alone reach what it does: npm test's score sends every edit of them (Variant.provenByEdits). */
  provenByEdits?: readonly OperatorId[]
}

export function allowanceSourceText(source: AllowanceSource): string {
  if ('policy' in source) return `policy: ${source.policy}`
  if ('spec' in source) return `spec: ${source.spec}`
  return source.rfc
}

/** Whether two allowances may be applied together: not of one group. */
export function compatible(a: Allowance, b: Allowance): boolean {
  return a.id !== b.id && (a.group === undefined || a.group !== b.group)
}

/** The name of a combination: its allowances' ids, in layer order, joined by `+`. */
export function combinationName(set: readonly Allowance[]): string {
  return inLayerOrder(set)
    .map((allowance) => allowance.id)
    .join('+')
}

function inLayerOrder(set: readonly Allowance[]): Allowance[] {
  return [...set].sort((a, b) => LAYERS.indexOf(a.layer) - LAYERS.indexOf(b.layer) || (a.id < b.id ? -1 : 1))
}

/**
 * The look-alike a set of allowances makes: the reference wrapped by each allowance's operator, innermost layer
 * first (so the router answers before auth, and the edge before everything); its store from the one id scheme
 * among them, prepared by each; warnings allowed where any of them warns.
 */
export function lookAlikeOf(set: readonly Allowance[]): Variant {
  const ordered = inLayerOrder(set)
  for (const [index, allowance] of ordered.entries()) {
    const clash = ordered.slice(index + 1).find((other) => !compatible(allowance, other))
    if (clash) throw new Error(`allowances ${allowance.id} and ${clash.id} decide the same thing (group ${allowance.group}): a combination takes one`)
  }
  const warns = [...new Set(ordered.flatMap((allowance) => allowance.warns ?? []))]
  const server = Object.assign({}, ...ordered.map((allowance) => allowance.server ?? {})) as NonNullable<Variant['server']>
  const ids = ordered.find((allowance) => allowance.ids)?.ids
  const provenByEdits = [...new Set(ordered.flatMap((allowance) => allowance.provenByEdits ?? []))]
  const preparing = ordered.filter((allowance) => allowance.prepare)
  return {
    name: combinationName(ordered),
    description: ordered.map((allowance) => allowance.does).join('; '),
    ...(warns.length > 0 ? { allowedWarnings: warns } : {}),
    ...(provenByEdits.length > 0 ? { provenByEdits } : {}),
    ...(Object.keys(server).length > 0 ? { server } : {}),
    ...(ids || preparing.length > 0
      ? {
          store: () => {
            const store = ids?.() ?? new PetStore()
            for (const allowance of preparing) allowance.prepare?.(store)
            return store
          },
        }
      : {}),
    wrap: (reference, context) => ordered.reduce((inner, allowance) => (allowance.wrap ? allowance.wrap(inner, context) : inner), reference),
  }
}

/**
 * An allowance that departs from a SHOULD, scored as a fault: the SHOULD requirement it departs from must warn on it
 * (a suite that never warned would not hold the SHOULD at all). Its name says so: `<allowance>, warned`.
 */
export function warnedFaultOf(allowance: Allowance): Variant {
  if (!allowance.warns?.length) throw new Error(`${allowance.id} departs from no SHOULD: it is no fault`)
  return { ...lookAlikeOf([allowance]), name: `${allowance.id}-warned`, catches: [...allowance.warns], allowedWarnings: [] }
}
