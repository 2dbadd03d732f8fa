/** The resolve hook of module-trace.ts: each URL resolved is posted back to the main thread. */
import type { MessagePort } from 'node:worker_threads'

let port: MessagePort | undefined

export function initialize(data: { port: MessagePort }): void {
  port = data.port
}

export async function resolve(specifier: string, context: unknown, next: (specifier: string, context: unknown) => Promise<{ url: string }>): Promise<{ url: string }> {
  const resolved = await next(specifier, context)
  port?.postMessage(resolved.url)
  return resolved
}
