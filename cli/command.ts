/**
 * The petstore-conformance command (cli/main.ts loads it): the process's arguments, environment and streams; exit codes as the
 * policy fixes them. SIGINT or SIGTERM (Ctrl-C, `timeout`, a cancelled CI job) cancels the run: requests in
 * flight end, the reports are written with what was decided, exit 3. A second signal exits at once.
 * The suite (every check, the embedded reference) is loaded only when a run starts.
 */
import { runCommandWithFleet } from '../lib/fleet/fleet-command.js'
import { EXIT } from '../lib/run/command.js'

const cancel = new AbortController()
const serving = process.argv[2] === 'serve'
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (cancel.signal.aborted) {
      process.stderr.write(`\n${signal} again: exiting at once${serving ? '' : ', without reports'}\n`)
      process.exit(serving ? EXIT.conformant : EXIT.harness)
    }
    process.stderr.write(
      serving ? `\n${signal}: stopping the server\n` : `\n${signal}: cancelling the run; the reports will hold what was decided (a second signal exits at once)\n`,
    )
    cancel.abort(signal)
  })
}

process.exitCode = await runCommandWithFleet(
  async () => (await import('../entry-points/suite.js')).petstoreSuite,
  { argv: process.argv.slice(2), env: process.env, cwd: process.cwd() },
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    // On a terminal, progress rewrites one line; in a CI log it is printed as plain lines.
    ...(process.stderr.isTTY ? { status: (line: string) => process.stderr.write(`\r\x1b[2K${line}`) } : {}),
  },
  { cancel: cancel.signal },
)
