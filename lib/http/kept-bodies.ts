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
import { bodyText } from './decoded-bodies.js'
import { detached, excerptOfHead } from './excerpt.js'
import type { RecordedResponse } from './traffic.js'

/** How much of a moved body stays in memory, for a report asking after the files are gone: more than any evidence quotes. */
const KEPT_AFTER_DISCARD = 8192

/** The start of each body moved out, and its length in characters: what excerpts of it need, in memory. */
const headsOfMoved = new WeakMap<RecordedResponse, { head: string; length: number }>()

/**
 * The first `chars` characters of an answer's body and the body's length, without reading back a body moved out of
 * memory when its start suffices: evidence and messages quote a few KiB of a body, and reading a megabyte back from
 * its file for each quote would cost a megabyte of memory and a read every time.
 */
export function headOfBody(response: RecordedResponse, chars: number): { head: string; length: number } {
  const moved = headsOfMoved.get(response)
  if (moved && chars <= moved.head.length) return { head: moved.head.slice(0, chars), length: moved.length }
  const { body } = response
  return { head: body.length > chars ? body.slice(0, chars) : body, length: body.length }
}

/** `excerpt(response.body, limit)`, from the body's start in memory when it was moved out. */
export function excerptOfBody(response: RecordedResponse, limit: number): string {
  const { head, length } = headOfBody(response, limit)
  return excerptOfHead(head, length)
}

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
  /**
   * The counted bodies in memory, oldest first, each text once with every answer that carries it: a target that
   * answers alike gives many answers one text (decoded-bodies.ts), which costs its memory once, and moves out once.
   */
  private readonly inMemory = new Map<string, RecordedResponse[]>()
  private inMemoryBytes = 0
  private folder: string | undefined
  private moved = 0
  private files = 0
  private discarded = false
  /** Set when a body could not be written (no space, no temporary folder): from then on every body stays in memory. */
  private cannotMove = false

  constructor(private readonly options: KeptBodiesOptions) {}

  /** Counts an answer's body (a text already counted, once); past the budget, the oldest counted texts are moved out, this one kept. */
  keep(response: RecordedResponse): void {
    if (this.discarded || this.cannotMove || response.bodyBytes < this.options.largeBytes) return
    const { body } = response
    const holders = this.inMemory.get(body)
    if (holders) {
      holders.push(response)
      return
    }
    this.inMemory.set(body, [response])
    this.inMemoryBytes += response.bodyBytes
    while (this.inMemoryBytes > this.options.budgetBytes && this.inMemory.size > 1) {
      const [oldest, answers] = this.inMemory.entries().next().value as [string, RecordedResponse[]]
      this.inMemory.delete(oldest)
      this.inMemoryBytes -= (answers[0] as RecordedResponse).bodyBytes
      this.moveOut(oldest, answers)
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

  /** Writes `body` to a file once, and every answer that carries it reads it back from there. */
  private moveOut(body: string, answers: readonly RecordedResponse[]): void {
    let file: string
    try {
      if (this.folder === undefined) {
        this.folder = mkdtempSync(join(this.options.parentFolder ?? tmpdir(), 'petstore-bodies-'))
        removeAtExit(this.folder)
      }
      file = join(this.folder, `${this.files + 1}.txt`)
      writeFileSync(file, body, 'utf8')
    } catch {
      // A run is never failed for want of a temporary file: the answers stay in memory, as they did before the bound.
      this.cannotMove = true
      this.inMemory.clear()
      return
    }
    this.files += 1
    const head = detached(body.slice(0, KEPT_AFTER_DISCARD))
    const start = `${head}… [${body.length - head.length} more characters]`
    for (const response of answers) {
      this.moved += 1
      headsOfMoved.set(response, { head, length: body.length })
      Object.defineProperty(response, 'body', {
        get: () => (this.discarded ? start : bodyText([readFileSync(file)])),
        enumerable: true,
        configurable: true,
      })
      this.options.forget(response)
    }
  }

  /** Removes the files; bodies moved out read as their start from now on. */
  discard(): void {
    this.discarded = true
    this.inMemory.clear()
    if (this.folder) removeFolder(this.folder)
  }
}
