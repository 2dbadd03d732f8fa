#!/usr/bin/env node
/**
 * The benchmark, in three parts, each printing its figures; all are written as JSON for later comparison.
 * - wall: the real command against the reference, on loopback and behind a proxy that adds a fixed delay to
 *   every exchange. For each scenario: wall time, requests, requests per second, the time before the first
 *   request (startup), and the ratio of wall time to the floor (startup + requests × delay / concurrency). The
 *   rate-limited scenario also prints the most requests the target saw in any one second, beside the limit.
 * - startup: the answers that need no target, wall and CPU, beside bare `node -e 0` (start-up.ts).
 * - cpu: CPU per request of a full run beside a raw undici loop and a judging loop sending the same requests (paired.ts).
 * - edits: CPU the suite spends judging one edited request besides sending it (edit-judging.ts).
 * Options: --out FILE (default reports/bench.json), --baseline FILE (an earlier bench.json to compare with),
 * --parts wall,startup,cpu,edits (default all four).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { packageRoot, packageVersion } from '../lib/spec/package-root.js'
import { PetStore, populatedStore } from '../reference/pet-store.js'
import { mostWithin } from '../self-tests/helpers/arrivals.js'
import { spawnCli } from '../self-tests/helpers/spawn-cli.js'
import { startVariant } from '../variants/variant.js'
import { startDelayProxy } from './delay-proxy.js'
import { measureEditJudging } from './edit-judging.js'
import { measurePaired, type PairedFigures } from './paired.js'
import { measureStartup } from './start-up.js'

const API_KEY = 'benchmark-key-5d2e9a71'
const CONCURRENCY = 8

interface Scenario {
  name: string
  profile: 'full' | 'smoke'
  delayMs: number
  /** Pets in the store at the start (smoke needs data to decide the boundaries). */
  pets: number
  /** --rate-limit, requests per second. */
  rateLimit?: number
}

const SCENARIOS: Scenario[] = [
  { name: 'full, loopback', profile: 'full', delayMs: 0, pets: 0 },
  { name: 'full, 50 ms per exchange', profile: 'full', delayMs: 50, pets: 0 },
  { name: 'smoke, loopback', profile: 'smoke', delayMs: 0, pets: 150 },
  { name: 'smoke, 50 ms per exchange', profile: 'smoke', delayMs: 50, pets: 150 },
  { name: 'smoke, --rate-limit 50', profile: 'smoke', delayMs: 0, pets: 150, rateLimit: 50 },
]

export interface Measurement {
  scenario: string
  profile: string
  delayMs: number
  concurrency: number
  exitCode: number
  wallMs: number
  startupMs: number
  requests: number
  requestsPerSecond: number
  floorMs: number
  wallToFloor: number
  /** The most requests the target saw arrive within any 1000 ms. */
  mostInAnySecond: number
  /** The run's own peak memory (its process's high-water mark, results.json peakRssBytes), in MiB. */
  peakMiB: number
  rateLimit?: number
}

/** The peak memory a run wrote in its results.json, in MiB (0 when it wrote none). */
function peakMiBOf(reportDir: string): number {
  try {
    const results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as { peakRssBytes?: number }
    return Math.round((results.peakRssBytes ?? 0) / 2 ** 20)
  } catch {
    return 0
  }
}

/** The requests a run sent, as its results.json counts them (0 when it wrote none). */
function requestsOf(reportDir: string): number {
  try {
    return (JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as { requestsSent?: number }).requestsSent ?? 0
  } catch {
    return 0
  }
}

async function measure(scenario: Scenario): Promise<Measurement> {
  const target = await startVariant(undefined, { apiKey: API_KEY, store: scenario.pets > 0 ? populatedStore(scenario.pets) : new PetStore() })
  // At loopback the command talks to the reference directly; a delay puts a relay between them that passes every octet on.
  const proxy = scenario.delayMs > 0 ? await startDelayProxy(target.baseUrl, scenario.delayMs) : undefined
  try {
    const started = performance.now()
    const rateLimit = scenario.rateLimit ? ['--rate-limit', String(scenario.rateLimit)] : []
    const outcome = await spawnCli(
      ['--base-url', proxy?.baseUrl ?? target.baseUrl, '--profile', scenario.profile, '--seed', '7', '--concurrency', String(CONCURRENCY), ...rateLimit],
      {
        PETSTORE_API_KEY: API_KEY,
      },
    )
    const wallMs = performance.now() - started
    const firstRequestAt = (proxy ? proxy.firstRequestAt : target.requests[0]?.at) ?? performance.now()
    const startupMs = firstRequestAt - started
    const requests = requestsOf(outcome.reportDir)
    const floorMs = startupMs + (requests * scenario.delayMs) / CONCURRENCY
    return {
      scenario: scenario.name,
      profile: scenario.profile,
      delayMs: scenario.delayMs,
      concurrency: CONCURRENCY,
      exitCode: outcome.code,
      wallMs: Math.round(wallMs),
      startupMs: Math.round(startupMs),
      requests,
      requestsPerSecond: Math.round(requests / (wallMs / 1000)),
      peakMiB: peakMiBOf(outcome.reportDir),
      floorMs: Math.round(floorMs),
      wallToFloor: Number((wallMs / floorMs).toFixed(2)),
      mostInAnySecond: mostWithin(
        target.requests.map((request) => request.at),
        1000,
      ),
      ...(scenario.rateLimit ? { rateLimit: scenario.rateLimit } : {}),
    }
  } finally {
    await proxy?.close()
    await target.close()
  }
}

function row(m: Measurement, baseline?: Measurement): string {
  const change = baseline ? `  (was ${(baseline.wallMs / 1000).toFixed(2)} s, ×${(m.wallMs / baseline.wallMs).toFixed(2)})` : ''
  return `  ${m.scenario.padEnd(27)} ${(m.wallMs / 1000).toFixed(2).padStart(6)} s  ${String(m.requests).padStart(5)} req  peak ${String(m.peakMiB).padStart(3)} MiB  ${String(m.requestsPerSecond).padStart(5)} req/s  startup ${(m.startupMs / 1000).toFixed(2)} s  floor ${(m.floorMs / 1000).toFixed(2)} s  wall/floor ${m.wallToFloor.toFixed(2)}  most in any second ${m.mostInAnySecond}${m.rateLimit ? ` (limit ${m.rateLimit})` : ''}  exit ${m.exitCode}${change}`
}

const PARTS = ['wall', 'startup', 'cpu', 'edits'] as const
type Part = (typeof PARTS)[number]

/**
 * The goals the cost issue sets: CPU per request over the raw loop's, a single run and warm passes; smoke and a full
 * run at loopback. A full run at loopback is also held to a bound of its own: within FULL_REQUESTS_BOUND requests.
 */
const CPU_RATIO_GOAL = 2.0
const WARM_RATIO_GOAL = 2.0
const SMOKE_AT_LOOPBACK_GOAL_S = 0.4
const FULL_AT_LOOPBACK_GOAL_S = 1.5
const FULL_AT_LOOPBACK_BOUND_S = 2.5
const FULL_REQUESTS_BOUND = 3_000

function cpuRows(figures: PairedFigures): string {
  return [
    `  full run     ${figures.suiteCpuPerRequestMs.toFixed(2)} ms CPU per request (of which ${figures.suiteReportsCpuPerRequestMs.toFixed(2)} after the last answer: verdicts and reports), start-up ${Math.round(figures.suiteStartupCpuMs)} ms CPU, ${figures.requests} requests`,
    `  raw loop     ${figures.rawCpuPerRequestMs.toFixed(2)} ms CPU per request (the same requests, JSON.parse of every body)`,
    `  ratio        ${figures.ratio.toFixed(2)} (goal ≤ ${CPU_RATIO_GOAL}), median of ${figures.pairs} pairs`,
    `  judging loop ${figures.judgingCpuPerRequestMs.toFixed(2)} ms CPU per request (the raw loop, every body read losslessly and held to its schema), ${figures.judgingRatio.toFixed(2)} × the raw loop:`,
    `               of the ${CPU_RATIO_GOAL} × raw allowed, ${Math.max(0, CPU_RATIO_GOAL - figures.judgingRatio).toFixed(2)} × raw (${Math.max(0, (CPU_RATIO_GOAL - figures.judgingRatio) * figures.rawCpuPerRequestMs).toFixed(2)} ms) is left for the checks, the generated cases and the reports; the run spends ${(figures.ratio - figures.judgingRatio).toFixed(2)} × raw on them`,
    `Warm (${figures.warm.passes} passes in one process each: the full run through the typed API, the raw loop replaying the same requests):`,
    `  full run     ${figures.warm.suiteCpuPerRequestMs.toFixed(2)} ms CPU per request (first pass ${figures.warm.suiteFirstPassCpuPerRequestMs.toFixed(2)}, modules already loaded)`,
    `  raw loop     ${figures.warm.rawCpuPerRequestMs.toFixed(2)} ms CPU per request`,
    `  ratio        ${figures.warm.ratio.toFixed(2)} (goal ≤ ${WARM_RATIO_GOAL}), median of the last 3 passes`,
  ].join('\n')
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, baseline: { type: 'string' }, parts: { type: 'string' } } })
  const out = resolve(values.out ?? join(packageRoot, 'reports', 'bench.json'))
  const parts = new Set<Part>(values.parts ? (values.parts.split(',').filter((part) => (PARTS as readonly string[]).includes(part)) as Part[]) : PARTS)
  const baseline: Measurement[] = values.baseline ? JSON.parse(readFileSync(values.baseline, 'utf8')).measurements : []
  process.stdout.write(`Benchmark: petstore-conformance ${packageVersion}, ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}\n`)
  const measurements: Measurement[] = []
  if (parts.has('wall')) {
    process.stdout.write(
      'Wall time (the command against the reference in this process, directly or through a relay that delays every exchange; requests as the run counts them; floor = startup + requests × delay / concurrency):\n',
    )
    // One after the other: scenarios running at once would share the cores and slow each other.
    for (const scenario of SCENARIOS) {
      const measurement = await measure(scenario)
      measurements.push(measurement)
      process.stdout.write(
        `${row(
          measurement,
          baseline.find((earlier) => earlier.scenario === measurement.scenario),
        )}\n`,
      )
    }
    const full = measurements.find((m) => m.scenario === 'full, loopback')
    if (full)
      process.stdout.write(
        `  full at loopback ${(full.wallMs / 1000).toFixed(2)} s, ${full.requests} requests (goal < ${FULL_AT_LOOPBACK_GOAL_S} s; bound ${FULL_AT_LOOPBACK_BOUND_S} s and ${FULL_REQUESTS_BOUND.toLocaleString('en')} requests)\n`,
      )
    const smoke = measurements.find((m) => m.scenario === 'smoke, loopback')
    if (smoke)
      process.stdout.write(`  smoke at loopback ${(smoke.wallMs / 1000).toFixed(2)} s (goal < ${SMOKE_AT_LOOPBACK_GOAL_S} s, the compile cache warm after the first run)\n`)
  }
  const startup = parts.has('startup') ? await measureStartup() : undefined
  if (startup) {
    process.stdout.write(`Start-up (median of 7, spawn to exit): bare node -e 0 ${Math.round(startup.bare.wallMs)} ms wall, ${Math.round(startup.bare.cpuMs)} ms CPU\n`)
    for (const verb of startup.verbs) {
      process.stdout.write(
        `  ${verb.verb.padEnd(32)} ${String(Math.round(verb.wallMs)).padStart(5)} ms wall (+${Math.round(verb.overBareMs)} ms over bare node)  ${String(Math.round(verb.cpuMs)).padStart(5)} ms CPU\n`,
      )
    }
  }
  const cpu = parts.has('cpu') ? await measurePaired(API_KEY, CONCURRENCY) : undefined
  if (cpu) process.stdout.write(`CPU per request (a full run and a raw undici loop, the same requests to the same separate server):\n${cpuRows(cpu)}\n`)
  const edits = parts.has('edits') ? await measureEditJudging() : undefined
  if (edits)
    process.stdout.write(
      `Judging an edit (written, read once, the oracle, the rules of every answer; ${edits.edits} edits of seed 1's plan, median of 7 rounds): ${edits.cpuPerEditMicros.toFixed(1)} µs CPU an edit\n`,
    )
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(
    out,
    `${JSON.stringify({ tool: packageVersion, node: process.version, cores: availableParallelism(), at: new Date().toISOString(), measurements, startup, cpu, edits }, null, 2)}\n`,
  )
  process.stdout.write(`Figures written to ${out}\n`)
  return measurements.every((m) => m.exitCode === 0) ? 0 : 1
}

process.exitCode = await main()
