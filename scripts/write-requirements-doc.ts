/** Writes docs/requirements.md from the catalogue, docs/inputs.md from the input catalogue and docs/allowances.md from the allowances (npm run requirements-doc). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { renderInputsTable } from '../lib/spec/inputs-table.js'
import { packageRoot } from '../lib/spec/package-root.js'
import { renderRequirementsTable } from '../lib/spec/requirements-table.js'
import { renderAllowancesDoc } from '../variants/allowances/allowances-doc.js'

for (const [name, render] of [
  ['requirements.md', renderRequirementsTable],
  ['inputs.md', renderInputsTable],
  ['allowances.md', renderAllowancesDoc],
] as const) {
  const file = join(packageRoot, 'docs', name)
  writeFileSync(file, render())
  process.stdout.write(`wrote ${file}\n`)
}
