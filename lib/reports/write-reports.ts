import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
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
  const rendered = {
    'junit.xml': renderJunit(redacted, redactDeep([...checks], redact)),
    'summary.md': renderSummaryMarkdown(redacted),
    'report.html': renderHtml(redacted),
  }
  // Rendered last, so that the peak memory it records includes rendering the other reports.
  run.peakRssBytes = peakRssBytes()
  const files: Record<(typeof REPORT_FILES)[number], string> = { 'results.json': `${stringifyJson({ ...redacted, peakRssBytes: run.peakRssBytes }, 2)}\n`, ...rendered }
  const written: string[] = []
  for (const [name, content] of Object.entries(files)) {
    const path = join(dir, name)
    await writeAtomically(path, content)
    written.push(path)
  }
  return written
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
