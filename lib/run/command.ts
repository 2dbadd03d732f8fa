/**
 * The petstore-conformance command as a function: the suite, arguments and environment in, lines out, exit
 * code back. cli/main.ts binds it to the process; self-tests call it in-process with their own environment.
 * Questions that need no target (--version, --help, --list-requirements) are answered first; a
 * configuration error is exit 2, with reports written when their folder is known.
 *
 * Only what the verb needs is loaded: this module imports the configuration and the catalogue, and the run
 * (checks, HTTP client, reports) is imported when a run starts, so that --version, --help, --list-requirements
 * and a usage error answer within a tenth of a second of bare Node.
 */

import { randomInt } from 'node:crypto'
import { EXIT } from '../judging/verdicts.js'
import { renderUsage } from '../settings/settings-docs.js'
import { requirements } from '../spec/catalogue.js'
import { packageVersion } from '../spec/package-root.js'
import { withSourcePositions } from '../spec/stack-sources.js'
import { ConfigError, resolveConfig } from './config.js'
import type { RunOptions } from './run-conformance.js'
import type { RunIo } from './run-session.js'
import type { ConformanceSuite } from './suite.js'

export { EXIT }

/** The suite, or a way to load it when a run starts (the command loads its checks only for a run). */
export type SuiteSource = ConformanceSuite | (() => Promise<ConformanceSuite>)

export interface CommandSources {
  argv: readonly string[]
  env: Readonly<Record<string, string | undefined>>
  cwd: string
  /** The clock, when --now is not given. */
  today?: () => Date
}

/** --list-requirements: one line per requirement, or (--json) the catalogue as JSON. */
function listRequirements(json: boolean): string {
  if (json) {
    return JSON.stringify(
      requirements.map(({ id, level, area, title, specText, source, decision, testable }) => ({
        id,
        level,
        operation: area,
        title,
        specText,
        source,
        ...(decision ? { decision } : {}),
        testable,
      })),
      null,
      2,
    )
  }
  return requirements.map((req) => `${req.id.padEnd(40)} ${(req.testable ? req.level : 'untestable').padEnd(10)} ${req.area.padEnd(10)} ${req.specText}`).join('\n')
}

function validUrl(text: string | undefined): string | undefined {
  return text !== undefined && URL.canParse(text) ? text : undefined
}

/** A configuration error still leaves results.json, summary.md and junit.xml where the reports were to go, saying why the run stopped. */
export async function writeStoppedReports(error: ConfigError, today: Date, io: RunIo): Promise<void> {
  if (error.reportDir === undefined) return
  const [{ assembleRun }, { keepLastVerdict, writeReports }, { createRunRedactor }] = await Promise.all([
    import('./assemble-run.js'),
    import('../reports/write-reports.js'),
    import('../checks/evidence.js'),
  ])
  const run = assembleRun({
    exitCode: EXIT.usage,
    baseUrl: validUrl(error.baseUrl) ?? '',
    embeddedReference: false,
    profile: 'smoke',
    profileReason: 'not resolved: the configuration has errors',
    strict: false,
    failOn: 'any',
    seed: 0,
    started: Date.now(),
    today: today.toISOString(),
    requirementFilter: [],
    requestsSent: 0,
    stopReason: `configuration error: ${error.problems.join('; ')}`,
  })
  try {
    const kept = await keepLastVerdict(error.reportDir, EXIT.usage)
    const files = await writeReports(error.reportDir, run, [], createRunRedactor(error.apiKey))
    io.err(`Reports: ${files.join(', ')}`)
    if (kept) io.err(`The last verdict's reports were moved to ${kept}, not overwritten: this run has none`)
  } catch (writeError) {
    io.err(`The reports could not be written to ${error.reportDir}: ${writeError instanceof Error ? writeError.message : String(writeError)}`)
  }
}

export async function runCommand(suiteSource: SuiteSource, sources: CommandSources, io: RunIo, options: Pick<RunOptions, 'cancel'> = {}): Promise<number> {
  const { argv } = sources
  if (argv.includes('--version')) {
    io.out(packageVersion)
    return EXIT.conformant
  }
  if (argv.includes('--list-requirements')) {
    io.out(listRequirements(argv.includes('--json')))
    return EXIT.conformant
  }
  const today = sources.today ?? (() => new Date())
  let config: ReturnType<typeof resolveConfig>
  try {
    config = resolveConfig({ ...sources, today, randomSeed: () => randomInt(0, 2 ** 31 - 1) })
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`${error.message}\n\nRun with --help for the options.`)
      await writeStoppedReports(error, today(), io)
      return EXIT.usage
    }
    throw error
  }
  if (config === 'help') {
    io.out(renderUsage())
    return EXIT.conformant
  }
  try {
    const suite = typeof suiteSource === 'function' ? await suiteSource() : suiteSource
    if (config.dryRun) return await (await import('./dry-run.js')).planRun(config, suite, io)
    return (await (await import('./run-conformance.js')).runConfigured(config, suite, io, options)).exitCode
  } catch (error) {
    io.err(`Harness error: ${error instanceof Error ? withSourcePositions(error.stack ?? error.message) : String(error)}`)
    return EXIT.harness
  }
}
