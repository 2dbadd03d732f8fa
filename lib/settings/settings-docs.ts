/**
 * The settings table in the words each place needs: the command's `--help`, `docs/configuration.md`
 * (npm run configuration-doc; a self-test holds the file to it) and `.env.example`.
 */
import { type Setting, settingEntries } from './settings.js'

function defaultText(setting: Setting<unknown>): string {
  if (setting.defaultWords !== undefined) return setting.defaultWords
  const value = setting.default
  if (value === undefined) return 'none'
  return Array.isArray(value) ? value.join(',') || 'none' : String(value)
}

/** The command's own switches, which are not settings of a run. */
const COMMAND_SWITCHES = [
  ['--env-file FILE', 'file read as .env (default ./.env)'],
  ['--list-requirements', 'every requirement: id, level, operation, spec text (--json for JSON)'],
  ['--version', 'the version of the suite'],
  ['-h, --help', 'this text'],
] as const

export const EXIT_CODES_TEXT = 'Exit codes: 0 conformant, 1 non-conformant, 2 usage or configuration error, 3 target unreachable or harness error.'

export function renderUsage(): string {
  const settingLines = settingEntries().map(([, setting]) => `  --${setting.flag.padEnd(22)} ${setting.env.padEnd(31)} ${setting.help} (default: ${defaultText(setting)})`)
  return `Usage: petstore-conformance [options]

Runs the Pet Store v1 conformance suite against --base-url, or against the embedded
reference implementation when no base URL is given.

Options (each also read from the environment variable shown, then from .env):
${settingLines.join('\n')}
${COMMAND_SWITCHES.map(([flag, help]) => `  ${flag.padEnd(24)} ${help}`).join('\n')}

The reference implementation on a port, to try the suite or develop a client (petstore-conformance serve --help):
  petstore-conformance serve [--port 8080] [--host 127.0.0.1] [--pets N]

Many targets (docs/fleet.md):
  petstore-conformance --targets fleet.yaml [--shard k/n] [--seed N] [--targets-in-flight 4] [--report-dir reports] [--baseline old/fleet.json]
  petstore-conformance merge <report folders of the shards, or shard-*> --report-dir <out> [--baseline old/fleet.json]

${EXIT_CODES_TEXT}`
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|')
}

export function renderConfigurationDoc(): string {
  const rows = settingEntries().map(
    ([key, setting]) => `| \`--${setting.flag}\` | \`${setting.env}\` | \`${key}\` | ${cell(setting.type)} | ${cell(defaultText(setting))} | ${cell(setting.help)} |`,
  )
  return `# Configuration

<!-- Generated from lib/settings/settings.ts by \`npm run configuration-doc\`; a self-test fails when it drifts. -->

Every setting of a run has one name in each place it can be given:

- a **flag** of the command (\`npx petstore-conformance --seed 7\`); a true-or-false setting given alone means true (\`--strict\`);
- an **environment variable**, then the same variable in a **\`.env\` file** (the working folder's, or \`--env-file\`);
- an **option** of the typed API (\`runConformance({ seed: 7 })\`) and of the vitest entry (\`conformanceSuite({ seed: 7 })\`), by the name in the third column, as a value of its type (lists as arrays).

A flag wins over a variable, a variable over \`.env\`, \`.env\` over the default. The typed API and the vitest entry
read no variable they are not handed (\`env\`). Every value is checked before anything is sent; a bad one is a
configuration error (exit code 2) that says what to fix.

| flag | variable | option | type | default | what it does |
| ---- | -------- | ------ | ---- | ------- | ------------ |
${rows.join('\n')}

Proxies are honoured through the usual variables \`HTTPS_PROXY\`, \`HTTP_PROXY\` and \`NO_PROXY\`. In CI (\`CI\` set),
no target is a configuration error unless \`--embedded-reference\` asks for the embedded reference on purpose.

${EXIT_CODES_TEXT}
`
}

export function renderEnvExample(): string {
  const lines = settingEntries().flatMap(([, setting]) => [`# ${setting.help} (${setting.type}; default: ${defaultText(setting)})`, `${setting.env}=`])
  return `# Copy to .env (git-ignored) and fill in. Generated from the settings table (npm run configuration-doc).
# Command-line flags win over these variables, and variables set in the environment win over this file.
# An empty line here means unset; a PETSTORE_BASE_URL or PETSTORE_API_KEY that is set but empty in the
# environment is an error (exit 2).

${lines.join('\n')}
# Proxies are honoured through the usual variables:
# HTTPS_PROXY=
# HTTP_PROXY=
# NO_PROXY=
`
}
