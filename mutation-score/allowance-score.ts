#!/usr/bin/env node
/**
 * The allowance score: conformant look-alikes drawn as combinations of the policy's allowances (every allowance
 * alone, pairs and triples the seed chooses), each judged by the whole suite at the command's defaults in a process
 * of its own, several at a time. Any failure or warning the policy does not call for is a false failure, named by
 * the allowance set that showed it. Exit 1 on any.
 *
 *   npm run allowance-score                         the full draw at seed 1 (every single, 150 pairs, 30 triples)
 *   npm run allowance-score -- --seed 7 --jobs 4    another seed's pairs and triples
 *   npm run allowance-score -- --only accept-without-json-406,limit-clamped+charset-utf-8
 */
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { mapConcurrently } from '../lib/http/concurrency.js'
import { type Problem, runOnce, type SoakRun, seconds } from '../soak/run-once.js'
import { combinationName } from '../variants/allowances/allowance.js'
import { drawCombinations, FULL_DRAW, lookAlikeNamed } from '../variants/allowances/combinations.js'
import { allowances } from '../variants/allowances/index.js'

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      only: { type: 'string' },
      pairs: { type: 'string', default: String(FULL_DRAW.pairs) },
      triples: { type: 'string', default: String(FULL_DRAW.triples) },
      'no-singles': { type: 'boolean' },
      jobs: { type: 'string', default: String(Math.max(3, availableParallelism())) },
      'limit-s': { type: 'string', default: '300' },
    },
  })
  const seed = Number(values.seed)
  const jobs = Number(values.jobs)
  const limitMs = Number(values['limit-s']) * 1000
  if (!Number.isInteger(seed) || !(jobs >= 1) || !(limitMs > 0)) {
    process.stderr.write('usage: allowance-score [--seed N] [--only a,b+c] [--pairs N] [--triples N] [--no-singles] [--jobs N] [--limit-s S]\n')
    return 2
  }
  const names = values.only
    ? values.only.split(',').map((name) => name.trim())
    : drawCombinations(seed, { singles: !values['no-singles'], pairs: Number(values.pairs), triples: Number(values.triples) }).map(combinationName)
  const unknown = names.filter((name) => lookAlikeNamed(name) === undefined)
  if (unknown.length > 0) {
    process.stderr.write(`no such allowance, or allowances of one group together: ${unknown.join(', ')}\n`)
    return 2
  }
  process.stdout.write(`Allowance score: ${names.length} combinations of ${allowances.length} allowances, seed ${seed}, at the command's defaults, ${jobs} at a time\n`)
  const started = Date.now()
  let done = 0
  const runs = await mapConcurrently(names, jobs, async (name) => {
    const run = await runOnce('look-alike', name, seed, limitMs)
    done += 1
    if (run.problem) process.stdout.write(`  ${run.problem.toUpperCase()}: ${name} (${seconds(run.wallMs)}): ${run.detail ?? ''}\n`)
    if (done % 25 === 0) process.stdout.write(`  … ${done}/${names.length}, ${seconds(Date.now() - started)}\n`)
    return run
  })
  const count = (problem: Problem) => runs.filter((run) => run.problem === problem).length
  const slowest = runs.reduce<SoakRun | undefined>((worst, run) => (!worst || run.wallMs > worst.wallMs ? run : worst), undefined)
  const sizes = [1, 2, 3].map((size) => names.filter((name) => name.split('+').length === size).length)
  process.stdout.write(
    [
      '',
      `Combinations: ${runs.length} (${sizes[0]} single, ${sizes[1]} pairs, ${sizes[2]} triples) of ${allowances.length} allowances`,
      `Falsely failed or warned: ${count('changed')}; hung: ${count('hung')}; stalled: ${count('stalled')}; crashed: ${count('crashed')}`,
      `Wall: ${seconds(Date.now() - started)}${slowest ? `; slowest ${slowest.name} ${seconds(slowest.wallMs)}` : ''}`,
      '',
    ].join('\n'),
  )
  return runs.some((run) => run.problem) ? 1 : 0
}

process.exitCode = await main()
