/**
 * Node's module compile cache for the command's own threads: a run after the first reads V8's compiled code of the
 * suite from disk instead of compiling it again. Each thread turns it on for itself (a worker does not inherit the
 * main thread's), before it loads the suite. The cache lives in the package's own folder under the OS temporary
 * folder, or where NODE_COMPILE_CACHE says; NODE_DISABLE_COMPILE_CACHE turns it off. A cache that cannot be written (a
 * read-only temporary folder) only costs the speed-up.
 */
import * as nodeModule from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function enableCompileCache(): void {
  // The package's own folder of compiled code: Node keeps a subfolder per Node version and V8 flags inside it.
  nodeModule.enableCompileCache(process.env.NODE_COMPILE_CACHE || join(tmpdir(), 'petstore-conformance-compile-cache'))
}
