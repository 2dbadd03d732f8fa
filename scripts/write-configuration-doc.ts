/** Writes docs/configuration.md and .env.example from the settings table (npm run configuration-doc). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderConfigurationDoc, renderEnvExample } from '../lib/settings/settings-docs.js'
import { packageRoot } from '../lib/spec/package-root.js'

for (const [file, text] of [
  [join(packageRoot, 'docs', 'configuration.md'), renderConfigurationDoc()],
  [join(packageRoot, '.env.example'), renderEnvExample()],
] as const) {
  writeFileSync(file, text)
  process.stdout.write(`wrote ${file}\n`)
}
