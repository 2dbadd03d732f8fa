#!/usr/bin/env node
/** The petstore-conformance command: configuration, then one run; exit codes as the policy fixes them. */
import { randomInt } from 'node:crypto'
import { ConfigError, resolveConfig, USAGE } from '../lib/config.js'
import { EXIT } from '../lib/verdicts.js'
import { runConformance } from './run.js'

async function main(): Promise<number> {
  let config: ReturnType<typeof resolveConfig>
  try {
    config = resolveConfig({ argv: process.argv.slice(2), env: process.env, cwd: process.cwd(), today: () => new Date(), randomSeed: () => randomInt(0, 2 ** 31 - 1) })
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n\nRun with --help for the options.\n`)
      return EXIT.usage
    }
    throw error
  }
  if (config === 'help') {
    process.stdout.write(`${USAGE}\n`)
    return EXIT.conformant
  }
  try {
    return await runConformance(config, { out: (line) => process.stdout.write(`${line}\n`), err: (line) => process.stderr.write(`${line}\n`) })
  } catch (error) {
    process.stderr.write(`Harness error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return EXIT.harness
  }
}

process.exitCode = await main()
