/**
 * The command with its fleet verbs (cli/main.ts binds this to the process); any other arguments go to the
 * command of one run (lib/run/command.ts):
 *
 *   petstore-conformance --targets fleet.yaml [--shard k/n] [--report-dir reports] [--seed N] [--targets-in-flight 4] [--baseline old/fleet.json]
 *   petstore-conformance merge <report folders or patterns…> --report-dir <out> [--baseline old/fleet.json]
 *   petstore-conformance serve [--port 8080] [--host 127.0.0.1] [--pets N]   (the reference on a port: lib/run/serve.ts)
 *
 * Every other setting comes from the fleet file (its defaults, then each target's own) or from PETSTORE_*
 * variables under them. The exit code is the worst of the targets' (see fleet-report.ts).
 */
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { counted } from '../judging/headline.js'
import { type CommandSources, runCommand, type SuiteSource } from '../run/command.js'
import { ConfigError } from '../run/config.js'
import type { RunOptions } from '../run/run-conformance.js'
import type { RunIo } from '../run/run-session.js'
import type { ConformanceSuite } from '../run/suite.js'
import type { FleetReport } from './fleet-report.js'

type FleetCommandSources = Required<CommandSources>

/**
 * `merge …` and `--targets …` are the fleet's; everything else is one run. The fleet's modules (and the YAML
 * reader) are loaded only for its verbs, so --version and --help answer as quickly as before.
 */
export async function runCommandWithFleet(suiteSource: SuiteSource, sources: CommandSources, io: RunIo, options: Pick<RunOptions, 'cancel'> = {}): Promise<number> {
  const fleetSources = { ...sources, today: sources.today ?? (() => new Date()) }
  if (sources.argv[0] === 'merge') return mergeCommand(fleetSources, io)
  if (sources.argv[0] === 'serve') {
    const { serveCommand } = await import('../run/serve.js')
    return serveCommand(async () => (typeof suiteSource === 'function' ? await suiteSource() : suiteSource), sources.argv.slice(1), sources.env, io, options.cancel)
  }
  if (sources.argv.some((arg) => arg === '--targets' || arg.startsWith('--targets='))) {
    const suite = async () => (typeof suiteSource === 'function' ? await suiteSource() : suiteSource)
    return fleetCommand(suite, fleetSources, io, options.cancel)
  }
  return runCommand(suiteSource, sources, io, options)
}

/** A flag's digits as a number; its range is the fleet's to check (fleet-api.ts), under the flag's name. */
function wholeNumber(text: string, flag: string): number {
  if (!/^\d+$/.test(text)) throw new ConfigError([`${flag} ${text}: expected a whole number`])
  return Number(text)
}

function summarise(report: FleetReport, reportDir: string, io: RunIo): number {
  const drift = report.requirements.filter((row) => row.drift.length > 0).length
  io.out(
    `Fleet: ${counted(report.targets.length, 'target')}, ${report.targets.filter((target) => target.exitCode === 0).length} conformant, ${counted(drift, 'requirement')} drift`,
  )
  if (report.baseline) io.out(`Against the baseline ${report.baseline.file}: ${report.baseline.newFailures} new failures, ${report.baseline.fixed} fixed`)
  io.out(`Fleet report: ${resolve(reportDir, 'fleet.html')}, ${resolve(reportDir, 'fleet.json')}, ${resolve(reportDir, 'fleet.md')}`)
  io.out(`Exit ${report.exitCode} (the worst of the targets')`)
  return report.exitCode
}

async function answering(io: RunIo, work: () => Promise<number>): Promise<number> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ConfigError || (error instanceof Error && 'code' in error && error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')) {
      io.err(`${error.message}\n\nRun with --help for the options.`)
      return 2
    }
    throw error
  }
}

function fleetCommand(suite: () => Promise<ConformanceSuite>, sources: FleetCommandSources, io: RunIo, cancel?: AbortSignal): Promise<number> {
  return answering(io, async () => {
    const { values } = parseArgs({
      args: [...sources.argv],
      options: {
        targets: { type: 'string' },
        shard: { type: 'string' },
        'report-dir': { type: 'string' },
        seed: { type: 'string' },
        'targets-in-flight': { type: 'string' },
        baseline: { type: 'string' },
      },
      strict: true,
    })
    const reportDir = values['report-dir'] ?? 'reports'
    const { runFleetWith } = await import('./fleet-api.js')
    // The command is the typed API with flags: the same fleet run, reading its keys from the command's environment.
    const report = await runFleetWith(
      await suite(),
      {
        targets: values.targets ?? '',
        reportDir,
        env: sources.env,
        onLine: (line, stream) => (stream === 'out' ? io.out(line) : io.err(line)),
        ...(values.shard === undefined ? {} : { shard: values.shard }),
        ...(values.seed === undefined ? {} : { seed: wholeNumber(values.seed, '--seed') }),
        ...(values['targets-in-flight'] === undefined ? {} : { targetsInFlight: wholeNumber(values['targets-in-flight'], '--targets-in-flight') }),
        ...(values.baseline === undefined ? {} : { baseline: values.baseline }),
        ...(cancel ? { signal: cancel } : {}),
      },
      { cwd: sources.cwd, today: sources.today, names: { seed: '--seed', targetsInFlight: '--targets-in-flight' } },
    )
    return summarise(report, resolve(sources.cwd, reportDir), io)
  })
}

function mergeCommand(sources: FleetCommandSources, io: RunIo): Promise<number> {
  return answering(io, async () => {
    const { values, positionals } = parseArgs({
      args: sources.argv.slice(1),
      options: { 'report-dir': { type: 'string' }, baseline: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    })
    const reportDir = values['report-dir'] ?? 'reports'
    const { mergeFleetReports } = await import('./fleet-api.js')
    const report = await mergeFleetReports(positionals, reportDir, values.baseline === undefined ? {} : { baseline: values.baseline }, { cwd: sources.cwd })
    return summarise(report, resolve(sources.cwd, reportDir), io)
  })
}
