/** Writes docs/requirements.md from the catalogue (npm run requirements-doc). */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../lib/spec/package-root.js'
import { renderRequirementsTable } from '../lib/spec/requirements-table.js'

const file = join(packageRoot, 'docs', 'requirements.md')
writeFileSync(file, renderRequirementsTable())
process.stdout.write(`wrote ${file}\n`)
