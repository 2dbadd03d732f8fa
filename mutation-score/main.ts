#!/usr/bin/env node
/**
 * The mutation score: the real command against every fault and every conformant look-alike, a few at a
 * time, and a table of what was caught, missed, passed or falsely failed. Exit code 1 on any missed fault
 * or false failure. Options: --only name,name (a subset), --concurrency N (default: one more than the
 * machine's cores, since every run also waits on its target).
 */
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { mapConcurrently } from '../lib/concurrency.js'
import { PetStore } from '../reference/pet-store.js'
import { faults } from '../variants/faults/index.js'
import { lookAlikes } from '../variants/look-alikes.js'
import { startVariant, type Variant } from '../variants/variant.js'
import { runSuite } from './run-suite.js'
import { renderScoreTable, scoreFault, scoreLookAlike, summariseScores, type VariantScore } from './score.js'

const API_KEY = 'mutation-score-key-8c3e1f'
/** A fixed seed: the score of a given tree is the same on every run. */
const SEED = '424242'

async function scoreVariant(variant: Variant, kind: 'fault' | 'look-alike'): Promise<VariantScore> {
  const server = await startVariant(variant, { apiKey: API_KEY, store: variant.store?.() ?? new PetStore() })
  const started = Date.now()
  try {
    const outcome = await runSuite(['--base-url', server.baseUrl, '--profile', 'full', '--seed', SEED], { PETSTORE_API_KEY: API_KEY })
    const durationMs = Date.now() - started
    return kind === 'fault' ? scoreFault(variant, outcome.results, outcome.code, durationMs) : scoreLookAlike(variant, outcome.results, outcome.code, durationMs)
  } finally {
    await server.close()
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, concurrency: { type: 'string' } } })
  const only = values.only?.split(',').map((name) => name.trim())
  const pick = (variant: Variant) => only === undefined || only.includes(variant.name)
  const jobs = [
    ...lookAlikes.filter(pick).map((variant) => ({ variant, kind: 'look-alike' as const })),
    ...faults.filter(pick).map((variant) => ({ variant, kind: 'fault' as const })),
  ]
  const concurrency = Number(values.concurrency ?? availableParallelism() + 1)
  const started = Date.now()
  process.stdout.write(`Mutation score: ${jobs.length} variants, ${concurrency} at a time, seed ${SEED}\n`)
  const scores = await mapConcurrently(jobs, concurrency, ({ variant, kind }) => scoreVariant(variant, kind))
  process.stdout.write(
    `${renderScoreTable(scores)}\nTook ${((Date.now() - started) / 1000).toFixed(1)} s (targets served with ${(process.cpuUsage().user / 1e6).toFixed(1)} s of CPU)\n`,
  )
  const summary = summariseScores(scores)
  return summary.caught === summary.faults && summary.falseFailures === 0 ? 0 : 1
}

process.exitCode = await main()
