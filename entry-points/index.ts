/**
 * The package's typed API: `import { runConformance } from 'petstore-conformance'`. Options are the
 * settings of docs/configuration.md by their option names, as values; the run is the command's, and the
 * result is what results.json holds (schemas/results.schema.json).
 */
import type { FleetOptions } from '../lib/fleet/fleet-api.js'
import type { FleetReport } from '../lib/fleet/fleet-report.js'
import type { RunResult } from '../lib/reports/run-result.js'
import type { ServedReference, ServeOptions } from '../lib/run/serve.js'
import { type ConformanceOptions, runConformanceWith } from '../lib/run/typed-api.js'
import { petstoreSuite } from './suite.js'

/** One conformance run; resolves with its results (exit code included) whatever the verdict. */
export function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  return runConformanceWith(petstoreSuite, options)
}

/**
 * The embedded reference implementation on a port until `close()`: `const { baseUrl, apiKey, close } = await
 * serveReference({ port: 0 })`. The key is `apiKey` when given, else one generated.
 */
export async function serveReference(options: ServeOptions = {}): Promise<ServedReference> {
  const serve = await import('../lib/run/serve.js')
  return serve.serveReference(petstoreSuite, options)
}

/** A fleet of targets (a fleet file or the same as values), or one shard of it; resolves with what fleet.json holds. See docs/fleet.md. */
export async function runFleetConformance(options: FleetOptions): Promise<FleetReport> {
  const { runFleetWith } = await import('../lib/fleet/fleet-api.js')
  return runFleetWith(petstoreSuite, options)
}

/** Joins the report folders of a fleet's shards into one fleet report in `reportDir`; with a baseline (an earlier fleet.json), changes are marked. */
export async function mergeFleetReports(folders: readonly string[], reportDir: string, options: { baseline?: string } = {}): Promise<FleetReport> {
  const fleet = await import('../lib/fleet/fleet-api.js')
  return fleet.mergeFleetReports(folders, reportDir, options)
}

export type { FleetOptions, FleetTargetOptions } from '../lib/fleet/fleet-api.js'
export type { FleetReport, FleetRequirementRow, FleetTargetEntry } from '../lib/fleet/fleet-report.js'
export type { Headline, HeadlineText } from '../lib/judging/headline.js'
export type { RequirementResult, Verdict } from '../lib/judging/verdicts.js'
export type { RunResult } from '../lib/reports/run-result.js'
export { type Config, ConfigError, type ConfigSources, resolveConfig } from '../lib/run/config.js'
export type { ServedReference, ServeOptions } from '../lib/run/serve.js'
export { type ConformanceOptions, configFor } from '../lib/run/typed-api.js'
export { type Profile, SETTINGS, type SettingValues } from '../lib/settings/settings.js'
export { type Level, type Requirement, type RequirementId, requirements } from '../lib/spec/catalogue.js'
