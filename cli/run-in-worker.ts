/**
 * The command's work, in a worker thread of the command's process (cli/command.ts starts it): one run, a fleet, a
 * merge or `serve`, with its lines handed to the process's streams and its cancel taken from the process's signals.
 * The worker's young generation is bounded (cli/command.ts), so the run's memory follows what it keeps.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { enableCompileCache } from './compile-cache.js'

// Before the suite is loaded: the worker does not inherit the compile cache the command's own thread turned on.
enableCompileCache()
const { runCommandWithFleet } = await import('../lib/fleet/fleet-command.js')

export interface WorkerInput {
  argv: string[]
  cwd: string
  /** Progress rewrites one line on a terminal; in a CI log it is printed as plain lines. */
  statusLine: boolean
}

/** What the worker tells the command: a line for a stream, or its exit code once everything is written. */
export type WorkerMessage = { out: string } | { err: string } | { status: string } | { exitCode: number }

const port = parentPort
if (!port) throw new Error('run-in-worker.js runs in a worker thread of the command')
const { argv, cwd, statusLine } = workerData as WorkerInput
const cancel = new AbortController()
port.on('message', (message: { cancel?: string }) => {
  if (message.cancel) cancel.abort(message.cancel)
})
const post = (message: WorkerMessage) => port.postMessage(message)
const exitCode = await runCommandWithFleet(
  async () => (await import('../entry-points/suite.js')).petstoreSuite,
  { argv, env: process.env, cwd },
  { out: (line) => post({ out: line }), err: (line) => post({ err: line }), ...(statusLine ? { status: (line: string) => post({ status: line }) } : {}) },
  { cancel: cancel.signal },
)
post({ exitCode })
