/**
 * One variant judged in-process: the variant served on a free loopback port, the same run the command
 * makes (configuration read from arguments, checks, verdicts), with no reports written, then scored.
 * In-process, so a score of many variants pays the start-up of Node and its modules once.
 *
 * A fault is run with `--requirements` set to the requirements it names: only those can catch it (see
 * score.ts), so the other checks would be work whose verdicts the score never reads. A fault caught by a
 * requirement judged on every exchange runs the whole suite, since any check may send the request that
 * shows it; so does a look-alike, since any requirement may falsely fail it.
 */
import { EVERY_EXCHANGE_REQUIREMENTS } from '../lib/checks/incidental-checks.js'
import { resolveConfig } from '../lib/run/config.js'
import { runConfigured } from '../lib/run/run-conformance.js'
import { PetStore } from '../reference/pet-store.js'
import { startVariant, type Variant } from '../variants/variant.js'
import { scoreFault, scoreLookAlike, type VariantScore } from './score.js'

const SCORE_API_KEY = 'mutation-score-key-8c3e1f'
/** A fixed seed: the score of a given tree is the same on every run. */
export const SCORE_SEED = '424242'

export type VariantKind = 'fault' | 'look-alike'

const silent = { out: () => {}, err: () => {} }

/** The requirement filter of a variant's run: none (the whole suite) unless the checks of its named requirements alone can catch it. */
function requirementsToRun(variant: Variant, kind: VariantKind): string[] {
  const catches = variant.catches ?? []
  if (kind === 'look-alike' || catches.length === 0 || catches.some((id) => EVERY_EXCHANGE_REQUIREMENTS.includes(id))) return []
  return catches
}

function requirementArgs(ids: readonly string[]): string[] {
  return ids.length > 0 ? ['--requirements', ids.join(',')] : []
}

/**
 * The model-based sequences run for every look-alike (any of them may falsely fail one) and for the faults
 * made for them (those naming a views/ requirement). A fault named after a rule-by-rule requirement is scored
 * on that rule's own checks: sequences would judge it too, and their shrinking would only cost time.
 */
function sequenceArgs(variant: Variant, kind: VariantKind): string[] {
  return kind === 'fault' && !(variant.catches ?? []).some((id) => id.startsWith('views/')) ? ['--sequences', '0'] : []
}

export async function scoreVariant(variant: Variant, kind: VariantKind): Promise<VariantScore> {
  const server = await startVariant(variant, { apiKey: SCORE_API_KEY, store: variant.store?.() ?? new PetStore() })
  const started = Date.now()
  try {
    const config = resolveConfig({
      argv: ['--base-url', server.baseUrl, '--profile', 'full', '--seed', SCORE_SEED, ...requirementArgs(requirementsToRun(variant, kind)), ...sequenceArgs(variant, kind)],
      env: { PETSTORE_API_KEY: SCORE_API_KEY },
      cwd: process.cwd(),
      today: () => new Date(),
      randomSeed: () => 0,
    })
    if (config === 'help') throw new Error('unreachable: no --help given')
    const { exitCode, result } = await runConfigured(config, silent, { writeReports: false })
    const durationMs = Date.now() - started
    return kind === 'fault' ? scoreFault(variant, result, exitCode, durationMs) : scoreLookAlike(variant, result, exitCode, durationMs)
  } finally {
    await server.close()
  }
}
