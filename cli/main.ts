#!/usr/bin/env node
/** The petstore-conformance command: the process's arguments, environment and streams; exit codes as the policy fixes them. */
import { runCommand } from '../lib/run/command.js'

process.exitCode = await runCommand(
  { argv: process.argv.slice(2), env: process.env, cwd: process.cwd() },
  {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    // On a terminal, progress rewrites one line; in a CI log it is printed as plain lines.
    ...(process.stderr.isTTY ? { status: (line: string) => process.stderr.write(`\r\x1b[2K${line}`) } : {}),
  },
)
