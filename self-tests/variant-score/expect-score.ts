/** The variant score inside npm test: each variant judged in-process by the same run the command makes. */
import { expect } from 'vitest'
import { scoreVariant } from '../../mutation-score/score-variant.js'
import type { Variant } from '../../variants/variant.js'

/**
 * How long one variant's test may take: its file runs up to 12 variants at once in one worker, each a whole run in
 * that worker's process, so a test's wall time is the file's share of two cores, which another npm test or a soak
 * beside it can triple. A bound on a stall, not on speed (a run's own deadline and watchdog bound the run). The
 * slowest, a look-alike that answers every seventh request 429, takes 51 s alone, quiet or beside three busy
 * processes; among eleven other runs in its worker beside two mutation scores it took more than 180 s once.
 */
export const VARIANT_TEST_TIMEOUT_MS = 300_000

/** The fault is caught by a requirement it names, and the run ended with a verdict (exit 0 or 1). */
export async function expectCaught(fault: Variant): Promise<void> {
  const score = await scoreVariant(fault, 'fault')
  expect(score.ok, `${fault.name} (${fault.description}): ${score.note ?? ''}; flagged: ${score.flagged.join(', ') || 'nothing'}`).toBe(true)
}

/** The look-alike is conformant: exit 0, nothing failed, and warnings only where it declares them. */
export async function expectPassed(lookAlike: Variant): Promise<void> {
  const score = await scoreVariant(lookAlike, 'look-alike')
  const why = [...(score.firstFailures ?? []), ...(score.stalls ?? [])].map((line) => `\n  ${line}`).join('')
  expect(score.ok, `${lookAlike.name} (${lookAlike.description}): unexpected ${score.requirements.join(', ')}${score.note ? ` (${score.note})` : ''}${why}`).toBe(true)
}

/** Rows for test.for: the name, for the title, and the variant. */
export function rows(variants: readonly Variant[]): Array<[string, Variant]> {
  return variants.map((variant) => [variant.name, variant])
}
