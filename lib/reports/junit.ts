/**
 * junit.xml: one test suite per area, one test case per check, named with its requirement id. A failed
 * check carries its evidence as text; inconclusive and skipped checks show as skipped with their reason.
 * Requirements judged on every exchange (no check of their own) and untestable ones get one test case each.
 */
import type { CheckReport, Failure } from '../checks/check-result.js'
import { traceLine } from '../checks/evidence.js'
import { countsAgainstRun, type RequirementResult } from '../judging/verdicts.js'
import { escapeControlCharacters } from './control-characters.js'
import type { RunResult } from './run-result.js'

/** What XML 1.0 cannot carry: characters other than tab, line feed, carriage return and those from U+0020 on, lone surrogates, U+FFFE and U+FFFF. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

export function xml(text: string): string {
  // Control characters are spelled out; what XML 1.0 still cannot carry (lone surrogates, U+FFFE) is dropped; the rest is escaped.
  return escapeControlCharacters(text).replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

function failuresText(failures: readonly Failure[]): string {
  return failures
    .map((failure) =>
      [
        failure.message,
        failure.expected ? `expected: ${failure.expected}` : '',
        failure.actual ? `actual: ${failure.actual}` : '',
        ...(failure.schemaErrors ?? []).map((error) => `schema: ${error}`),
        ...failure.evidence.flatMap((evidence) => [`reproduce: ${evidence.curl}`, traceLine(evidence) ?? '']),
        failure.replay ? `replay: ${failure.replay.command}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n\n')
}

/** The requirement's change against a baseline run, as a test case property, when there was a baseline. */
function baselineProperty(result: RequirementResult): string {
  return result.change ? `\n      <properties><property name="baseline" value="${result.change}"/></properties>` : ''
}

/** One check of a requirement, judged at the requirement's level (a failed SHOULD check is a warning). */
function checkCase(result: RequirementResult, check: CheckReport, counts: boolean): string {
  const open = `    <testcase classname="${xml(result.id)}" name="${xml(check.title)}">${baselineProperty(result)}`
  switch (check.outcome) {
    case 'fail':
      return failedCase(open, result, check.failure?.message ?? 'failed', failuresText(check.failure ? [check.failure] : []), counts)
    case 'inconclusive':
      return `${open}\n      <skipped message="${xml(`inconclusive: ${check.reason ?? ''}`)}"/>\n    </testcase>`
    case 'error':
      return `${open}\n      <error message="${xml(`harness error: ${check.reason?.split('\n')[0] ?? ''}`)}">${xml(check.reason ?? '')}</error>\n    </testcase>`
    default:
      return check.observations.length ? `${open}\n      <system-out>${xml(check.observations.join('\n'))}</system-out>\n    </testcase>` : `${open}</testcase>`
  }
}

/** A requirement's cases: one per check it ran, or one for the requirement when it has no check of its own. */
function requirementCases(result: RequirementResult, checks: readonly CheckReport[], counts: boolean): string[] {
  const own = checks.filter((check) => check.requirementId === result.id)
  if (own.length === 0 || result.verdict === 'skipped' || result.verdict === 'untestable') return [testCase(result, counts)]
  return own.map((check) => checkCase(result, check, counts))
}

/** A failure element when the requirement counts against the run (as the exit code does), else the text of what did not hold. */
function failedCase(open: string, result: RequirementResult, message: string, text: string, counts: boolean): string {
  if (counts) return `${open}\n      <failure message="${xml(`${result.level}: ${message}`)}" type="${result.level}">${xml(text)}</failure>\n    </testcase>`
  const label = result.level === 'MUST' ? 'KNOWN FAILURE (MUST, in the baseline; not counted by --fail-on new)' : result.level === 'SHOULD' ? 'WARNING (SHOULD)' : 'RECORDED (INFO)'
  return `${open}\n      <system-out>${xml(`${label}: ${text}`)}</system-out>\n    </testcase>`
}

function testCase(result: RequirementResult, counts: boolean): string {
  const name = `[${result.id}] ${result.title}`
  const open = `    <testcase classname="${xml(result.area)}" name="${xml(name)}">${baselineProperty(result)}`
  switch (result.verdict) {
    case 'fail':
    case 'warn':
      return failedCase(open, result, result.failures[0]?.message ?? 'failed', failuresText(result.failures), counts)
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

export function renderJunit(run: RunResult, checks: readonly CheckReport[]): string {
  const areas = [...new Set(run.requirements.map((result) => result.area))]
  let totals = { tests: 0, failures: 0, errors: 0 }
  const suites = areas.map((area) => {
    const cases = run.requirements
      .filter((result) => result.area === area)
      .flatMap((result) => requirementCases(result, checks, countsAgainstRun(result, run.strict, run.failOn === 'new')))
    const count = (pattern: RegExp) => cases.filter((text) => pattern.test(text)).length
    const [failures, errors, skipped] = [count(/<failure /), count(/<error /), count(/<skipped /)]
    totals = { tests: totals.tests + cases.length, failures: totals.failures + failures, errors: totals.errors + errors }
    return `  <testsuite name="${xml(area)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${cases.join('\n')}\n  </testsuite>`
  })
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="petstore-conformance" tests="${totals.tests}" failures="${totals.failures}" errors="${totals.errors}" time="${(run.durationMs / 1000).toFixed(3)}">\n${suites.join('\n')}\n</testsuites>\n`
}
