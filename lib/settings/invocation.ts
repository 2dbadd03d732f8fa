/**
 * How the user started the run, so that the lines that replay a failure are in that form: the command as it was
 * typed (`npx petstore-conformance`, or `npm run conformance --` in a clone of the repository), a call of the
 * typed API, or the vitest entry's options. A replay names its settings by their table keys; each form spells them
 * its own way (flags, or option names).
 */
import { SETTINGS, type SettingKey } from './settings.js'

export type Invocation = { kind: 'command'; prefix: string } | { kind: 'typed-api' } | { kind: 'vitest' }

/** The command's prefix as the user typed it: `npm run conformance --` when npm ran the clone's script, else the bin by its name. */
export function commandInvocation(env: Readonly<Record<string, string | undefined>>): { kind: 'command'; prefix: string } {
  // The single executable says how it was called (cli/single-executable.ts).
  const executable = env.PETSTORE_CONFORMANCE_EXECUTABLE
  if (executable) return { kind: 'command', prefix: shellWord(executable) }
  return { kind: 'command', prefix: env.npm_lifecycle_event === 'conformance' ? 'npm run conformance --' : 'npx petstore-conformance' }
}

export type ReplaySettings = ReadonlyArray<readonly [SettingKey, string | number | readonly string[]]>

/** A value as a shell word: quoted when it holds anything but safe characters. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}

/** A value as TypeScript source. */
function sourceValue(value: string | number | readonly string[]): string {
  if (typeof value === 'number') return String(value)
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  return `[${value.map(sourceValue).join(', ')}]`
}

/** The replay of a failure with `settings`, in the form of `invocation`. */
export function replayIn(invocation: Invocation, settings: ReplaySettings): string {
  if (invocation.kind === 'command') {
    const flags = settings.map(([key, value]) => `--${SETTINGS[key].flag} ${shellWord(Array.isArray(value) ? value.join(',') : String(value))}`)
    return [invocation.prefix, ...flags].join(' ')
  }
  const options = `{ ${settings.map(([key, value]) => `${key}: ${sourceValue(value)}`).join(', ')} }`
  return invocation.kind === 'typed-api' ? `runConformance(${options})` : `conformanceSuite(${options})`
}
