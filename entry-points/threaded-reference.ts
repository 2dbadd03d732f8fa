/**
 * Starts the embedded reference in a worker thread of its own (reference-thread.ts), as the run layer asks for it
 * (lib/run/suite.ts): its answers cost the run's thread nothing, and a full run against it uses both cores of a
 * two-core machine, as it would against a target on another machine.
 */
import { Worker } from 'node:worker_threads'
import type { ReferenceStart, RunningReference } from '../lib/run/suite.js'
import type { ReferenceThreadInput, ReferenceThreadMessage } from './reference-thread.js'

/**
 * The thread's young generation, in MiB, bounded as the command's own worker is (cli/command.ts): the reference keeps
 * little, and V8 would otherwise let its young generation grow to tens of MiB the run's peak memory would count.
 */
const YOUNG_GENERATION_MB = 8

export function startReferenceThread(start: ReferenceStart): Promise<RunningReference> {
  const input: ReferenceThreadInput = {
    apiKey: start.apiKey,
    pets: start.pets ?? 0,
    ...(start.host !== undefined ? { host: start.host } : {}),
    ...(start.port !== undefined ? { port: start.port } : {}),
    postAnswers: start.onAnswer !== undefined,
    keepRequests: start.keepRequests === true,
  }
  const worker = new Worker(new URL('./reference-thread.js', import.meta.url), {
    workerData: input,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  })
  const requests: Array<{ method: string; url: string }> = []
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()))
  return new Promise<RunningReference>((resolve, reject) => {
    worker.once('error', reject)
    worker.on('message', (message: ReferenceThreadMessage) => {
      if ('answer' in message) start.onAnswer?.(message.answer)
      else if ('failed' in message) reject(Object.assign(new Error(message.failed.message), message.failed.code ? { code: message.failed.code } : {}))
      else if ('closed' in message) requests.push(...message.closed)
      else if ('listening' in message)
        resolve({
          baseUrl: message.listening,
          requests,
          close: async () => {
            worker.postMessage('close')
            await exited
          },
        })
    })
    // A thread that ends before it listens (it failed, or crashed) has said why, or says it now.
    void exited.then(() => reject(new Error('the embedded reference stopped before it listened')))
  })
}
