/**
 * Which modules a process loaded: a module hook, registered by `--import` of this file's built form, writes
 * the URL of every module resolved, one per line, to the file named by MODULE_TRACE_OUT. The self-tests of
 * start-up use it to prove the command loads only what a verb needs, without timing anything.
 */
import { appendFileSync } from 'node:fs'
import { register } from 'node:module'

const out = process.env.MODULE_TRACE_OUT
if (out) {
  const { port1, port2 } = new MessageChannel()
  port1.on('message', (url: string) => appendFileSync(out, `${url}\n`))
  port1.unref()
  register(new URL('./module-trace-hooks.js', import.meta.url), { data: { port: port2 }, transferList: [port2] })
}
