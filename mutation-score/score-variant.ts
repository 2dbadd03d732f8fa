/**
 * One variant judged in-process: the variant served on a free loopback port, the same run the command
 * makes (configuration read from arguments, checks, verdicts), with no reports written, then scored.
 * In-process, so a score of many variants pays the start-up of Node and its modules once.
 *
 * Every variant is judged by the whole suite, model-based sequences included, as a user runs it: a fault
 * judged only by the checks of the requirements it names would hide what the rest of the run does to it
 * (a stall in a shrink of the sequences, say, which only the whole run reaches).
 */

import { petstoreSuite } from '../entry-points/suite.js'
import { resolveConfig } from '../lib/run/config.js'
import { runConfigured } from '../lib/run/run-conformance.js'
import { PetStore, withPets } from '../reference/pet-store.js'
import { startVariant, type Variant } from '../variants/variant.js'
import { scoreFault, scoreLookAlike, type VariantScore } from './score.js'

const SCORE_API_KEY = 'mutation-score-key-8c3e1f'
/** A fixed seed: the score of a given tree is the same on every run. */
export const SCORE_SEED = '424242'

/**
 * The generated cases of a scoring run: fewer than the command's defaults (30 cases per property, 10 sequences
 * of 12 commands, the whole neighbourhood of the plain requests), so that the whole score fits npm test's budget,
 * and never none: 20 edits, every operator among them. A variant that only an edit shows is scored with every edit
 * of the operators that show it (Variant.provenByEdits). The soak, and the score at three seeds, run the defaults.
 */
export const SCORE_GENERATED_CASES = ['--num-runs', '5', '--sequences', '2', '--max-edits', '20'] as const

/**
 * The request timeout of a look-alike's scoring run by default, in ms. npm test judges up to twelve variants at once in
 * one worker, each served in that worker's process: beside three busy processes a run that takes 2 s alone took 213 s,
 * and one list answer written in 16 chunks a loop turn apart outlived the command's 10 s (its timeout then cut the list
 * beside it). That wait was the worker's own, not the service's: a look-alike has no answer that may time out, so it
 * gets room for a starved worker. A fault keeps the command's timeout, which the one that never answers is caught by;
 * but a fault that may fail its own rules alone (onlyCatches) gets the same room: in npm test beside three busy
 * processes and two mutation scores, `method-not-allowed-status-400` twice failed createPet/returns-201-pet (and once
 * getPet/invalid-id) as well, rules whose single request a starved worker may not answer within 10 s.
 */
const LOOK_ALIKE_TIMEOUT_MS = 120_000

/** The arguments of a variant's scoring run, by default: one an edit proves gets every edit of its operators. */
function scoreArgs(variant: Variant, kind: VariantKind): readonly string[] {
  const cases = variant.provenByEdits ? [...SCORE_GENERATED_CASES.slice(0, 4), '--edit-operators', variant.provenByEdits.join(',')] : SCORE_GENERATED_CASES
  return kind === 'look-alike' || variant.onlyCatches ? [...cases, '--timeout-ms', String(LOOK_ALIKE_TIMEOUT_MS)] : cases
}

export type VariantKind = 'fault' | 'look-alike'

/**
 * Pets a variant's store holds before a scoring run: more than the boundary checks need (101, and 21 of one
 * status), as a staging store would, so the run creates only what its checks create. Seeding itself is proven
 * by the end-to-end self-tests and by the soak, which starts from an empty store.
 */
export const SCORE_STORE_PETS = 110

export interface ScoreRunOptions {
  /** The run's seed (default SCORE_SEED). */
  seed?: string
  /** More arguments of the command (default SCORE_GENERATED_CASES); [] runs at the command's defaults. */
  args?: readonly string[]
  /** Pets the store holds at the start (default SCORE_STORE_PETS); 0 starts from the variant's own store, as the soak does. */
  storePets?: number
}

const silent = { out: () => {}, err: () => {} }

export async function scoreVariant(variant: Variant, kind: VariantKind, options: ScoreRunOptions = {}): Promise<VariantScore> {
  const store = withPets(variant.store?.() ?? new PetStore(), options.storePets ?? (variant.freshStore ? 0 : SCORE_STORE_PETS))
  const server = await startVariant(variant, { apiKey: SCORE_API_KEY, store })
  const started = Date.now()
  try {
    const config = resolveConfig({
      argv: ['--base-url', server.baseUrl, '--profile', 'full', '--seed', options.seed ?? SCORE_SEED, ...(options.args ?? scoreArgs(variant, kind))],
      env: { PETSTORE_API_KEY: SCORE_API_KEY },
      cwd: process.cwd(),
      today: () => new Date(),
      randomSeed: () => 0,
    })
    if (config === 'help') throw new Error('unreachable: no --help given')
    const { exitCode, result } = await runConfigured(config, petstoreSuite, silent, { writeReports: false })
    const durationMs = Date.now() - started
    return kind === 'fault' ? scoreFault(variant, result, exitCode, durationMs) : scoreLookAlike(variant, result, exitCode, durationMs)
  } finally {
    await server.close()
  }
}
