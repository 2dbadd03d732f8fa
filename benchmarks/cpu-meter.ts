/**
 * Preloaded (`node --import`) into a benchmarked child process: writes, at its exit, the CPU time it used
 * before its first HTTP request (its start-up), by its last answer, and in all, with the requests it sent, as
 * JSON to the file named by BENCH_CPU_OUT. It reads undici's diagnostics channels, so it measures the command
 * and the raw loop alike without a line in either.
 */
import { subscribe } from 'node:diagnostics_channel'
import { existsSync, writeFileSync } from 'node:fs'
import { isMainThread, parentPort } from 'node:worker_threads'

export interface CpuMeasure {
  requests: number
  /** CPU ms before the first request was created. */
  startupCpuMs: number
  /** CPU ms by the end of the last answer's body. */
  lastAnswerCpuMs: number
  /** CPU ms in all, at exit. */
  totalCpuMs: number
}

const out = process.env.BENCH_CPU_OUT
const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
let requests = 0
let startupCpuMs: number | undefined
let lastAnswerCpuMs = 0
subscribe('undici:request:create', () => {
  requests += 1
  startupCpuMs ??= cpuMs()
})
subscribe('undici:request:trailers', () => {
  lastAnswerCpuMs = cpuMs()
})
const write = () => {
  const totalCpuMs = cpuMs()
  const measure: CpuMeasure = { requests, startupCpuMs: startupCpuMs ?? totalCpuMs, lastAnswerCpuMs, totalCpuMs }
  if (out) writeFileSync(out, JSON.stringify(measure))
}
// The command runs in a worker thread (cli/command.ts), which is preloaded with this module too: its figures (process.cpuUsage
// counts every thread) are written when it tells the command its exit code, since the command then ends it without an exit
// event; the command's own thread, which sends nothing, writes only where no thread that sent requests did.
if (isMainThread) {
  process.on('exit', () => {
    if (requests > 0 || !out || !existsSync(out)) write()
  })
} else if (parentPort) {
  const port = parentPort
  const post = port.postMessage.bind(port)
  port.postMessage = (message: unknown, ...rest: unknown[]) => {
    if (requests > 0 && typeof message === 'object' && message !== null && 'exitCode' in message) write()
    return (post as (message: unknown, ...rest: unknown[]) => void)(message, ...rest)
  }
}
