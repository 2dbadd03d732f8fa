/**
 * docs/requirements.md, rendered from the catalogue: every requirement with its level, the words it
 * comes from and how the policy settles it. `npm run requirements-doc` writes it; a self-test fails when
 * the file in the tree differs from what the catalogue renders.
 */
import { type Area, type Requirement, requirements } from './catalogue.js'

const AREA_HEADINGS: Record<Area, string> = {
  listPets: 'listPets: GET /pets',
  createPet: 'createPet: POST /pets',
  getPet: 'getPet: GET /pets/{petId} (deprecated)',
  views: 'views: one pet in every answer that shows it',
  auth: 'auth: Bearer authentication, for every operation',
  errors: 'errors: the Error body, for every operation',
  responses: 'responses: what holds on every answer',
  limits: 'limits',
  versioning: 'versioning',
  scope: 'scope: what the spec does not show (untestable)',
}

/** Text for one table cell: pipes escaped, line breaks folded. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
}

function levelOf(req: Requirement): string {
  if (!req.testable) return 'untestable'
  return req.deprecatedOperation ? `${req.level} (INFO from 2030-12-05)` : req.level
}

function row(req: Requirement): string {
  const notes = [req.decision ? `Policy: ${req.decision}` : '', req.needsWrites ? 'Needs writes: inconclusive in `smoke`.' : ''].filter(Boolean).join(' ')
  return `| \`${req.id}\` | ${levelOf(req)} | ${cell(req.title)} | ${cell(req.specText)} <br>_${cell(req.source)}_ | ${cell(notes)} |`
}

export function renderRequirementsTable(): string {
  const count = (predicate: (req: Requirement) => boolean) => requirements.filter(predicate).length
  const lines = [
    '# Requirements',
    '',
    '<!-- Generated from lib/spec/catalogue.ts by `npm run requirements-doc`; a self-test fails when this file is stale. Do not edit by hand. -->',
    '',
    `${requirements.length} requirements: ${count((req) => req.testable && req.level === 'MUST')} MUST, ${count((req) => req.testable && req.level === 'SHOULD')} SHOULD, ${count((req) => req.testable && req.level === 'INFO')} INFO and ${count((req) => !req.testable)} untestable. Levels and verdicts are explained in [reports.md](reports.md); the words quoted are the spec's, or the conformance policy's where it settles a gap (the source says which).`,
  ]
  for (const area of Object.keys(AREA_HEADINGS) as Area[]) {
    const own = requirements.filter((req) => req.area === area)
    if (own.length === 0) continue
    lines.push('', `## ${AREA_HEADINGS[area]}`, '', '| id | level | what is checked | the words it comes from | notes |', '| --- | --- | --- | --- | --- |', ...own.map(row))
  }
  return `${lines.join('\n')}\n`
}
