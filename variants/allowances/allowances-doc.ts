/** docs/allowances.md: every allowance of the policy mapped to its operators, the gaps, and every operator by layer (npm run requirements-doc). */
import { allowanceSourceText, LAYERS } from './allowance.js'
import { allowances } from './index.js'
import { POLICY_GRANTS } from './policy-grants.js'

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

export function renderAllowancesDoc(): string {
  const mapped = POLICY_GRANTS.filter((grant) => grant.operators.length > 0)
  const gaps = POLICY_GRANTS.filter((grant) => grant.operators.length === 0)
  return [
    '# Allowances: the conformant services the suite is proven against',
    '',
    '<!-- Rendered from variants/allowances/ by `npm run requirements-doc`; a self-test fails when it drifts. -->',
    '',
    'This page describes the project’s repository: the folders it names (`variants/`, `mutation-score/`, `self-tests/`)',
    'are there, not in the npm package.',
    '',
    'Conformant services differ in every way the spec and the conformance policy allow. Each such way is an',
    '**allowance**: an operator on the reference implementation, written from the policy’s words, that composes with',
    'the others (`variants/allowances/`). The variant score draws look-alikes as combinations of them: every allowance',
    'alone, pairs and triples the seed chooses (`npm run allowance-score`); `npm test` runs a sample that holds every',
    'allowance once. Any failure, or a warning the allowance does not declare, is a false failure of the suite.',
    '',
    `## What the policy allows, and the operators that apply it (${mapped.length} grants, ${allowances.length} operators)`,
    '',
    '| policy row or RFC | what it allows | operators |',
    '| --- | --- | --- |',
    ...mapped.map((grant) => `| ${cell(grant.row)} | ${cell(grant.grants)} | ${grant.operators.map((id) => `\`${id}\``).join(', ')} |`),
    '',
    `## Gaps: allowances without an operator (${gaps.length})`,
    '',
    '| policy row or RFC | what it allows | why there is no operator |',
    '| --- | --- | --- |',
    ...gaps.map((grant) => `| ${cell(grant.row)} | ${cell(grant.grants)} | ${cell(grant.gap ?? '')} |`),
    '',
    '## The operators, by the layer of the service they change',
    '',
    'A combination applies its operators innermost first: the store, the service once it has the key, how it reads the',
    'key, its router (which may answer before the key is read), how it writes answers, how its HTTP server delivers',
    'them, and an edge in front of it all. Operators of one group decide the same thing two ways: a combination takes one.',
    '',
    '| operator | layer | group | what the service does | source | may warn on |',
    '| --- | --- | --- | --- | --- | --- |',
    ...[...allowances]
      .sort((a, b) => LAYERS.indexOf(a.layer) - LAYERS.indexOf(b.layer))
      .map(
        (allowance) =>
          `| \`${allowance.id}\` | ${allowance.layer} | ${allowance.group ?? ''} | ${cell(allowance.does)} | ${cell(allowanceSourceText(allowance.source))}: “${cell(allowance.allowedBy)}” | ${(allowance.warns ?? []).join(', ')} |`,
      ),
    '',
  ].join('\n')
}
