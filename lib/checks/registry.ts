/**
 * How suites/ declare checks: `describe`, `test` and `test.for`, shaped like vitest's so a check reads
 * like a test, but registered as data. The command's runner executes them against a target, and the
 * self-tests read the same list to hold every title to the catalogue.
 */
import type { Check } from './check.js'

export interface CheckContext {
  check: Check
}

export interface CheckDefinition {
  /** `[area/slug] what this check tries`, rows already filled in. */
  title: string
  /** The describe blocks around it, outermost first. */
  group: string
  run: (check: Check) => Promise<void>
  /** Runs before every other check starts (CheckOptions.first). */
  first?: true
  /** Requirements its findings are charged to beside its title's (CheckOptions.judges). */
  judges?: readonly string[]
}

export interface CheckOptions {
  /**
   * The check runs before every other check starts: its creates and its reads meet the store as the seeding left it,
   * before the run's other creates fill the lists it reads (a list shows at most 100 pets, and their order is never
   * assumed). For a check whose evidence the lists hold only while they have room.
   */
  first?: boolean
  /**
   * Requirements the check's findings are charged to beside the one its title names (the neighbourhood's rules): a
   * filtered run that leaves the check out says that its passes of them are partial.
   */
  judges?: readonly string[]
}

const definitions: CheckDefinition[] = []
const groups: string[] = []

export function describe(name: string, body: () => void): void {
  groups.push(name)
  try {
    body()
  } finally {
    groups.pop()
  }
}

/**
 * A title with one row filled in, the way vitest's `test.for` does: `%s` the row as text, `%i` as an
 * integer, `$name` a field of an object row.
 */
export function fillTitle(title: string, row: unknown): string {
  return title
    .replace(/%[si]/g, (placeholder) => (placeholder === '%i' ? String(Math.trunc(Number(row))) : String(row)))
    .replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, (whole, field: string) =>
      row !== null && typeof row === 'object' && field in row ? String((row as Record<string, unknown>)[field]) : whole,
    )
}

function register(title: string, run: (check: Check) => Promise<void>, options: CheckOptions = {}): void {
  definitions.push({ title, group: groups.join(' › '), run, ...(options.first ? { first: true as const } : {}), ...(options.judges ? { judges: options.judges } : {}) })
}

type CheckBody = (context: CheckContext) => Promise<void>
type RowCheckBody<T> = (row: T, context: CheckContext) => Promise<void>

/** One check: `test('[area/slug] what it tries', async ({ check }) => { … })`, options before the body as vitest takes them. */
export const test = Object.assign(
  (title: string, ...rest: [CheckBody] | [CheckOptions, CheckBody]): void => {
    const [options, body] = rest.length === 1 ? [{}, rest[0]] : rest
    register(title, (check) => body({ check }), options)
  },
  {
    /** One check per row: `test.for(rows)('[area/slug] … %s …', async (row, { check }) => { … })`, options before the body. */
    for:
      <T>(rows: readonly T[]) =>
      (title: string, ...rest: [RowCheckBody<T>] | [CheckOptions, RowCheckBody<T>]): void => {
        const [options, body] = rest.length === 1 ? [{}, rest[0]] : rest
        for (const row of rows) register(fillTitle(title, row), (check) => body(row, { check }), options)
      },
  },
)

/** Every check registered so far, in the order the suites declared them. */
export function registeredChecks(): readonly CheckDefinition[] {
  return definitions
}
