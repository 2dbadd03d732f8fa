/**
 * A bound on the memory the answers of a run keep (policy §5: peak memory under 300 MiB whatever the target
 * sends). Checks keep the exchanges they judge until they end, shared answers and generated cases until the run
 * ends, all for evidence and for the checks that judge them later; a target that answers every request with a
 * body near the size cap would otherwise have a few hundred of them in memory at once.
 *
 * Bodies of `largeBytes` or more are counted; once they add up to more than `budgetBytes`, the oldest are moved
 * to a temporary file, and the answer's `body` reads it back when asked (exactly: the text is written and read
 * as UTF-8, which it was decoded from). What was worked out from the text (its parsed value) is dropped with
 * it, to be worked out again if asked. The files go when the run's client closes; a body asked for after that
 * (a report) is the start of the text that the evidence quotes anyway. A process that ends before its clients
 * close (an uncaught error, process.exit) removes them as it exits; only a process killed outright (SIGKILL)
 * leaves its folder behind.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { excerpt } from './excerpt.js'
import type { RecordedResponse } from './traffic.js'

/** How much of a moved body stays in memory, for a report asking after the files are gone: more than any evidence quotes. */
const KEPT_AFTER_DISCARD = 8192

/** The folders of moved bodies not removed yet: removed when the process exits, however it exits (but a SIGKILL). */
const foldersToRemove = new Set<string>()

function removeFolder(folder: string): void {
  foldersToRemove.delete(folder)
  rmSync(folder, { recursive: true, force: true })
}

let removingAtExit = false

function removeAtExit(folder: string): void {
  // One listener for the process, however many clients move bodies out (a fleet runs many).
  if (!removingAtExit) {
    removingAtExit = true
    process.once('exit', () => [...foldersToRemove].forEach(removeFolder))
  }
  foldersToRemove.add(folder)
}

export interface KeptBodiesOptions {
  /** Bodies this large and over are counted against the budget (decoded bytes). */
  largeBytes: number
  /** The most the counted bodies keep in memory together. */
  budgetBytes: number
  /** Called for an answer whose body was moved out: drop what was worked out from its text. */
  forget: (response: RecordedResponse) => void
  /** Where the temporary folder is made (default: the system's temporary folder). */
  parentFolder?: string
}

export class KeptBodies {
  private readonly inMemory: RecordedResponse[] = []
  private inMemoryBytes = 0
  private folder: string | undefined
  private moved = 0
  private discarded = false
  /** Set when a body could not be written (no space, no temporary folder): from then on every body stays in memory. */
  private cannotMove = false

  constructor(private readonly options: KeptBodiesOptions) {}

  /** Counts an answer's body; past the budget, the oldest counted bodies are moved out, this one kept. */
  keep(response: RecordedResponse): void {
    if (this.discarded || this.cannotMove || response.bodyBytes < this.options.largeBytes) return
    this.inMemory.push(response)
    this.inMemoryBytes += response.bodyBytes
    while (this.inMemoryBytes > this.options.budgetBytes && this.inMemory.length > 1) {
      const oldest = this.inMemory.shift() as RecordedResponse
      this.inMemoryBytes -= oldest.bodyBytes
      this.moveOut(oldest)
    }
  }

  /** How many bodies were moved out so far. */
  get movedOut(): number {
    return this.moved
  }

  /** The folder of the moved-out bodies, once one was moved. */
  get folderOfMoved(): string | undefined {
    return this.folder
  }

  private moveOut(response: RecordedResponse): void {
    const { body } = response
    let file: string
    try {
      if (this.folder === undefined) {
        this.folder = mkdtempSync(join(this.options.parentFolder ?? tmpdir(), 'petstore-bodies-'))
        removeAtExit(this.folder)
      }
      file = join(this.folder, `${this.moved + 1}.txt`)
      writeFileSync(file, body, 'utf8')
    } catch {
      // A run is never failed for want of a temporary file: the answers stay in memory, as they did before the bound.
      this.cannotMove = true
      this.inMemory.length = 0
      return
    }
    this.moved += 1
    const start = excerpt(body, KEPT_AFTER_DISCARD)
    Object.defineProperty(response, 'body', {
      get: () => (this.discarded ? start : readFileSync(file, 'utf8')),
      enumerable: true,
      configurable: true,
    })
    this.options.forget(response)
  }

  /** Removes the files; bodies moved out read as their start from now on. */
  discard(): void {
    this.discarded = true
    this.inMemory.length = 0
    if (this.folder) removeFolder(this.folder)
  }
}
