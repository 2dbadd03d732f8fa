/**
 * The paired benchmark of a request's CPU: in one process tree, the command's full run and two undici loops
 * (raw-loop.ts) send the same requests, the run's own, recorded by the target, to the same target, a server in
 * this process (not the embedded reference inside the measured one): the raw loop (JSON.parse of each body) and
 * the judging loop (each body read losslessly and held to its schema, the least any verdict needs). Each child
 * measures its CPU itself (cpu-meter.ts); start-up, the CPU before the first request, is taken off, so the figure
 * is what each request costs: sending, reading, judging, and for the command the reports at the end.
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { commandPath, packageRoot } from '../lib/spec/package-root.js'
import { PetStore } from '../reference/pet-store.js'
import { startVariant } from '../variants/variant.js'
import { type MeasuredChild, median, runMeasured } from './child-process.js'
import type { Floor, RecordedRequestLine } from './raw-loop.js'
import type { WarmPass } from './warm-runs.js'

export interface PairedFigures {
  pairs: number
  requests: number
  /** CPU ms per request of the command's full run, start-up taken off (median of the pairs). */
  suiteCpuPerRequestMs: number
  /** Of which, the CPU after the last answer (the verdicts and the reports), per request. */
  suiteReportsCpuPerRequestMs: number
  /** CPU ms per request of the raw loop, start-up taken off (median of the pairs). */
  rawCpuPerRequestMs: number
  ratio: number
  /** CPU ms per request of the judging loop (lossless reading and schema of every body), start-up taken off (median of the pairs). */
  judgingCpuPerRequestMs: number
  /** The judging loop over the raw loop: the part of the ratio every conformance verdict costs before any check runs. */
  judgingRatio: number
  /** CPU ms of the command before its first request (median). */
  suiteStartupCpuMs: number
  /** The same, warm: the full run repeated in one process (the typed API) and the raw loop's requests replayed in one process. */
  warm: WarmFigures
}

export interface WarmFigures {
  passes: number
  /** CPU ms per request of the suite's first pass in its process (its modules already loaded). */
  suiteFirstPassCpuPerRequestMs: number
  /** CPU ms per request of the later passes (median of the last three), suite and raw loop. */
  suiteCpuPerRequestMs: number
  rawCpuPerRequestMs: number
  ratio: number
}

const WARM_PASSES = 10
const execFileAsync = promisify(execFile)

/** Runs warm-runs.js with `args` and reads the passes it printed. */
async function warmPasses(args: readonly string[], env: Record<string, string> = {}): Promise<WarmPass[]> {
  const { stdout } = await execFileAsync(process.execPath, [join(packageRoot, 'dist/benchmarks/warm-runs.js'), ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    maxBuffer: 16 * 1024 * 1024,
  })
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as WarmPass)
}

const passCost = (pass: WarmPass) => pass.cpuMs / Math.max(1, pass.requests)

/** Warm figures on a fresh target: the suite's passes first, then the raw loop replaying `requestsFile` as often. */
async function measureWarm(apiKey: string, concurrency: number, requestsFile: string): Promise<WarmFigures> {
  const target = await startVariant(undefined, { apiKey, store: new PetStore() })
  try {
    const suite = await warmPasses(['suite', target.baseUrl, String(WARM_PASSES), String(concurrency)], { PETSTORE_API_KEY: apiKey })
    const raw = await warmPasses(['raw', requestsFile, target.baseUrl, String(WARM_PASSES), String(concurrency)])
    const suiteCpuPerRequestMs = median(suite.slice(-3).map(passCost))
    const rawCpuPerRequestMs = median(raw.slice(-3).map(passCost))
    return {
      passes: WARM_PASSES,
      suiteFirstPassCpuPerRequestMs: passCost(suite[0] as WarmPass),
      suiteCpuPerRequestMs,
      rawCpuPerRequestMs,
      ratio: suiteCpuPerRequestMs / rawCpuPerRequestMs,
    }
  } finally {
    await target.close()
  }
}

const perRequest = (child: MeasuredChild) => (child.cpu.totalCpuMs - child.cpu.startupCpuMs) / Math.max(1, child.cpu.requests)

export async function measurePaired(apiKey: string, concurrency: number, pairs = 3): Promise<PairedFigures> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-paired-'))
  const suite: MeasuredChild[] = []
  const raw: MeasuredChild[] = []
  const judging: MeasuredChild[] = []
  let warm: WarmFigures
  try {
    for (let pair = 0; pair < pairs; pair++) {
      const target = await startVariant(undefined, { apiKey, store: new PetStore() })
      try {
        const runSuite = async () => {
          const child = await runMeasured(
            [commandPath, '--base-url', target.baseUrl, '--profile', 'full', '--seed', '7', '--concurrency', String(concurrency), '--report-dir', join(folder, `reports-${pair}`)],
            { PETSTORE_API_KEY: apiKey },
          )
          if (child.code !== 0) throw new Error(`the full run against the reference ended with exit ${child.code}: ${child.stderr.slice(-500)}`)
          suite.push(child)
          const lines: RecordedRequestLine[] = target.requests.map(({ method, url, headers, body }) => ({ method, url, headers, ...(body !== undefined ? { body } : {}) }))
          writeFileSync(join(folder, `requests-${pair}.json`), JSON.stringify(lines))
        }
        const runLoop = (floor: Floor) =>
          runMeasured([join(packageRoot, 'dist/benchmarks/raw-loop.js'), join(folder, `requests-${pair}.json`), target.baseUrl, String(concurrency), floor])
        // The loops replay the run's own requests, so the run goes first; the next pair starts on a fresh target.
        await runSuite()
        raw.push(await runLoop('raw'))
        judging.push(await runLoop('judging'))
      } finally {
        await target.close()
      }
    }
    warm = await measureWarm(apiKey, concurrency, join(folder, 'requests-0.json'))
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
  const suiteCpuPerRequestMs = median(suite.map(perRequest))
  const rawCpuPerRequestMs = median(raw.map(perRequest))
  const judgingCpuPerRequestMs = median(judging.map(perRequest))
  return {
    pairs,
    requests: median(suite.map((child) => child.cpu.requests)),
    suiteCpuPerRequestMs,
    suiteReportsCpuPerRequestMs: median(suite.map((child) => (child.cpu.totalCpuMs - child.cpu.lastAnswerCpuMs) / Math.max(1, child.cpu.requests))),
    rawCpuPerRequestMs,
    ratio: suiteCpuPerRequestMs / rawCpuPerRequestMs,
    judgingCpuPerRequestMs,
    judgingRatio: judgingCpuPerRequestMs / rawCpuPerRequestMs,
    suiteStartupCpuMs: median(suite.map((child) => child.cpu.startupCpuMs)),
    warm,
  }
}
