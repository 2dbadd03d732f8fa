/**
 * One run of the whole suite at the command's defaults against one variant, in a child process of its own
 * (soak-run.ts), cut once it outlives its limit: what it did (hung, crashed, stalled, changed its verdict) in a line.
 * The soak and the allowance score both run their runs so.
 */
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { VariantScore } from '../mutation-score/score.js'

export type Problem = 'hung' | 'crashed' | 'changed' | 'stalled'

export interface SoakRun {
  kind: 'fault' | 'look-alike'
  name: string
  seed: number
  wallMs: number
  problem?: Problem
  detail?: string
  peakRssBytes?: number
}

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), 'soak-run.js')

/** One run in a child process, cut (SIGKILL) once it outlives `limitMs`. */
export function runOnce(kind: SoakRun['kind'], name: string, seed: number, limitMs: number): Promise<SoakRun> {
  const started = Date.now()
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [RUNNER, kind, name, String(seed)], { stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = `${stderr}${chunk.toString()}`.slice(-2000)
    })
    let cut = false
    const timer = setTimeout(() => {
      cut = true
      child.kill('SIGKILL')
    }, limitMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      const base = { kind, name, seed, wallMs: Date.now() - started }
      if (cut) return resolve({ ...base, problem: 'hung', detail: `no end within ${limitMs / 1000} s` })
      const line = stdout.trim().split('\n').at(-1) ?? ''
      let score: (VariantScore & { peakRssBytes: number }) | undefined
      try {
        score = JSON.parse(line) as VariantScore & { peakRssBytes: number }
      } catch {
        score = undefined
      }
      if (!score) return resolve({ ...base, problem: 'crashed', detail: `exit ${code ?? signal}: ${stderr.trim().split('\n').slice(-3).join(' | ')}` })
      const measured = { ...base, peakRssBytes: score.peakRssBytes }
      if (score.exitCode !== 0 && score.exitCode !== 1) return resolve({ ...measured, problem: 'crashed', detail: score.note ?? `exit ${score.exitCode}` })
      if (score.stalls && score.stalls.length > 0) return resolve({ ...measured, problem: 'stalled', detail: score.stalls.join(' | ') })
      if (!score.ok) {
        const detail =
          kind === 'fault'
            ? `missed: ${score.note ?? ''}`
            : `falsely failed: ${score.requirements.join(', ')}${score.note ? ` (${score.note})` : ''}${score.firstFailures ? `\n      ${score.firstFailures.join('\n      ')}` : score.firstFailure ? `: ${score.firstFailure}` : ''}`
        return resolve({ ...measured, problem: 'changed', detail })
      }
      resolve(measured)
    })
  })
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}
