import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { CheckReport } from '../checks/check-result.js'
import { stringifyJson } from '../http/json.js'
import { type Redactor, redactDeep } from '../http/redaction.js'
import { renderHtml } from './html.js'
import { renderJunit } from './junit.js'
import type { RunResult } from './run-result.js'
import { renderSummaryMarkdown } from './summary-md.js'

/**
 * The peak resident memory of this process so far. On Linux, the high-water mark of its own address space
 * (/proc/self/status, VmHWM): getrusage's maxRSS, which Node's resourceUsage reads, keeps across exec the peak of
 * the process it was forked from, so a run spawned by a large parent (a test runner of 300 MiB) reported the
 * parent's size as its own. Elsewhere, maxRSS; never less than the memory resident now.
 */
export function peakRssBytes(): number {
  const now = process.memoryUsage.rss()
  try {
    const kilobytes = /^VmHWM:\s*(\d+)\s*kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    if (kilobytes !== undefined) return Math.max(Number(kilobytes) * 1024, now)
  } catch {
    // No /proc: not Linux.
  }
  return Math.max(process.resourceUsage().maxRSS * 1024, now)
}

/** The files every run writes to the report directory. */
export const REPORT_FILES = ['results.json', 'junit.xml', 'summary.md', 'report.html'] as const

/** Where a run without a verdict keeps the reports of the last run that had one, inside the report folder. */
export const LAST_VERDICT_FOLDER = 'last-verdict'

/** The verdict (exit 0 or 1) and start of the run whose results.json is in `dir`, if it had one. */
async function verdictIn(dir: string): Promise<{ exitCode: number; startedAt: string } | undefined> {
  try {
    const results = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8')) as { exitCode?: unknown; startedAt?: unknown }
    return results.exitCode === 0 || results.exitCode === 1 ? { exitCode: results.exitCode, startedAt: String(results.startedAt) } : undefined
  } catch {
    return undefined
  }
}

/**
 * Every exit writes the reports (pipelines upload them), and a set-up mistake or a target that could not be judged
 * must not destroy the last verdict's: a run without a verdict (exit 2 or 3) first moves the reports of a run that had
 * one into `last-verdict/` beside its own; a run with a verdict removes a `last-verdict/` left from before, which
 * its own reports replace. Returns the folder the last verdict was kept in, when it was.
 */
export async function keepLastVerdict(dir: string, exitCode: number): Promise<string | undefined> {
  const kept = join(dir, LAST_VERDICT_FOLDER)
  if (exitCode === 0 || exitCode === 1) {
    await rm(kept, { recursive: true, force: true })
    return undefined
  }
  if (!(await verdictIn(dir))) return undefined
  await rm(kept, { recursive: true, force: true })
  await mkdir(kept, { recursive: true })
  for (const name of REPORT_FILES) await rename(join(dir, name), join(kept, name)).catch(() => {})
  return kept
}

/** Write results.json, junit.xml, summary.md and report.html, rendered from a run whose every string passed the redactor, whatever the target echoed. */
export async function writeReports(dir: string, run: RunResult, checks: readonly CheckReport[], redact: Redactor): Promise<string[]> {
  await mkdir(dir, { recursive: true })
  const redacted = redactDeep(run, redact)
  // Each report rendered and written before the next is rendered: a run whose answers fill every report with
  // megabytes of evidence never holds all four texts at once (policy §5, peak memory).
  const renderers: Array<[(typeof REPORT_FILES)[number], () => string]> = [
    ['junit.xml', () => renderJunit(redacted, redactDeep([...checks], redact))],
    ['summary.md', () => renderSummaryMarkdown(redacted)],
    ['report.html', () => renderHtml(redacted)],
    // Rendered last, so that the peak memory it records includes rendering the other reports.
    [
      'results.json',
      () => {
        run.peakRssBytes = peakRssBytes()
        return `${stringifyJson({ ...redacted, peakRssBytes: run.peakRssBytes }, 2)}\n`
      },
    ],
  ]
  const written: string[] = []
  for (const [name, render] of renderers) {
    const path = join(dir, name)
    await writeAtomically(path, render())
    written.push(path)
  }
  return written.sort((a, b) => REPORT_FILES.indexOf(basename(a) as never) - REPORT_FILES.indexOf(basename(b) as never))
}

/**
 * Writes `content` to a temporary file beside `path`, then renames it over `path`: a run killed meanwhile
 * leaves the last good report where it stood (a baseline is never half-written), never part of a new one.
 */
export async function writeAtomically(path: string, content: string): Promise<void> {
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`
  try {
    await writeFile(temporary, content)
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
