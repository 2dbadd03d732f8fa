/**
 * The embedded reference in a worker thread of its own (threaded-reference.ts starts it): a run against it then
 * judges on one core while the reference answers on another, as it would against any target, and the run's thread
 * spends nothing on the reference's answers.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { createReferenceHandler } from '../reference/handler.js'
import { PetStore, populatedStore } from '../reference/pet-store.js'
import { type RunningServer, startServer } from '../reference/server.js'

/** What the thread is started with: the reference's start, less the callback (answers are posted instead). */
export interface ReferenceThreadInput {
  apiKey: string
  pets: number
  host?: string
  port?: number
  /** Post every answer (the serve verb logs them). */
  postAnswers: boolean
  /** Keep every request's method and URL, posted when it closes (the dry run counts them). */
  keepRequests: boolean
}

/** What the thread posts: where it listens (or why it cannot), each answer when asked, and the requests it kept once closed. */
export type ReferenceThreadMessage =
  | { listening: string }
  | { failed: { message: string; code?: string } }
  | { answer: { method: string; url: string; status: number; durationMs: number } }
  | { closed: Array<{ method: string; url: string }> }

const port = parentPort
if (!port) throw new Error('reference-thread.js runs in a worker thread')
const input = workerData as ReferenceThreadInput
const post = (message: ReferenceThreadMessage) => port.postMessage(message)

let server: RunningServer | undefined
try {
  const handler = createReferenceHandler({ apiKey: input.apiKey, store: input.pets > 0 ? populatedStore(input.pets) : new PetStore() })
  server = await startServer(handler, input.host, undefined, {
    ...(input.port !== undefined ? { port: input.port } : {}),
    keepRequests: input.keepRequests,
    ...(input.postAnswers ? { onAnswer: (answer) => post({ answer }) } : {}),
  })
  post({ listening: server.baseUrl })
} catch (error) {
  const code = (error as { code?: unknown }).code
  post({ failed: { message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) } })
  // Nothing else holds the thread: it ends once the message is on its way.
  port.close()
}
if (server) {
  const running = server
  port.once('message', async () => {
    await running.close()
    post({ closed: running.requests.map(({ method, url }) => ({ method, url })) })
    port.close()
  })
}
