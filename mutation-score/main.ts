#!/usr/bin/env node
/**
 * The mutation score as a table: the run of the command, in-process, against every fault and every
 * conformant look-alike, and what was caught, missed, passed or falsely failed. Exit code 1 on any missed
 * fault or false failure. Options: --only name,name (a subset); --seed N (another seed than the score's own);
 * --defaults (every variant at the command's own numbers: 30 cases per property, 10 sequences, the whole
 * neighbourhood of every request, as users run it). npm test holds the same score, at the score's reduced numbers,
 * through self-tests/variant-score/, one test per variant.
 */
import { parseArgs } from 'node:util'
import { faults } from '../variants/faults/index.js'
import { lookAlikes } from '../variants/look-alikes.js'
import type { Variant } from '../variants/variant.js'
import { renderScoreTable, summariseScores, type VariantScore } from './score.js'
import { SCORE_SEED, scoreVariant } from './score-variant.js'

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, seed: { type: 'string' }, defaults: { type: 'boolean' } } })
  const seed = values.seed ?? SCORE_SEED
  const options = { seed, ...(values.defaults ? { args: [] } : {}) }
  const only = values.only?.split(',').map((name) => name.trim())
  const pick = (variant: Variant) => only === undefined || only.includes(variant.name)
  const jobs = [
    ...lookAlikes.filter(pick).map((variant) => ({ variant, kind: 'look-alike' as const })),
    ...faults.filter(pick).map((variant) => ({ variant, kind: 'fault' as const })),
  ]
  const started = Date.now()
  process.stdout.write(`Mutation score: ${jobs.length} variants, one after another in this process, seed ${seed}${values.defaults ? ", at the command's defaults" : ''}\n`)
  const scores: VariantScore[] = []
  for (const { variant, kind } of jobs) scores.push(await scoreVariant(variant, kind, options))
  process.stdout.write(`${renderScoreTable(scores)}\nTook ${((Date.now() - started) / 1000).toFixed(1)} s (${(process.cpuUsage().user / 1e6).toFixed(1)} s of CPU)\n`)
  const summary = summariseScores(scores)
  return summary.caught === summary.faults && summary.falseFailures === 0 ? 0 : 1
}

process.exitCode = await main()
