/**
 * The typed API of a fleet: `runFleetConformance` judges many targets as `--targets fleet.yaml` does, and
 * `mergeFleetReports` joins the report folders of shards as `merge` does. The fleet is a fleet file's path or
 * the same content as values (each target's settings under the typed API's option names); the keys are read
 * from `env` by the variable each target names, and, as for one run, nothing is read from process.env that is
 * not handed in. Both write the fleet's reports (they are its output) and resolve with what fleet.json holds.
 */
import { randomInt } from 'node:crypto'
import { resolve } from 'node:path'
import { counted } from '../judging/headline.js'
import { ConfigError } from '../run/config.js'
import type { RunIo } from '../run/run-session.js'
import type { ConformanceSuite } from '../run/suite.js'
import type { SettingValues } from '../settings/settings.js'
import { fleetOf, parseShard, readFleetFile, shardOf } from './fleet-file.js'
import type { FleetReport } from './fleet-report.js'
import { loadFleetBaseline, mergeFleet, runFleet } from './fleet-run.js'

/** Settings the fleet sets for each target itself: its folder, its key (read from apiKeyEnv) and what makes no sense per target. */
type SetByTheFleet = 'reportDir' | 'apiKey' | 'embeddedReference' | 'dryRun' | 'envFile'

/** A target of a fleet: a name (its report folder), its base URL, the variable that holds its key, and its own settings. */
export type FleetTargetOptions = Omit<SettingValues, SetByTheFleet> & {
  name: string
  baseUrl: string
  /** The environment variable (in `env`) that holds this target's key; the key itself is never part of a fleet. */
  apiKeyEnv: string
}

export interface FleetOptions {
  /** A fleet file's path (relative to the working folder), or the targets as values. */
  targets: string | readonly FleetTargetOptions[]
  /** Settings under every target's own (with targets as values; a fleet file has its own defaults block). */
  defaults?: Omit<SettingValues, SetByTheFleet>
  /** Only the k-th of n slices of the targets (`2/3`), as a CI matrix or an Indexed Job runs it. */
  shard?: string
  /** Where the fleet report and each target's folder go (default reports/). */
  reportDir?: string
  /** The fleet's seed; each target's is derived from it and its name (default: a random one). */
  seed?: number
  /** Targets judged at once (default 4). */
  targetsInFlight?: number
  /** Variables the keys are read from (by each target's apiKeyEnv), and PETSTORE_* defaults under the settings; default none. */
  env?: Readonly<Record<string, string | undefined>>
  /** An earlier fleet.json: each target's new failures and fixes since then are marked. */
  baseline?: string
  /** Cancels every target's run, as SIGTERM does the command's. */
  signal?: AbortSignal
  /** Receives the lines the command would print (the fleet's plan, then one per target judged); default: nothing is printed. */
  onLine?: (line: string, stream: 'out' | 'err') => void
}

function ioOf(onLine: FleetOptions['onLine']): RunIo {
  const emit = onLine ?? (() => {})
  return { out: (line) => emit(line, 'out'), err: (line) => emit(line, 'err') }
}

/**
 * Where relative paths start, what day it is, and what the numeric options are called in a message: the
 * process's and the option names for the typed API; the command's sources and its flags for the command.
 */
export interface FleetContext {
  cwd: string
  today: () => Date
  names?: { seed: string; targetsInFlight: string }
}

const processContext = (): FleetContext => ({ cwd: process.cwd(), today: () => new Date() })

const SEED_RANGE = [0, 2 ** 31 - 1] as const
const TARGETS_IN_FLIGHT_RANGE = [1, 64] as const

/** The problem with a whole-number option, when it has one. */
function wholeNumberProblems(value: number | undefined, name: string, [min, max]: readonly [number, number]): string[] {
  return value === undefined || (Number.isInteger(value) && value >= min && value <= max) ? [] : [`${name} ${value}: expected a whole number from ${min} to ${max}`]
}

/** Judges every target of the fleet (or of one shard); resolves with the fleet report whatever the verdicts. Throws ConfigError for a fleet with problems. */
export async function runFleetWith(suite: ConformanceSuite, options: FleetOptions, context: FleetContext = processContext()): Promise<FleetReport> {
  const names = context.names ?? { seed: 'seed', targetsInFlight: 'targetsInFlight' }
  const problems = [...wholeNumberProblems(options.seed, names.seed, SEED_RANGE), ...wholeNumberProblems(options.targetsInFlight, names.targetsInFlight, TARGETS_IN_FLIGHT_RANGE)]
  if (problems.length > 0) throw new ConfigError(problems)
  const all =
    typeof options.targets === 'string'
      ? readFleetFile(resolve(context.cwd, options.targets))
      : fleetOf({ targets: options.targets, ...(options.defaults ? { defaults: options.defaults } : {}) }, 'the fleet')
  const targets = options.shard === undefined ? all : shardOf(all, parseShard(options.shard))
  const seed = options.seed ?? randomInt(SEED_RANGE[0], SEED_RANGE[1])
  const inFlight = options.targetsInFlight ?? 4
  const baseline = options.baseline === undefined ? undefined : loadFleetBaseline(resolve(context.cwd, options.baseline))
  const io = ioOf(options.onLine)
  io.out(`Fleet: ${targets.length} of ${counted(all.length, 'target')}${options.shard ? ` (shard ${options.shard})` : ''}, ${inFlight} at a time, fleet seed ${seed}`)
  return runFleet(suite, targets, {
    reportDir: resolve(context.cwd, options.reportDir ?? 'reports'),
    seed,
    inFlight,
    env: options.env ?? {},
    cwd: context.cwd,
    today: context.today,
    io,
    ...(options.signal ? { cancel: options.signal } : {}),
    ...(baseline ? { baseline } : {}),
  })
}

/** Joins the report folders of several fleet runs (shards) into one fleet report in `reportDir`; throws ConfigError for another version or a target counted twice. */
export function mergeFleetReports(
  folders: readonly string[],
  reportDir: string,
  options: { baseline?: string } = {},
  context: Pick<FleetContext, 'cwd'> = processContext(),
): Promise<FleetReport> {
  return mergeFleet(
    folders.map((folder) => resolve(context.cwd, folder)),
    resolve(context.cwd, reportDir),
    options.baseline === undefined ? undefined : loadFleetBaseline(resolve(context.cwd, options.baseline)),
  )
}
