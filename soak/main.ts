#!/usr/bin/env node
/**
 * The soak of the runner itself: the whole suite, at the command's defaults (sequences and generated cases
 * included), against every fault and look-alike of the variant score, at many random seeds, several runs at
 * a time. What one seed in a thousand reaches, a nightly run will reach: this is where it shows first.
 *
 *   npm run soak -- --seeds 50                  every variant at 50 random seeds
 *   npm run soak -- --seeds 5 --only name,name  a few variants
 *   npm run soak -- --seed-list 1,988278364     given seeds (a replay of what a soak found)
 *
 * Each run is a process of its own, cut at --limit-s: a run cut there HUNG. A run that ended without a score
 * (the process died, or the run ended in a harness error) CRASHED. A run whose score is not the variant's
 * (a fault missed, a look-alike failed) CHANGED the verdict. A run in which the watchdog saw the suite send
 * nothing while checks waited STALLED. The exit code is 1 when any run did one of those.
 */
import { randomInt } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { parseArgs } from 'node:util'
import { mapConcurrently } from '../lib/http/concurrency.js'
import { faults } from '../variants/faults/index.js'
import { lookAlikes } from '../variants/look-alikes.js'
import { type Problem, runOnce, type SoakRun, seconds } from './run-once.js'

/** Per variant with a problem: which seeds did what. */
function renderProblems(runs: readonly SoakRun[]): string[] {
  const lines: string[] = []
  const byVariant = new Map<string, SoakRun[]>()
  for (const run of runs) if (run.problem) byVariant.set(`${run.kind} ${run.name}`, [...(byVariant.get(`${run.kind} ${run.name}`) ?? []), run])
  for (const [variant, problems] of byVariant) {
    lines.push(`  ${variant}`)
    for (const run of problems) lines.push(`    seed ${run.seed}: ${run.problem?.toUpperCase()} after ${seconds(run.wallMs)}: ${run.detail ?? ''}`)
  }
  return lines
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: '10' },
      'seed-list': { type: 'string' },
      only: { type: 'string' },
      jobs: { type: 'string', default: String(availableParallelism()) },
      'limit-s': { type: 'string', default: '120' },
    },
  })
  const seeds = values['seed-list'] ? values['seed-list'].split(',').map(Number) : Array.from({ length: Number(values.seeds) }, () => randomInt(0, 2 ** 31 - 1))
  const jobs = Number(values.jobs)
  const limitMs = Number(values['limit-s']) * 1000
  if (seeds.some((seed) => !Number.isInteger(seed)) || !(jobs >= 1) || !(limitMs > 0)) {
    process.stderr.write('usage: soak [--seeds N | --seed-list a,b] [--only name,name] [--jobs N] [--limit-s S]\n')
    return 2
  }
  const only = values.only?.split(',').map((name) => name.trim())
  const variants = [
    ...faults.map((variant) => ({ kind: 'fault' as const, name: variant.name })),
    ...lookAlikes.map((variant) => ({ kind: 'look-alike' as const, name: variant.name })),
  ].filter((variant) => only === undefined || only.includes(variant.name))
  const plan = seeds.flatMap((seed) => variants.map((variant) => ({ ...variant, seed })))
  if (plan.length === 0) {
    process.stderr.write(`no runs to make: ${variants.length === 0 ? `--only names no variant (${values.only})` : 'no seeds'}\n`)
    return 2
  }
  process.stdout.write(
    `Soak: ${plan.length} runs (${variants.length} variants × ${seeds.length} seeds), ${jobs} at a time, each cut at ${seconds(limitMs)}\nSeeds: ${seeds.join(',')}\n`,
  )
  const started = Date.now()
  let done = 0
  const runs = await mapConcurrently(plan, jobs, async ({ kind, name, seed }) => {
    const run = await runOnce(kind, name, seed, limitMs)
    done += 1
    if (run.problem) process.stdout.write(`  ${run.problem.toUpperCase()}: ${kind} ${name} at seed ${seed} (${seconds(run.wallMs)}): ${run.detail ?? ''}\n`)
    if (done % 50 === 0) process.stdout.write(`  … ${done}/${plan.length} runs, ${seconds(Date.now() - started)}\n`)
    return run
  })
  const count = (problem: Problem) => runs.filter((run) => run.problem === problem).length
  const slowest = runs.reduce((worst, run) => (run.wallMs > worst.wallMs ? run : worst))
  const heaviest = runs.reduce((worst, run) => ((run.peakRssBytes ?? 0) > (worst.peakRssBytes ?? 0) ? run : worst))
  const problems = renderProblems(runs)
  process.stdout.write(
    [
      '',
      ...(problems.length > 0 ? ['Variants with a problem:', ...problems, ''] : []),
      `Runs: ${runs.length}; hung: ${count('hung')}; stalled: ${count('stalled')}; crashed: ${count('crashed')}; verdict changed: ${count('changed')}`,
      `Wall: ${seconds(Date.now() - started)}; slowest run ${seconds(slowest.wallMs)} (${slowest.kind} ${slowest.name}, seed ${slowest.seed}); peak memory of one run ${((heaviest.peakRssBytes ?? 0) / 2 ** 20).toFixed(0)} MiB (${heaviest.kind} ${heaviest.name}, seed ${heaviest.seed}; the variant's server runs in the same process)`,
      '',
    ].join('\n'),
  )
  return runs.some((run) => run.problem) ? 1 : 0
}

process.exitCode = await main()
