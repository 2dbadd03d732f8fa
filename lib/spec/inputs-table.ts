/**
 * docs/inputs.md, rendered from the input catalogue: each place a request carries input, its spelling classes,
 * what the answer must be, where that is written, and each spelling applied to an example value. Written by
 * `npm run requirements-doc` with docs/requirements.md; a self-test fails when the file differs from this.
 */
import { INPUT_CATALOGUE, type InputPlace } from './input-catalogue.js'

/** The plain value each place's spellings are shown on. */
const EXAMPLES: Record<InputPlace, string> = {
  'path petId': '30',
  'path fixed segment': 'pets',
  'query limit': '5',
  'query status': 'available',
  Authorization: 'k3y-0f-Th1s-run',
  'Content-Type': 'application/json',
  Accept: 'application/json',
  'body text': '{"name":"Rex","categoryId":1,"status":"sold"}',
  'NewPet name': 'Rex ',
  'NewPet categoryId': '1',
}

/** A spelled example as a table shows it: quoted as JSON where it holds a character that is not printable ASCII, pipes escaped. */
function shown(text: string): string {
  const visible = /[^\x20-\x7e]/.test(text) ? JSON.stringify(text) : text === '' ? '(none)' : text
  return `\`${visible.replace(/\|/g, '\\|').replace(/`/g, 'ˋ')}\``
}

export function renderInputsTable(): string {
  const lines = [
    '# Inputs, spelled every way',
    '',
    'Generated from `lib/spec/input-catalogue.ts` by `npm run requirements-doc`; a self-test fails when this page and the',
    'catalogue differ. Each place a request carries input, the classes of spellings the suite sends there in every full',
    'run (the read-only ones in smoke), what the answer must be, and where that is written. Classes: **same meaning**:',
    "the answer must be the one the plain spelling gets, and the two are compared; **not the value**: the policy's",
    'refusal; **hazardous data**: stored and shown exactly; **lenient reading**: recorded (INFO), never failed;',
    '**refusable**: the plain answer is the SHOULD, a refusal with an Error body warns, any other answer fails.',
    '',
  ]
  for (const row of INPUT_CATALOGUE) {
    const example = EXAMPLES[row.place]
    lines.push(
      `## ${row.place}: ${row.title}`,
      '',
      `- class: **${row.class}** (${row.level}), judged by \`${row.requirement}\``,
      `- expected: ${row.expected}`,
      `- source: ${row.source}`,
      '',
      `| spelling | ${shown(example)} becomes |`,
      '| --- | --- |',
      ...row.spellings.map((spelling) => `| ${spelling.label.replace(/\|/g, '\\|')} | ${shown(spelling.spell(example))} |`),
      '',
    )
  }
  return `${lines.join('\n').trimEnd()}\n`
}
