/** A benchmarked child process: `node --import cpu-meter.js …`, its wall time from spawn to exit, and the CPU it measured of itself. */
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CpuMeasure } from './cpu-meter.js'

export interface MeasuredChild {
  code: number
  wallMs: number
  cpu: CpuMeasure
  stdout: string
  stderr: string
}

const CPU_METER = new URL('./cpu-meter.js', import.meta.url).pathname

/** Runs `node <args>` with the CPU meter preloaded, in an empty folder, with only PATH and `env`. */
export function runMeasured(args: readonly string[], env: Record<string, string> = {}): Promise<MeasuredChild> {
  const cwd = mkdtempSync(join(tmpdir(), 'petstore-bench-'))
  const out = join(cwd, 'cpu.json')
  const started = performance.now()
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', CPU_METER, ...args],
      { cwd, env: { PATH: process.env.PATH ?? '', ...env, BENCH_CPU_OUT: out }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const wallMs = performance.now() - started
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0
        try {
          const cpu = JSON.parse(readFileSync(out, 'utf8')) as CpuMeasure
          resolve({ code, wallMs, cpu, stdout, stderr })
        } catch (readError) {
          reject(new Error(`node ${args.join(' ')} left no CPU figures (exit ${code}): ${stderr.slice(0, 500)} ${String(readError)}`))
        } finally {
          rmSync(cwd, { recursive: true, force: true })
        }
      },
    )
  })
}

/** The middle value (the lower of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN
}
