/**
 * A fleet run and a merge. A fleet run judges its targets with a bound on how many are in flight, each the
 * command's own run with its reports in `<report dir>/<name>/` and a seed derived from the fleet's; a merge
 * gathers the target folders of several fleet runs (the shards of a CI matrix) into one. Both then build the
 * fleet report from the targets' results.json in one folder, so a fleet and its shards merged report the same.
 */
import { createHash } from 'node:crypto'
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { mapConcurrently } from '../http/concurrency.js'
import type { RunResult } from '../reports/run-result.js'
import { writeAtomically } from '../reports/write-reports.js'
import { writeStoppedReports } from '../run/command.js'
import { type Config, ConfigError, resolveConfig } from '../run/config.js'
import { runConfigured } from '../run/run-conformance.js'
import type { RunIo } from '../run/run-session.js'
import type { ConformanceSuite } from '../run/suite.js'
import { packageRoot, packageVersion } from '../spec/package-root.js'
import type { FleetTarget } from './fleet-file.js'
import { renderFleetHtml } from './fleet-html.js'
import { buildFleetReport, type FleetReport, renderFleetMarkdown, withFleetBaseline } from './fleet-report.js'

/** The version of the interface this suite judges. */
export const SPEC_VERSION: string = JSON.parse(readFileSync(join(packageRoot, 'schemas', 'openapi.json'), 'utf8')).info.version

/** A target's seed: the fleet's seed and its name, hashed; the same fleet seed gives each target the same seed in every shard. */
export function targetSeed(fleetSeed: number, name: string): number {
  return createHash('sha256').update(`${fleetSeed}:${name}`).digest().readUInt32BE(0) & 0x7fffffff
}

export interface FleetRunOptions {
  reportDir: string
  seed: number
  /** Targets judged at once. */
  inFlight: number
  /** The environment the targets' keys are read from (and the PETSTORE_* defaults under the file's settings). */
  env: Readonly<Record<string, string | undefined>>
  cwd: string
  today: () => Date
  io: RunIo
  cancel?: AbortSignal
  /** An earlier fleet.json to mark changes against. */
  baseline?: { file: string; report: FleetReport }
}

const silent: RunIo = { out: () => {}, err: () => {} }

async function judgeTarget(suite: ConformanceSuite, target: FleetTarget, options: FleetRunOptions): Promise<number> {
  const reportDir = join(options.reportDir, target.name)
  const apiKey = options.env[target.apiKeyEnv]
  let config: Config | 'help'
  try {
    if (!apiKey) throw new ConfigError([`${target.apiKeyEnv} (the key of ${target.name}) is not set, or empty`], reportDir, target.baseUrl)
    config = resolveConfig({
      env: options.env,
      cwd: options.cwd,
      today: options.today,
      randomSeed: () => targetSeed(options.seed, target.name),
      values: { seed: targetSeed(options.seed, target.name), ...target.settings, baseUrl: target.baseUrl, apiKey, reportDir, quiet: true },
    })
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    options.io.err(`${target.name}: ${error.message}`)
    await writeStoppedReports(new ConfigError(error.problems, reportDir, target.baseUrl, apiKey), options.today(), silent)
    return 2
  }
  if (config === 'help') throw new Error('unreachable: no --help in a fleet file')
  const { exitCode, result } = await runConfigured(config, suite, silent, { writeReports: true, ...(options.cancel ? { cancel: options.cancel } : {}) })
  options.io.out(`${target.name}: ${result?.headline.text ?? 'NO VERDICT'} (exit ${exitCode}) — ${join(reportDir, 'report.html')}`)
  return exitCode
}

function readResults(folder: string): RunResult {
  return JSON.parse(readFileSync(join(folder, 'results.json'), 'utf8')) as RunResult
}

/** An earlier fleet.json, to compare with (`--baseline`); throws ConfigError with what is wrong. */
export function loadFleetBaseline(file: string): { file: string; report: FleetReport } {
  let report: Partial<FleetReport>
  try {
    report = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new ConfigError([`--baseline ${file}: ${error instanceof Error ? error.message : String(error)} (give the fleet.json of an earlier fleet run)`])
  }
  if (report.formatVersion !== 1 || !Array.isArray(report.targets) || !Array.isArray(report.requirements)) {
    throw new ConfigError([`--baseline ${file}: not a fleet.json of format version 1 (give the fleet.json of an earlier fleet run)`])
  }
  return { file, report: report as FleetReport }
}

/**
 * The fleet report of the target folders `names` under `reportDir`, written there as fleet.json, fleet.md and
 * fleet.html; with a baseline (an earlier fleet.json), each target's new failures and fixes are marked.
 */
export async function writeFleetReport(reportDir: string, names: readonly string[], baseline?: { file: string; report: FleetReport }): Promise<FleetReport> {
  const built = buildFleetReport(
    names.map((name) => ({ name, result: readResults(join(reportDir, name)) })),
    SPEC_VERSION,
  )
  const report = baseline ? withFleetBaseline(built, baseline.report, baseline.file) : built
  await writeAtomically(join(reportDir, 'fleet.json'), `${JSON.stringify(report, null, 2)}\n`)
  await writeAtomically(join(reportDir, 'fleet.md'), renderFleetMarkdown(report))
  await writeAtomically(join(reportDir, 'fleet.html'), renderFleetHtml(report))
  return report
}

export async function runFleet(suite: ConformanceSuite, targets: readonly FleetTarget[], options: FleetRunOptions): Promise<FleetReport> {
  await mapConcurrently(targets, options.inFlight, (target) => judgeTarget(suite, target, options))
  return writeFleetReport(
    options.reportDir,
    targets.map((target) => target.name),
    options.baseline,
  )
}

/** The targets of one input of a merge: a fleet report's folder, or one target's report folder. */
function targetsOf(input: string): Array<{ name: string; folder: string; version: string; specVersion?: string }> {
  if (existsSync(join(input, 'fleet.json'))) {
    const fleet = JSON.parse(readFileSync(join(input, 'fleet.json'), 'utf8')) as FleetReport
    return fleet.targets.map((target) => ({ name: target.name, folder: join(input, target.name), version: fleet.tool.version, specVersion: fleet.specVersion }))
  }
  if (existsSync(join(input, 'results.json'))) return [{ name: basename(resolve(input)), folder: input, version: readResults(input).tool.version }]
  throw new ConfigError([`${input} holds neither fleet.json nor results.json`])
}

/**
 * The folders an input names: itself, or, when its last part holds `*` or `?` (a pattern the shell left alone:
 * quoted, or on Windows, or in a Kubernetes command), the folders beside it that match, in natural order
 * (shard-2 before shard-10). A pattern that matches nothing is a problem, not an empty merge.
 */
function foldersOf(input: string, problems: string[]): string[] {
  const pattern = basename(input)
  if (!/[*?]/.test(pattern)) return [input]
  const parent = dirname(input)
  const matcher = new RegExp(
    `^${pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  )
  const matches = existsSync(parent)
    ? readdirSync(parent, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && matcher.test(entry.name))
        .map((entry) => entry.name)
        .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    : []
  if (matches.length === 0) problems.push(`${input} matches no folder`)
  return matches.map((name) => join(parent, name))
}

/**
 * Joins the targets of fleet runs (and single runs) into one fleet report in `reportDir`: each target's folder is
 * copied there under its name. Inputs may be patterns (`shard-*`). Refuses runs of another suite or spec version,
 * and a target named twice.
 */
export async function mergeFleet(inputs: readonly string[], reportDir: string, baseline?: { file: string; report: FleetReport }): Promise<FleetReport> {
  if (inputs.length === 0) throw new ConfigError(['merge needs the report folders of the runs to join'])
  const problems: string[] = []
  const byName = new Map<string, string>()
  const folders = inputs.flatMap((input) => foldersOf(input, problems))
  if (problems.length > 0) throw new ConfigError(problems)
  const found = folders.flatMap(targetsOf)
  for (const target of found) {
    if (target.version !== packageVersion)
      problems.push(`${target.folder} was judged by petstore-conformance ${target.version}; this is ${packageVersion}: run every shard with one version`)
    if (target.specVersion !== undefined && target.specVersion !== SPEC_VERSION)
      problems.push(`${target.folder} judged the interface ${target.specVersion}; this suite judges ${SPEC_VERSION}`)
    const earlier = byName.get(target.name)
    if (earlier !== undefined) problems.push(`the target ${target.name} is in ${earlier} and in ${target.folder}: a target is counted once (are two shards the same slice?)`)
    else byName.set(target.name, target.folder)
  }
  if (problems.length > 0) throw new ConfigError(problems)
  for (const target of found) {
    const into = join(reportDir, target.name)
    if (resolve(target.folder) !== resolve(into)) cpSync(target.folder, into, { recursive: true })
  }
  return writeFleetReport(
    reportDir,
    found.map((target) => target.name),
    baseline,
  )
}
