/**
 * The petstore-conformance command (cli/main.ts loads it): the process's arguments, environment and streams; exit codes as the
 * policy fixes them. SIGINT or SIGTERM (Ctrl-C, `timeout`, a cancelled CI job) cancels the run: requests in
 * flight end, the reports are written with what was decided, exit 3. A second signal exits at once.
 *
 * The work runs in a worker thread (cli/run-in-worker.ts) whose young generation is bounded to 8 MiB: V8 otherwise
 * grows it to well over 100 MiB on a machine with memory to spare while a run keeps under 50 MiB of live objects,
 * and a full run against the reference peaked at 270 MiB (policy §5). A bound on the worker is an option of the
 * command's own thread, not a flag of a process the suite is a guest in: the typed API and the vitest entry run in
 * their host's thread as the host set it up.
 */
import { Worker } from 'node:worker_threads'
import { EXIT } from '../lib/run/command.js'
import { withSourcePositions } from '../lib/spec/stack-sources.js'
import type { WorkerInput, WorkerMessage } from './run-in-worker.js'

/** The worker's young generation, in MiB: measured against the reference at the defaults, 8 MiB held the run's peak near 185 MiB for about 5 % more CPU. */
const YOUNG_GENERATION_MB = 8

const serving = process.argv[2] === 'serve'
const input: WorkerInput = { argv: process.argv.slice(2), cwd: process.cwd(), statusLine: process.stderr.isTTY === true }
const worker = new Worker(new URL('./run-in-worker.js', import.meta.url), { workerData: input, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } })

let cancelled = false
/** Set once the worker has exited: what it had to write is written, and the exit code it chose stands. */
let workDone = false
// Node's signal handles do not hold the process open, so these stay for the whole process: a second signal that
// comes after the work is over (something the host preloaded may keep the process alive) still exits at once, with
// the code the run chose, not by the signal's default action.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (workDone) {
      if (cancelled) process.stderr.write(`\n${signal} again: exiting at once\n`)
      process.exit()
    }
    if (cancelled) {
      process.stderr.write(`\n${signal} again: exiting at once${serving ? '' : ', without reports'}\n`)
      process.exit(serving ? EXIT.conformant : EXIT.harness)
    }
    cancelled = true
    process.stderr.write(
      serving ? `\n${signal}: stopping the server\n` : `\n${signal}: cancelling the run; the reports will hold what was decided (a second signal exits at once)\n`,
    )
    worker.postMessage({ cancel: signal })
  })
}

worker.on('message', (message: WorkerMessage) => {
  if ('out' in message) process.stdout.write(`${message.out}\n`)
  else if ('err' in message) process.stderr.write(`${message.err}\n`)
  else if ('status' in message) process.stderr.write(`\r\x1b[2K${message.status}`)
  else {
    // Everything the run had to write is written: whatever it left open (a timer, a socket) does not hold the command.
    process.exitCode = message.exitCode
    void worker.terminate()
  }
})
worker.on('error', (error) => {
  process.stderr.write(`Harness error: ${withSourcePositions(error.stack ?? error.message)}\n`)
  process.exitCode = EXIT.harness
})
worker.on('exit', () => {
  if (process.exitCode === undefined) process.exitCode = EXIT.harness
  workDone = true
})
