/**
 * The package's typed API: `import { runConformance } from 'petstore-conformance'`. Options are the
 * settings of docs/configuration.md by their option names, as values; the run is the command's, and the
 * result is what results.json holds (schemas/results.schema.json).
 */
import type { RunResult } from '../lib/reports/run-result.js'
import { type ConformanceOptions, runConformanceWith } from '../lib/run/typed-api.js'
import { petstoreSuite } from './suite.js'

/** One conformance run; resolves with its results (exit code included) whatever the verdict. */
export function runConformance(options: ConformanceOptions = {}): Promise<RunResult> {
  return runConformanceWith(petstoreSuite, options)
}

export type { Headline, HeadlineText } from '../lib/judging/headline.js'
export type { RequirementResult, Verdict } from '../lib/judging/verdicts.js'
export type { RunResult } from '../lib/reports/run-result.js'
export { type Config, ConfigError, type ConfigSources, resolveConfig } from '../lib/run/config.js'
export { type ConformanceOptions, configFor } from '../lib/run/typed-api.js'
export { type Profile, SETTINGS, type SettingValues } from '../lib/settings/settings.js'
export { type Level, type Requirement, type RequirementId, requirements } from '../lib/spec/catalogue.js'
