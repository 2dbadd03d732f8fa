/** summary.md, for a CI job summary: the verdict, the counts and one line per failed requirement, readable in ten seconds. */

import { alarmLine } from '../checks/watchdog.js'
import { counted, type HeadlineText } from '../judging/headline.js'
import type { RequirementResult } from '../judging/verdicts.js'
import { remainingWords, writesLine } from './console.js'
import { escapeControlCharacters } from './control-characters.js'
import type { RunResult } from './run-result.js'

const SHOWN = 15

const MARK: Record<HeadlineText, string> = { CONFORMANT: '✅', 'NON-CONFORMANT': '❌', 'NOT PROVEN': '❔', 'NO VERDICT': '⚠️' }

/** One line of Markdown text: no line breaks, and no characters that open markup. */
function inline(text: string, max = 160): string {
  const flat = escapeControlCharacters(text.replace(/\s+/g, ' ').trim())
  const cut = flat.length > max ? `${flat.slice(0, max)}…` : flat
  return cut.replace(/[\\`*_[\]<>|]/g, (character) => `\\${character}`)
}

function failureLine(result: RequirementResult): string {
  const change = result.change === 'new-failure' ? ' **new**' : result.change === 'still-failing' ? ' (known)' : ''
  const why = result.rootCause ? `from the root cause: ${inline(result.rootCause)}` : inline(result.failures[0]?.message ?? 'failed')
  return `- \`${result.id}\` ${result.level}${change}: ${why}`
}

export function renderSummaryMarkdown(run: RunResult): string {
  const s = run.summary
  const failed = run.requirements.filter((result) => result.verdict === 'fail')
  const warned = run.requirements.filter((result) => result.verdict === 'warn')
  const partial = run.requirements.filter((result) => result.partial !== undefined)
  const lines = [
    `## Pet Store conformance: ${MARK[run.headline.text]} ${run.headline.text}`,
    '',
    ...(run.headline.note ? [`**${inline(run.headline.note, 400)}**`, ''] : []),
    `\`${run.profile}\` profile against ${inline(run.target.baseUrl)}${run.target.embeddedReference ? ' (embedded reference)' : ''} · seed ${run.seed} · ${run.requestsSent} requests in ${(run.durationMs / 1000).toFixed(1)} s · exit ${run.exitCode}`,
    '',
    '| pass | fail | warn | inconclusive | info | skipped | untestable |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${s.pass} | ${s.fail} | ${s.warn} | ${s.inconclusive} | ${s.info} | ${s.skipped} | ${s.untestable} |`,
    // What the run left on the store, as the console says it: the spec has no DELETE, so a pipeline plans for it.
    ...(run.writes ? ['', writesLine(run.writes)] : []),
    ...[...new Set(partial.map((result) => result.partial))].flatMap((why) => [
      '',
      `Partial passes (${partial
        .filter((result) => result.partial === why)
        .map((result) => `\`${result.id}\``)
        .join(', ')}): ${inline(why ?? '', 400)}.`,
    ]),
  ]
  if (run.baseline) {
    const b = run.baseline
    lines.push('', `Against the baseline: **${counted(b.newFailures, 'new failure')}**, ${b.fixed} fixed, ${b.stillFailing} still failing, ${b.unchanged} unchanged.`)
  }
  if (run.rootCauses.length > 0) {
    lines.push('', `### Root causes (${run.rootCauses.length})`)
    for (const cause of run.rootCauses)
      lines.push(
        `- ${inline(cause.cause)}: ${counted(cause.requirements.length, 'requirement')} failed from it (${cause.requirements.map((id) => `\`${id}\``).join(', ')}); once it is fixed, ${inline(remainingWords(cause.remaining, cause.requirements))}`,
      )
  }
  if (failed.length > 0) {
    lines.push('', `### Failed (${failed.length})`, ...failed.slice(0, SHOWN).map(failureLine))
    if (failed.length > SHOWN) lines.push(`- … and ${failed.length - SHOWN} more in report.html`)
  }
  if (warned.length > 0) lines.push('', `### Warnings, SHOULD (${warned.length})`, ...warned.slice(0, SHOWN).map(failureLine))
  const fixed = run.requirements.filter((result) => result.change === 'fixed')
  if (fixed.length > 0) lines.push('', `### Fixed since the baseline (${fixed.length})`, fixed.map((result) => `\`${result.id}\``).join(', '))
  if (run.harnessErrors.length > 0) lines.push('', '### Harness errors', ...run.harnessErrors.map((error) => `- ${inline(error)}`))
  if (run.watchdog?.length) lines.push('', '### The run sat still (watchdog)', ...run.watchdog.map((alarm) => `- ${inline(alarmLine(alarm))}`))
  lines.push(
    '',
    `Evidence and \`curl\` lines: report.html, results.json and junit.xml${run.artifactsUrl ? ` in the [run's artifacts](${run.artifactsUrl})` : ' in the report directory'}.`,
    '',
  )
  return lines.join('\n')
}
