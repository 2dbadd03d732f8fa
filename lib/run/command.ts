/**
 * The petstore-conformance command as a function: arguments and environment in, lines out, exit code
 * back. cli/main.ts binds it to the process; self-tests call it in-process with their own environment.
 */
import { randomInt } from 'node:crypto'
import { EXIT } from '../judging/verdicts.js'
import { ConfigError, resolveConfig, USAGE } from './config.js'
import { type RunIo, runConformance } from './run-conformance.js'

export interface CommandSources {
  argv: readonly string[]
  env: Readonly<Record<string, string | undefined>>
  cwd: string
  /** The clock, when --now is not given. */
  today?: () => Date
}

export async function runCommand(sources: CommandSources, io: RunIo): Promise<number> {
  let config: ReturnType<typeof resolveConfig>
  try {
    config = resolveConfig({ ...sources, today: sources.today ?? (() => new Date()), randomSeed: () => randomInt(0, 2 ** 31 - 1) })
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(`${error.message}\n\nRun with --help for the options.`)
      return EXIT.usage
    }
    throw error
  }
  if (config === 'help') {
    io.out(USAGE)
    return EXIT.conformant
  }
  try {
    return (await runConformance(config, io)).exitCode
  } catch (error) {
    io.err(`Harness error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
    return EXIT.harness
  }
}
