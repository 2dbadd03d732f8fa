import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { CheckReport } from '../checks/check-result.js'
import { stringifyJson } from '../http/json.js'
import { type Redactor, redactDeep } from '../http/redaction.js'
import { renderHtml } from './html.js'
import { renderJunit } from './junit.js'
import type { RunResult } from './run-result.js'
import { renderSummaryMarkdown } from './summary-md.js'

/** The peak resident memory of this process so far. */
export function peakRssBytes(): number {
  return process.resourceUsage().maxRSS * 1024
}

/** The files every run writes to the report directory. */
export const REPORT_FILES = ['results.json', 'junit.xml', 'summary.md', 'report.html'] as const

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
