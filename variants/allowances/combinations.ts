/**
 * Look-alikes drawn as combinations of allowances: every allowance alone, pairs and a few triples the seed chooses
 * among those that may go together (one of each group). Conformant services differ in many ways at once; a suite
 * whose expectations are each allowed alone can still fail a service that has two of them, where two rules meet.
 */
import { seededIndex } from '../../lib/neighbourhood/seeded-choice.js'
import type { Variant } from '../variant.js'
import { type Allowance, combinationName, compatible, lookAlikeOf } from './allowance.js'
import { allowances } from './index.js'

export interface CombinationDraw {
  /** Every allowance alone. */
  singles: boolean
  pairs: number
  triples: number
}

/** The full score's draw: every allowance alone, 150 pairs and 30 triples (over 200 combinations in all). */
export const FULL_DRAW: CombinationDraw = { singles: true, pairs: 150, triples: 30 }

/** A set of allowances that may go together: no two of one group. */
const goTogether = (set: readonly Allowance[]) => set.every((allowance, index) => set.slice(index + 1).every((other) => compatible(allowance, other)))

/**
 * `count` sets of `size` allowances, each set of compatible allowances, no set twice, chosen by the seed: each
 * member in turn is the allowance the seed picks among those not yet used most, so every allowance takes part
 * about as often as every other.
 */
function drawSets(pool: readonly Allowance[], size: number, count: number, seed: number): Allowance[][] {
  const sets: Allowance[][] = []
  const seen = new Set<string>()
  const uses = new Map(pool.map((allowance) => [allowance.id, 0]))
  for (let attempt = 0; sets.length < count && attempt < count * 20; attempt++) {
    const set: Allowance[] = []
    for (let member = 0; member < size; member++) {
      const candidates = pool.filter((allowance) => goTogether([...set, allowance]))
      if (candidates.length === 0) break
      const fewest = Math.min(...candidates.map((allowance) => uses.get(allowance.id) ?? 0))
      const least = candidates.filter((allowance) => (uses.get(allowance.id) ?? 0) <= fewest + 1)
      set.push(least[seededIndex(seed, `${size}|${attempt}|${member}`, least.length)] as Allowance)
    }
    const name = combinationName(set)
    if (set.length !== size || seen.has(name)) continue
    seen.add(name)
    for (const allowance of set) uses.set(allowance.id, (uses.get(allowance.id) ?? 0) + 1)
    sets.push(set)
  }
  return sets
}

/** The combinations of a draw, by the seed: singles first, then pairs, then triples. */
export function drawCombinations(seed: number, draw: CombinationDraw, pool: readonly Allowance[] = allowances): Allowance[][] {
  return [...(draw.singles ? pool.map((allowance) => [allowance]) : []), ...drawSets(pool, 2, draw.pairs, seed), ...drawSets(pool, 3, draw.triples, seed)]
}

/**
 * A few combinations that together hold every allowance at least once, `size` to a set where groups allow: the
 * sample npm test runs (a different one at every seed). A false failure there names its set; the full score runs
 * each member alone too.
 */
export function coveringCombinations(seed: number, size: number, pool: readonly Allowance[] = allowances): Allowance[][] {
  const left = new Set(pool.map((allowance) => allowance.id))
  const sets: Allowance[][] = []
  let round = 0
  while (left.size > 0) {
    const set: Allowance[] = []
    for (let member = 0; member < size; member++) {
      const unused = pool.filter((allowance) => left.has(allowance.id) && goTogether([...set, allowance]))
      if (unused.length === 0) break
      const chosen = unused[seededIndex(seed, `cover|${round}|${member}`, unused.length)] as Allowance
      set.push(chosen)
      left.delete(chosen.id)
    }
    sets.push(set)
    round += 1
  }
  return sets
}

/** The look-alike a combination's name (its allowances' ids joined by `+`) stands for, or undefined when an id is unknown. */
export function lookAlikeNamed(name: string, pool: readonly Allowance[] = allowances): Variant | undefined {
  const set = name.split('+').map((id) => pool.find((allowance) => allowance.id === id))
  return set.every((allowance) => allowance !== undefined) && goTogether(set as Allowance[]) ? lookAlikeOf(set as Allowance[]) : undefined
}
