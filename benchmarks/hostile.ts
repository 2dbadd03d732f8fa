#!/usr/bin/env node
/**
 * The hostile benchmark (npm run bench:hostile): the built command, at its default settings, against
 * local targets built to hurt it: a list that drips forever, a gzip bomb, JSON nested 400,000 deep, a
 * three-million-digit number, a flood of headers, markup and terminal escapes in an error, a redirect to
 * another origin, a target that never answers. Per case it prints the wall time, the exit code and
 * headline, and the peak resident memory of the suite's process; then the worst of each, against the
 * goals of policy §5 (each case within 30 s, the drip within 60 s, peak memory under 300 MiB).
 * Options: --out FILE (default reports/bench-hostile.json), --only name,name.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import type { RunResult } from '../lib/reports/run-result.js'
import { packageRoot, packageVersion } from '../lib/spec/package-root.js'
import { spawnCli } from '../self-tests/helpers/spawn-cli.js'
import { behaviours, hostileBehaviours, listsDrip, type Misbehaviour, notFound, redirectsTo, startMisbehavingServer } from '../variants/hostile-servers.js'

const API_KEY = 'hostile-benchmark-key-3c9d1e'
const MIB = 2 ** 20

interface HostileCase {
  name: string
  /** The longest the run may take, in seconds (policy §5 and the issue's goals). */
  goalSeconds: number
  behaviour: (elsewhere: string) => Misbehaviour
}

const CASES: HostileCase[] = [
  { name: 'drip (every list)', goalSeconds: 60, behaviour: () => listsDrip(notFound) },
  { name: 'gzip bomb (1 GiB)', goalSeconds: 30, behaviour: () => hostileBehaviours.gzipBomb },
  { name: 'deep nesting (4·10^5)', goalSeconds: 30, behaviour: () => hostileBehaviours.deepNesting },
  { name: 'giant number (10^6 digits)', goalSeconds: 30, behaviour: () => hostileBehaviours.giantNumber },
  { name: 'header flood (2000)', goalSeconds: 30, behaviour: () => hostileBehaviours.headerFlood },
  { name: 'script in error message', goalSeconds: 30, behaviour: () => hostileBehaviours.markupInError },
  { name: 'off-origin redirect', goalSeconds: 30, behaviour: (elsewhere) => redirectsTo(`${elsewhere}/pets`) },
  { name: 'hang', goalSeconds: 30, behaviour: () => behaviours.hang },
]

interface HostileMeasurement {
  name: string
  wallSeconds: number
  exitCode: number
  headline: string
  peakRssMiB: number
  goalSeconds: number
  withinGoals: boolean
  /** Requests the other origin received (the redirect case): must be 0. */
  offOriginRequests: number
}

async function measure(hostile: HostileCase): Promise<HostileMeasurement> {
  const closers: Array<() => Promise<void>> = []
  const onFinished = (close: () => Promise<void>) => void closers.push(close)
  try {
    const elsewhere = await startMisbehavingServer(behaviours.ok, onFinished)
    const target = await startMisbehavingServer(hostile.behaviour(elsewhere.baseUrl), onFinished)
    const started = performance.now()
    const outcome = await spawnCli(['--base-url', target.baseUrl, '--quiet'], { PETSTORE_API_KEY: API_KEY })
    const wallSeconds = (performance.now() - started) / 1000
    let results: RunResult | undefined
    try {
      results = JSON.parse(readFileSync(join(outcome.reportDir, 'results.json'), 'utf8')) as RunResult
    } catch {
      results = undefined
    }
    const peakRssMiB = Math.round((results?.peakRssBytes ?? 0) / MIB)
    const headline = results ? `${results.headline.text}${results.headline.note ? ` (${results.headline.note})` : ''}` : '(no results.json)'
    const verdictGiven = outcome.code === 0 || outcome.code === 1 || outcome.code === 3
    return {
      name: hostile.name,
      wallSeconds: Number(wallSeconds.toFixed(1)),
      exitCode: outcome.code,
      headline,
      peakRssMiB,
      goalSeconds: hostile.goalSeconds,
      withinGoals: verdictGiven && results !== undefined && wallSeconds <= hostile.goalSeconds && peakRssMiB < 300 && elsewhere.requests.length === 0,
      offOriginRequests: elsewhere.requests.length,
    }
  } finally {
    await Promise.all(closers.map((close) => close()))
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, only: { type: 'string' } } })
  const only = values.only?.split(',').map((name) => name.trim())
  const out = resolve(values.out ?? join(packageRoot, 'reports', 'bench-hostile.json'))
  process.stdout.write(`Hostile benchmark: petstore-conformance ${packageVersion}, default settings (10 s timeout), ${availableParallelism()} cores, Node ${process.version}\n`)
  const measurements: HostileMeasurement[] = []
  for (const hostile of CASES.filter((candidate) => only === undefined || only.includes(candidate.name))) {
    const m = await measure(hostile)
    measurements.push(m)
    process.stdout.write(
      `  ${m.name.padEnd(30)} ${m.wallSeconds.toFixed(1).padStart(5)} s (goal ${m.goalSeconds} s)  peak ${String(m.peakRssMiB).padStart(4)} MiB  exit ${m.exitCode}  ${m.withinGoals ? 'ok' : 'OUTSIDE THE GOALS'}  ${m.headline.slice(0, 120)}\n`,
    )
  }
  const worstWall = measurements.reduce((worst, m) => (m.wallSeconds > worst.wallSeconds ? m : worst), measurements[0] as HostileMeasurement)
  const worstRss = measurements.reduce((worst, m) => (m.peakRssMiB > worst.peakRssMiB ? m : worst), measurements[0] as HostileMeasurement)
  process.stdout.write(`Worst wall time: ${worstWall.wallSeconds.toFixed(1)} s (${worstWall.name}); worst peak memory: ${worstRss.peakRssMiB} MiB (${worstRss.name})\n`)
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, `${JSON.stringify({ tool: packageVersion, node: process.version, at: new Date().toISOString(), measurements }, null, 2)}\n`)
  process.stdout.write(`Figures written to ${out}\n`)
  return measurements.every((m) => m.withinGoals) ? 0 : 1
}

process.exitCode = await main()
