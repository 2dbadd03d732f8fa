/** The vitest reporter of a conformance run: collects each check's report from task meta. */
import type { Reporter, SerializedError, TestCase, TestModule } from 'vitest/node'
import type { CheckMeta, CheckReport } from './check-result.js'
import { requirementIdOfTitle } from './check-result.js'

export class CheckCollector implements Reporter {
  readonly reports: CheckReport[] = []
  readonly harnessErrors: string[] = []

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result()
    const report = (testCase.meta() as CheckMeta).petstore
    if (report) {
      this.reports.push(report)
    } else if (result.state !== 'skipped') {
      // A test that failed before its check fixture reported (e.g. a throwing fixture).
      const error = result.state === 'failed' ? result.errors[0] : undefined
      this.reports.push({
        requirementId: requirementIdOfTitle(testCase.name) ?? '',
        title: testCase.name,
        outcome: 'error',
        reason: `${testCase.name}: ${error?.message ?? 'no report'}`,
        observations: [],
        incidental: [],
        exchangeIds: [],
        assertions: 0,
      })
    }
  }

  onTestModuleEnd(testModule: TestModule): void {
    for (const error of testModule.errors()) this.harnessErrors.push(`${testModule.moduleId}: ${error.message}`)
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<SerializedError>): void {
    for (const error of unhandledErrors) this.harnessErrors.push(`unhandled: ${error.message}`)
  }
}
