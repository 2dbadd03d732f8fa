/** The CI examples are ready to copy: valid workflows that read only what the suite writes, and a nightly baseline that is never the run in progress. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parseDocument } from 'yaml'
import { REPORT_FILES } from '../lib/reports/write-reports.js'
import { packageRoot } from '../lib/spec/package-root.js'

interface Step {
  name?: string
  uses?: string
  run?: string
  env?: Record<string, string>
  with?: Record<string, string>
}
interface Workflow {
  name?: string
  on?: unknown
  jobs?: Record<string, { steps?: Step[] }>
}

const folder = join(packageRoot, 'ci-examples')
const examples = readdirSync(folder)
  .filter((name) => name.endsWith('.yml'))
  .map((name) => {
    const document = parseDocument(readFileSync(join(folder, name), 'utf8'), { prettyErrors: true })
    return { name, errors: document.errors.map((error) => error.message), workflow: document.toJS() as Workflow }
  })

const steps = (workflow: Workflow) => Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps ?? [])

/** Files a step reads or hands on: names with a report-like extension in its script and its inputs. */
function filesNamed(step: Step): string[] {
  const text = [step.run ?? '', ...Object.values(step.with ?? {}).map(String)].join('\n')
  return [...text.matchAll(/([\w.-]+\.(?:json|md|xml|html))\b/g)].map((match) => match[1] as string)
}

describe('the CI examples', () => {
  test('there are two, and each is a valid workflow: triggers, jobs, and steps that run or use something', () => {
    expect(examples.map((example) => example.name).sort()).toEqual(['nightly-smoke.yml', 'release-gate.yml'])
    for (const { name, errors, workflow } of examples) {
      expect(errors, name).toEqual([])
      expect(workflow.on, name).toBeDefined()
      expect(steps(workflow).length, name).toBeGreaterThanOrEqual(2)
      for (const step of steps(workflow)) expect(Boolean(step.run) !== Boolean(step.uses), `${name}: ${step.name ?? JSON.stringify(step)}`).toBe(true)
    }
  })

  test('each runs the suite through its GitHub Action, with inputs action.yml declares', () => {
    const action = parseDocument(readFileSync(join(packageRoot, 'action.yml'), 'utf8')).toJS() as { inputs: Record<string, { required?: boolean }>; runs: { using: string } }
    expect(action.runs.using).toBe('composite')
    for (const { name, workflow } of examples) {
      const suite = steps(workflow).find((step) => /\/petstore-conformance@/.test(step.uses ?? ''))
      expect(suite, name).toBeDefined()
      expect(
        Object.keys(suite?.with ?? {}).filter((input) => !(input in action.inputs)),
        name,
      ).toEqual([])
      const required = Object.entries(action.inputs)
        .filter(([, input]) => input.required)
        .map(([input]) => input)
      expect(
        required.filter((input) => !(input in (suite?.with ?? {}))),
        name,
      ).toEqual([])
    }
  })

  test('every file a step reads is one the suite writes, from the report directory the run was given', () => {
    for (const { name, workflow } of examples) {
      const suite = steps(workflow).find((step) => /\/petstore-conformance@/.test(step.uses ?? ''))
      const reportDir = suite?.with?.['report-dir']
      expect(reportDir, name).toBeTruthy()
      // The action uploads the report directory itself, under the name given.
      expect(suite?.with?.['artifact-name'], name).toBeTruthy()
      const read = steps(workflow).flatMap(filesNamed)
      expect(
        read.filter((file) => !(REPORT_FILES as readonly string[]).includes(file)),
        name,
      ).toEqual([])
      for (const step of steps(workflow)) {
        for (const match of (step.run ?? '').matchAll(/([\w-]+)\/(?:results\.json|summary\.md|junit\.xml|report\.html)/g)) {
          expect([reportDir, 'baseline'], `${name}: ${step.run}`).toContain(match[1])
        }
      }
    }
  })

  test("the project's own nightly soak runs the whole variant score at 50 seeds or more and fails on any problem", () => {
    const soak = parseDocument(readFileSync(join(packageRoot, '.github/workflows/nightly-soak.yml'), 'utf8'), { prettyErrors: true })
    expect(soak.errors).toEqual([])
    const workflow = soak.toJS() as Workflow & { on: { schedule?: unknown[] } }
    expect(workflow.on.schedule?.length).toBeGreaterThan(0)
    const run = steps(workflow).map((step) => step.run ?? '')
    expect(run).toContain('npm ci')
    const seeds = Number(/npm run soak -- --seeds (\d+)/.exec(run.join('\n'))?.[1])
    expect(seeds).toBeGreaterThanOrEqual(50)
  })

  test('every workflow sets up a Node line that engines admits, and the package is tested on each of them', () => {
    const engines: string = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')).engines.node
    // The maintained lines, each as engines admits it: its first admitted release and nothing older.
    const lines = [...engines.matchAll(/(?:\^|>=)(\d+)\.(\d+)\.\d+/g)].map((match) => Number(match[1]))
    expect(lines).toEqual([22, 24, 26])
    const workflows = [
      ...examples.map(({ name, workflow }) => ({ name, workflow })),
      ...['nightly-soak.yml', 'test.yml'].map((name) => ({
        name,
        workflow: parseDocument(readFileSync(join(packageRoot, '.github/workflows', name), 'utf8')).toJS() as Workflow,
      })),
    ]
    for (const { name, workflow } of workflows) {
      const versions = steps(workflow)
        .filter((step) => step.uses?.startsWith('actions/setup-node'))
        .map((step) => step.with?.['node-version'])
      expect(versions.length, name).toBeGreaterThan(0)
      for (const version of versions) if (!String(version).includes('matrix')) expect(lines, `${name}: node-version ${version}`).toContain(Number(version))
    }
    const own = workflows.find(({ name }) => name === 'test.yml')?.workflow as Workflow & { jobs: Record<string, { strategy?: { matrix?: { node?: number[] } } }> }
    expect(own.jobs.package?.strategy?.matrix?.node).toEqual(lines)
    // The package job runs the tarball outside the checkout, where the runner's Node of the matrix is the one on PATH.
    const packaged = (own.jobs.package as { steps: Step[] }).steps.map((step) => step.run ?? '').join('\n')
    expect(packaged).toMatch(/npm pack[\s\S]*npm install [^\n]*\.tgz[\s\S]*npx petstore-conformance --embedded-reference/)
  })

  test('the nightly baseline is the last completed, successful night, never the run in progress', () => {
    const nightly = examples.find((example) => example.name === 'nightly-smoke.yml')?.workflow as Workflow
    const download = steps(nightly).find((step) => step.uses?.startsWith('dawidd6/action-download-artifact'))
    expect(download?.with?.workflow_conclusion).toBe('success')
    const suite = steps(nightly).find((step) => /\/petstore-conformance@/.test(step.uses ?? ''))
    expect(suite?.with?.['artifact-name']).toBe(download?.with?.name)
  })
})
