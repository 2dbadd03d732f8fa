#!/usr/bin/env node
/**
 * The bin of the package. It turns on Node's module compile cache (compile-cache.ts) before any other module of the
 * command is loaded. On a Node older than engines admits, it says so (exit 2, a set-up mistake) instead of failing on
 * the first API that Node lacks.
 */
import { enableCompileCache } from './compile-cache.js'

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(`petstore-conformance needs Node 22.19 or later (24 or 26 recommended); this is Node ${process.versions.node}\n`)
  process.exit(2)
}
// Whatever fails in the command's own thread is a harness error (exit 3, EXIT.harness in lib/judging/verdicts.ts): Node's
// own exit code for it, 1, is the one a pipeline reads as non-conformant.
process.on('uncaughtException', (error) => {
  process.stderr.write(`Harness error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
  process.exit(3)
})
enableCompileCache()
await import('./command.js')
