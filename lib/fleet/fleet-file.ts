/**
 * The fleet file (`--targets fleet.yaml`): the targets one run judges, each with a name, a base URL, the name of
 * the environment variable that holds its key (never the key), and settings under the typed API's option names;
 * a `defaults:` block applies to every target. A file with a problem is refused whole, with every problem named.
 */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { ConfigError } from '../run/config.js'
import { SETTINGS, type SettingValues } from '../settings/settings.js'

export interface FleetTarget {
  /** Unique in the fleet; the folder of its reports (`reports/<name>/`). */
  name: string
  baseUrl: string
  /** The environment variable that holds this target's key. */
  apiKeyEnv: string
  /** The defaults, then the target's own settings, as typed API options. */
  settings: SettingValues
}

/** A name that is one folder name on every system: letters, digits, dot, dash, underscore. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/
/** Set by the fleet, per target: its folder, its key, its seed (derived from the run's, unless given). */
const SET_BY_THE_FLEET: readonly string[] = ['reportDir', 'apiKey', 'embeddedReference', 'dryRun', 'envFile']

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function settingsOf(block: Record<string, unknown>, where: string, problems: string[]): SettingValues {
  const settings: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(block)) {
    if (key === 'apiKey') problems.push(`${where}: apiKey is not read from a fleet file; name the variable that holds it with apiKeyEnv`)
    else if (SET_BY_THE_FLEET.includes(key)) problems.push(`${where}: ${key} is set by the fleet for each target`)
    else if (!(key in SETTINGS)) problems.push(`${where}: ${key} is not a setting (see docs/configuration.md for the option names)`)
    else settings[key] = value
  }
  return settings as SettingValues
}

/** The targets of a fleet file's text; throws ConfigError naming every problem. */
export function parseFleet(text: string, source: string): FleetTarget[] {
  let document: unknown
  try {
    document = parse(text)
  } catch (error) {
    throw new ConfigError([`${source} is not YAML: ${error instanceof Error ? error.message : String(error)}`])
  }
  return fleetOf(document, source)
}

/**
 * The targets of a fleet given as values (the typed API's, or a fleet file's once read): `targets`, a list of
 * targets, and `defaults`; checked as a file is, every problem named at once.
 */
export function fleetOf(document: unknown, source: string): FleetTarget[] {
  const problems: string[] = []
  if (!isRecord(document) || !Array.isArray(document.targets) || document.targets.length === 0) {
    throw new ConfigError([`${source} needs a list of targets under targets:`])
  }
  for (const key of Object.keys(document)) if (key !== 'targets' && key !== 'defaults') problems.push(`${source}: ${key} is not a fleet key (targets, defaults)`)
  const defaults = document.defaults === undefined ? {} : isRecord(document.defaults) ? settingsOf(document.defaults, `${source} defaults`, problems) : {}
  if (document.defaults !== undefined && !isRecord(document.defaults)) problems.push(`${source}: defaults must be a mapping of settings`)
  const seen = new Set<string>()
  const targets: FleetTarget[] = []
  document.targets.forEach((entry: unknown, index: number) => {
    const where = `${source} targets[${index}]`
    if (!isRecord(entry)) {
      problems.push(`${where} must be a mapping with name, baseUrl and apiKeyEnv`)
      return
    }
    const { name, baseUrl, apiKeyEnv, ...own } = entry
    if (typeof name !== 'string' || !NAME.test(name)) problems.push(`${where}: name must be letters, digits, dots, dashes or underscores (it names the target's report folder)`)
    else if (seen.has(name.toLowerCase())) problems.push(`${where}: the name ${name} is used twice`)
    else seen.add(name.toLowerCase())
    if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl)) problems.push(`${where}: baseUrl must be a URL`)
    if (typeof apiKeyEnv !== 'string' || !VARIABLE.test(apiKeyEnv)) problems.push(`${where}: apiKeyEnv must name an environment variable (the key itself never goes in the file)`)
    const settings = settingsOf(own, where, problems)
    targets.push({ name: String(name), baseUrl: String(baseUrl), apiKeyEnv: String(apiKeyEnv), settings: { ...defaults, ...settings } })
  })
  if (problems.length > 0) throw new ConfigError(problems)
  return targets
}

export function readFleetFile(path: string): FleetTarget[] {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ConfigError([`--targets ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}`])
  }
  return parseFleet(text, path)
}

/** `k/n` (1-based k) as numbers; throws ConfigError for anything else. */
export function parseShard(text: string): { index: number; count: number } {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim())
  const index = Number(match?.[1])
  const count = Number(match?.[2])
  if (!match || count < 1 || index < 1 || index > count) throw new ConfigError([`--shard ${text}: expected k/n with 1 ≤ k ≤ n, e.g. 2/3`])
  return { index, count }
}

/**
 * The k-th of n slices: the targets at positions k-1, k-1+n, k-1+2n… of the file. Every target is in exactly one
 * slice, the slices differ in size by at most one, and a slice depends only on the file, k and n.
 */
export function shardOf<T>(targets: readonly T[], shard: { index: number; count: number }): T[] {
  return targets.filter((_, position) => position % shard.count === shard.index - 1)
}
