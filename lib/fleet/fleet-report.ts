/**
 * The fleet report: every target's verdict on every requirement, from the targets' own results.json, with the
 * targets that differ from the majority on a requirement ("drift") first. A fleet run and a merge of its shards
 * build it with the same function from the same files, so both give the same report.
 */

import { changeOf } from '../judging/baseline.js'
import type { Verdict } from '../judging/verdicts.js'
import type { RunResult } from '../reports/run-result.js'
import type { Level } from '../spec/catalogue.js'

export interface FleetTargetEntry {
  name: string
  baseUrl: string
  /** The target's headline: CONFORMANT, NON-CONFORMANT, NOT PROVEN or NO VERDICT. */
  verdict: string
  exitCode: number
  /** Why its run stopped before judging (exit 2 or 3). */
  stopReason?: string
  /** Its reports, relative to the fleet report's folder. */
  results: string
  report: string
  summary: RunResult['summary']
}

export interface FleetRequirementRow {
  id: string
  level: Level
  /** Each target's verdict, by name. */
  verdicts: Record<string, Verdict>
  /** The verdict most targets of the largest profile have (the first in name order on a tie). */
  majority: Verdict
  /** The targets whose verdict is not the majority's among the targets run at the same profile (a smoke run is never an outlier among full ones). */
  drift: string[]
  /** Against a baseline fleet report: the targets on which this requirement newly failed, or was fixed. */
  changes?: Record<string, 'new-failure' | 'fixed'>
}

/** What changed against an earlier fleet report (`--baseline`), counted over the targets both reports hold. */
export interface FleetBaselineSummary {
  /** The earlier fleet.json, as given. */
  file: string
  newFailures: number
  fixed: number
  /** Targets judged now that the baseline does not hold: nothing is compared for them. */
  newTargets: string[]
}

export interface FleetReport {
  formatVersion: 1
  tool: { name: string; version: string }
  /** The version of the interface the suite judges (schemas/openapi.json). */
  specVersion: string
  /** The worst of the targets' exit codes: a set-up mistake (2), then no verdict (3), then a failure (1). */
  exitCode: number
  targets: FleetTargetEntry[]
  requirements: FleetRequirementRow[]
  baseline?: FleetBaselineSummary
}

/** Exit codes from best to worst: a set-up mistake must never read as a verdict, so it outranks all. */
const SEVERITY = [0, 1, 3, 2]

export function worstExitCode(codes: readonly number[]): number {
  return codes.reduce((worst, code) => (SEVERITY.indexOf(code) > SEVERITY.indexOf(worst) ? code : worst), 0)
}

function majorityOf(verdicts: readonly Verdict[]): Verdict {
  const counts = new Map<Verdict, number>()
  for (const verdict of verdicts) counts.set(verdict, (counts.get(verdict) ?? 0) + 1)
  let best: Verdict = verdicts[0] ?? 'untestable'
  for (const [verdict, count] of counts) if (count > (counts.get(best) ?? 0)) best = verdict
  return best
}

export function buildFleetReport(runs: ReadonlyArray<{ name: string; result: RunResult }>, specVersion: string): FleetReport {
  const sorted = [...runs].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const targets = sorted.map(({ name, result }) => ({
    name,
    baseUrl: result.target.baseUrl,
    verdict: result.headline.text,
    exitCode: result.exitCode,
    ...(result.stopReason ? { stopReason: result.stopReason } : {}),
    results: `${name}/results.json`,
    report: `${name}/report.html`,
    summary: result.summary,
  }))
  const rows = new Map<string, FleetRequirementRow>()
  for (const { name, result } of sorted) {
    for (const requirement of result.requirements) {
      const row = rows.get(requirement.id) ?? { id: requirement.id, level: requirement.level, verdicts: {}, majority: requirement.verdict, drift: [] }
      row.verdicts[name] = requirement.verdict
      rows.set(requirement.id, row)
    }
  }
  // Targets are compared only with those run at the same profile: a full run decides what a smoke run cannot.
  const profileOf = new Map(sorted.map(({ name, result }) => [name, result.profile]))
  const requirements = [...rows.values()].map((row) => {
    const byProfile = new Map<string, Verdict[]>()
    for (const [name, verdict] of Object.entries(row.verdicts)) byProfile.set(profileOf.get(name) ?? '', [...(byProfile.get(profileOf.get(name) ?? '') ?? []), verdict])
    const majorities = new Map([...byProfile].map(([profile, verdicts]) => [profile, majorityOf(verdicts)]))
    const largest = [...byProfile].sort((a, b) => b[1].length - a[1].length)[0]?.[0] ?? ''
    return {
      ...row,
      majority: majorities.get(largest) ?? row.majority,
      drift: Object.entries(row.verdicts)
        .filter(([name, verdict]) => verdict !== majorities.get(profileOf.get(name) ?? ''))
        .map(([name]) => name),
    }
  })
  // MUST failures first (on most targets first), then drift (most targets apart first), then the catalogue's order.
  const order = new Map(requirements.map((row, index) => [row.id, index]))
  const mustFailures = (row: FleetRequirementRow) => (row.level === 'MUST' ? Object.values(row.verdicts).filter((verdict) => verdict === 'fail').length : 0)
  requirements.sort((a, b) => mustFailures(b) - mustFailures(a) || b.drift.length - a.drift.length || (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0))
  const tool = sorted[0]?.result.tool ?? { name: 'petstore-conformance', version: '' }
  return { formatVersion: 1, tool, specVersion, exitCode: worstExitCode(targets.map((target) => target.exitCode)), targets, requirements }
}

/**
 * The report with each target's requirements marked where they newly failed or were fixed since `previous` (an
 * earlier fleet.json), as --baseline marks one run's; a target the baseline does not hold is new, not compared.
 */
export function withFleetBaseline(report: FleetReport, previous: FleetReport, file: string): FleetReport {
  const before = new Map(previous.requirements.map((row) => [row.id, row.verdicts]))
  const known = new Set(previous.targets.map((target) => target.name))
  let newFailures = 0
  let fixed = 0
  const requirements = report.requirements.map((row) => {
    const changes: Record<string, 'new-failure' | 'fixed'> = {}
    for (const [name, verdict] of Object.entries(row.verdicts)) {
      if (!known.has(name)) continue
      const change = changeOf(before.get(row.id)?.[name], verdict)
      if (change === 'new-failure' || change === 'fixed') changes[name] = change
      if (change === 'new-failure') newFailures += 1
      if (change === 'fixed') fixed += 1
    }
    const { changes: _earlier, ...plain } = row
    return Object.keys(changes).length > 0 ? { ...plain, changes } : plain
  })
  const newTargets = report.targets.map((target) => target.name).filter((name) => !known.has(name))
  return { ...report, requirements, baseline: { file, newFailures, fixed, newTargets } }
}

/** How a change reads beside a verdict in fleet.md and fleet.html. */
export const CHANGE_WORDS = { 'new-failure': 'new failure', fixed: 'fixed' } as const

const MARK: Record<Verdict, string> = {
  pass: '✅ pass',
  fail: '❌ fail',
  warn: '⚠️ warn',
  inconclusive: '❔ inconclusive',
  skipped: 'skipped',
  info: 'ℹ️ info',
  untestable: 'untestable',
}

/** The fleet as Markdown for a job summary: the targets, then the matrix of requirements × targets, drift first. */
export function renderFleetMarkdown(report: FleetReport): string {
  const lines = [`## Pet Store conformance: a fleet of ${report.targets.length} (exit ${report.exitCode})`, '', '| target | verdict | exit | reports |', '|---|---|---|---|']
  for (const target of report.targets)
    lines.push(
      `| ${target.name} | ${target.verdict}${target.stopReason ? ` (${target.stopReason.replace(/\|/g, '\\|').replace(/\s+/g, ' ')})` : ''} | ${target.exitCode} | [report](${target.report}) |`,
    )
  if (report.baseline) {
    lines.push(
      '',
      `Against the baseline ${report.baseline.file}: **${report.baseline.newFailures} new failures**, ${report.baseline.fixed} fixed${report.baseline.newTargets.length > 0 ? `; new targets, not compared: ${report.baseline.newTargets.join(', ')}` : ''}`,
    )
  }
  const drifting = report.requirements.filter((row) => row.drift.length > 0)
  lines.push(
    '',
    drifting.length > 0 ? `### Drift: ${drifting.length} requirements where targets differ from the majority` : '### No drift: every requirement has one verdict across the fleet',
    '',
  )
  lines.push(`| requirement | ${report.targets.map((target) => target.name).join(' | ')} |`, `|---|${report.targets.map(() => '---').join('|')}|`)
  for (const row of report.requirements) {
    const cells = report.targets.map((target) => {
      const verdict = row.verdicts[target.name]
      if (verdict === undefined) return '—'
      const change = row.changes?.[target.name]
      const mark = change ? `${MARK[verdict]} (${CHANGE_WORDS[change]})` : MARK[verdict]
      return row.drift.includes(target.name) ? `**${mark}**` : mark
    })
    lines.push(`| ${row.drift.length > 0 ? '**' : ''}${row.id}${row.drift.length > 0 ? '**' : ''} (${row.level}) | ${cells.join(' | ')} |`)
  }
  return `${lines.join('\n')}\n`
}
