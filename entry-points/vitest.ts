/**
 * The suite inside a vendor's own vitest project:
 *
 *   import { conformanceSuite } from 'petstore-conformance/vitest'
 *   conformanceSuite({ baseUrl: process.env.MY_SERVICE_URL, apiKey: process.env.MY_SERVICE_KEY, profile: 'full' })
 *
 * Every check of the suite (the very definitions the command runs) becomes a vitest test titled with its
 * requirement id, under a describe block per operation, so `vitest -t listPets/`, the IDE's test explorer,
 * watch mode and sharding work. Requirements judged on every answer of the run get a test of their own.
 * A failure shows the command's message and evidence (curl line, replay command); an inconclusive check is
 * a skipped test with its reason; a SHOULD warning or an INFO finding passes with an annotation saying so.
 *
 * The run is the command's: opened once before the tests (reference, preflight, seeding), the selected
 * checks all started at once within the run's deadline, each test waiting for its own check; with
 * `reportDir` set, the four reports are written after the last test.
 */
import { afterAll, beforeAll, describe, type TestContext, test } from 'vitest'
import type { CheckReport } from '../lib/checks/check-result.js'
import { requirementIdOfTitle } from '../lib/checks/check-result.js'
import { EDIT_FINDING_REQUIREMENTS } from '../lib/checks/edited-answers.js'
import { EVERY_EXCHANGE_REQUIREMENTS } from '../lib/checks/incidental-checks.js'
import type { CheckDefinition } from '../lib/checks/registry.js'
import type { RequirementResult } from '../lib/judging/verdicts.js'
import { checkTestOutcome, requirementTestOutcome, type TestOutcome } from '../lib/reports/test-outcomes.js'
import type { Config } from '../lib/run/config.js'
import { type Ending, openRun, type RunSession } from '../lib/run/run-session.js'
import { finishRun, judgeRun, runCheckStep } from '../lib/run/run-steps.js'
import { type ConformanceOptions, configFor } from '../lib/run/typed-api.js'
import { effectiveLevel, isSelected, type Requirement, type RequirementId, requirement, requirements } from '../lib/spec/catalogue.js'
import { petstoreSuite } from './suite.js'

export interface ConformanceSuiteOptions extends Omit<ConformanceOptions, 'writeReports' | 'signal'> {
  /** The outermost describe block (default "Pet Store v1 conformance"). */
  title?: string
}

/** A promise with its resolve and reject at hand: each test waits on its check's report. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve: (value: T) => void = () => {}
  let reject: (error: unknown) => void = () => {}
  const promise = new Promise<T>((done, fail) => {
    resolve = done
    reject = fail
  })
  return { promise, resolve, reject }
}

/** The titles of the tests vitest will run below a suite (a `-t` filter or `.skip` leaves the others out). */
function testsToRun(task: { type: string; mode: string; name: string; tasks?: ReadonlyArray<unknown> }): Set<string> {
  const titles = new Set<string>()
  const visit = (node: { type: string; mode: string; name: string; tasks?: ReadonlyArray<unknown> }) => {
    if (node.type === 'test' && (node.mode === 'run' || node.mode === 'only')) titles.add(node.name)
    for (const child of node.tasks ?? []) visit(child as typeof node)
  }
  visit(task)
  return titles
}

/** An error that reads as the command's lines, without a stack into this module. */
function verdictError(message: string): Error {
  const error = new Error(message)
  error.stack = `Error: ${message}`
  return error
}

async function settle(context: TestContext, outcome: TestOutcome): Promise<void> {
  if (outcome.state === 'fail') throw verdictError(outcome.message)
  if (outcome.state === 'skip') context.skip(outcome.reason)
  else if (outcome.annotation) await context.annotate(outcome.annotation.message, outcome.annotation.type)
}

/**
 * Requirements a test of their own judges from the whole run: those judged on every answer, those the edits of the
 * neighbourhood are charged to, and those no check definition names.
 */
function runWideRequirements(checks: readonly CheckDefinition[]): Requirement[] {
  const named = new Set(checks.map((definition) => requirementIdOfTitle(definition.title)))
  const runWide = new Set<RequirementId>([...EVERY_EXCHANGE_REQUIREMENTS, ...EDIT_FINDING_REQUIREMENTS])
  return requirements.filter((req) => req.testable && (runWide.has(req.id as RequirementId) || !named.has(req.id)))
}

/** The checks grouped as the suites declare them, each group under the area its name starts with (`listPets: the limit parameter`). */
function byArea(checks: readonly CheckDefinition[]): Map<string, Map<string, CheckDefinition[]>> {
  const areas = new Map<string, Map<string, CheckDefinition[]>>()
  for (const definition of checks) {
    const area = definition.group.split(':')[0] ?? definition.group
    const groups = areas.get(area) ?? new Map<string, CheckDefinition[]>()
    areas.set(area, groups)
    const group = groups.get(definition.group)
    if (group) group.push(definition)
    else groups.set(definition.group, [definition])
  }
  return areas
}

/** The whole suite as vitest tests against one target. Throws ConfigError at collection for a bad setting. */
export function conformanceSuite(options: ConformanceSuiteOptions = {}): void {
  const { title = 'Pet Store v1 conformance', onLine, ...settings } = options
  const config: Config = configFor(settings, { kind: 'vitest' })
  const now = new Date(config.now)
  const emit = onLine ?? (() => {})
  const io = { out: (line: string) => emit(line, 'out'), err: (line: string) => emit(line, 'err') }
  const selectedChecks = petstoreSuite.checks.filter((definition) => isSelected(requirementIdOfTitle(definition.title) ?? '', config.requirements))
  // The run's deadline bounds every wait; vitest's own timeouts sit just past it.
  const timeout = config.deadlineMs + 30_000
  const reports = new Map<string, ReturnType<typeof deferred<CheckReport>>>()
  for (const definition of selectedChecks) reports.set(definition.title, deferred<CheckReport>())
  let session: RunSession | undefined
  let stopped: Ending | undefined
  let judged: Promise<Ending> | undefined

  describe(title, () => {
    // vitest reads the first parameter for the fixtures it needs: an empty pattern asks for none.
    // biome-ignore lint/correctness/noEmptyPattern: vitest requires object destructuring in the first parameter of a hook
    beforeAll(async ({}, suite) => {
      const wanted = testsToRun(suite)
      const opened = await openRun(config, petstoreSuite, io)
      session = opened.session
      if (opened.ended) {
        stopped = opened.ended
        return
      }
      const open = opened.session
      const checks = selectedChecks.filter((definition) => wanted.has(definition.title))
      judged = runCheckStep(open, checks, { suite: petstoreSuite.checks, onReport: (report) => reports.get(report.title)?.resolve(report) }).then((checked) =>
        judgeRun(open, checked),
      )
      // Should the check step itself fail, every test waiting on a report fails with it at once, not at vitest's timeout.
      judged.catch((error: unknown) => {
        for (const pending of reports.values()) pending.reject(error)
      })
    }, timeout)

    afterAll(async () => {
      if (!session) return
      try {
        const ending = stopped ?? (await judged)
        if (ending) await finishRun(session, ending, { writeReports: options.reportDir !== undefined })
      } finally {
        await session.close()
      }
    }, timeout)

    /** Why no test can have a verdict: the run stopped before the checks (an unreachable target, a refused key). */
    const noRun = () => stopped && verdictError(`no verdict: ${stopped.stopReason ?? 'the run stopped before the checks'}`)

    for (const [area, groups] of byArea(selectedChecks)) {
      describe(area, () => {
        for (const [group, definitions] of groups) {
          describe(group, () => {
            for (const definition of definitions) {
              test(
                definition.title,
                async (context) => {
                  const notRun = noRun()
                  if (notRun) throw notRun
                  const report = await (reports.get(definition.title) as ReturnType<typeof deferred<CheckReport>>).promise
                  await settle(context, checkTestOutcome(report, effectiveLevel(requirement(report.requirementId as RequirementId), now), config.strict))
                },
                timeout,
              )
            }
          })
        }
      })
    }

    const runWide = runWideRequirements(petstoreSuite.checks).filter((req) => isSelected(req.id, config.requirements))
    if (runWide.length > 0) {
      describe('the whole run', () => {
        for (const req of runWide) {
          test(
            `[${req.id}] ${req.title}, judged on every answer of the run`,
            async (context) => {
              const notRun = noRun()
              if (notRun) throw notRun
              const ending = await judged
              const result = ending?.requirements?.find((candidate: RequirementResult) => candidate.id === req.id)
              if (!result) throw verdictError(`no verdict for ${req.id}`)
              await settle(context, requirementTestOutcome(result, config.strict))
            },
            timeout,
          )
        }
      })
    }
  })
}

export { ConfigError } from '../lib/run/config.js'
