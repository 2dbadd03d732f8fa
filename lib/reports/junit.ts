/** junit.xml: one test suite per area, one test case per requirement, named with its id. */
import type { RequirementResult } from '../verdicts.js'
import type { RunResult } from './run-result.js'

/** XML 1.0 allows tab, line feed, carriage return and the characters from U+0020 on, less surrogates and U+FFFE/U+FFFF. */
function isXmlCharacter(character: string): boolean {
  const code = character.codePointAt(0) ?? 0
  return code === 0x09 || code === 0x0a || code === 0x0d || (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) || code >= 0x10000
}

function xml(text: string): string {
  // Characters XML 1.0 cannot carry at all are dropped; the rest are escaped.
  return [...text].filter(isXmlCharacter).join('').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

function failureText(result: RequirementResult): string {
  return result.failures
    .map((failure) =>
      [
        failure.message,
        failure.expected ? `expected: ${failure.expected}` : '',
        failure.actual ? `actual: ${failure.actual}` : '',
        ...(failure.schemaErrors ?? []).map((error) => `schema: ${error}`),
        ...failure.evidence.map((evidence) => `reproduce: ${evidence.curl}`),
        failure.replay ? `replay: ${failure.replay.command}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n')
}

function testCase(result: RequirementResult): string {
  const name = `[${result.id}] ${result.title}`
  const open = `    <testcase classname="${xml(result.area)}" name="${xml(name)}">`
  switch (result.verdict) {
    case 'fail':
      return `${open}\n      <failure message="${xml(`${result.level}: ${result.failures[0]?.message ?? 'failed'}`)}" type="${result.level}">${xml(failureText(result))}</failure>\n    </testcase>`
    case 'warn':
      return `${open}\n      <system-out>${xml(`WARNING (SHOULD): ${failureText(result)}`)}</system-out>\n    </testcase>`
    case 'inconclusive':
    case 'skipped':
    case 'untestable':
      return `${open}\n      <skipped message="${xml(`${result.verdict}: ${result.reasons.join('; ')}`)}"/>\n    </testcase>`
    case 'info':
      return `${open}\n      <system-out>${xml(result.observations.join('\n'))}</system-out>\n    </testcase>`
    default:
      return `${open}</testcase>`
  }
}

export function renderJunit(run: RunResult): string {
  const areas = [...new Set(run.requirements.map((result) => result.area))]
  const suites = areas.map((area) => {
    const results = run.requirements.filter((result) => result.area === area)
    const failures = results.filter((result) => result.verdict === 'fail').length
    const skipped = results.filter((result) => ['inconclusive', 'skipped', 'untestable'].includes(result.verdict)).length
    return `  <testsuite name="${xml(area)}" tests="${results.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${results.map(testCase).join('\n')}\n  </testsuite>`
  })
  const total = run.requirements.length
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="petstore-conformance" tests="${total}" failures="${run.summary.fail}" time="${(run.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`
}
