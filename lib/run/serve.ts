/**
 * `petstore-conformance serve`: the embedded reference implementation on a port, to try the suite against and to
 * develop clients with, as other APIs' mock servers are used. It answers as the reference a run judges does (the
 * same handler), logs each answer on one line, and stops cleanly on Ctrl-C or SIGTERM. The key is PETSTORE_API_KEY,
 * or one generated and printed once. Also `serveReference()` in the typed API.
 */
import { randomBytes } from 'node:crypto'
import { parseArgs } from 'node:util'
import { createRedactor } from '../http/redaction.js'
import { escapeControlCharacters } from '../reports/control-characters.js'
import { commandInvocation } from '../settings/invocation.js'
import { EXIT } from './command.js'
import type { RunIo } from './run-session.js'
import type { ConformanceSuite, RunningReference } from './suite.js'

export interface ServeOptions {
  /** Port to listen on (default 8080; 0 lets the OS pick one). */
  port?: number
  /** Address to listen on (default 127.0.0.1: this machine only). */
  host?: string
  /** Pets the store holds at the start (default 0). */
  pets?: number
  /** The only key it accepts (default: one generated, returned as `apiKey`). */
  apiKey?: string
  /** Called once for each answer: method, request-target as sent, status, milliseconds. */
  onAnswer?: (answer: { method: string; url: string; status: number; durationMs: number }) => void
}

export interface ServedReference {
  /** The base URL to give the suite or a client: `http://127.0.0.1:8080/v1`. */
  baseUrl: string
  apiKey: string
  /** The key was generated (no apiKey given): say it to the user once. */
  keyGenerated: boolean
  close(): Promise<void>
}

export const SERVE_DEFAULT_PORT = 8080

/** Starts the reference of `suite` with `options`. */
export async function serveReference(suite: Pick<ConformanceSuite, 'startReference'>, options: ServeOptions = {}): Promise<ServedReference> {
  const apiKey = options.apiKey ?? randomBytes(18).toString('base64url')
  const running: RunningReference = await suite.startReference({
    apiKey,
    pets: options.pets ?? 0,
    host: options.host ?? '127.0.0.1',
    port: options.port ?? SERVE_DEFAULT_PORT,
    // Always given, so a long-running server keeps no record of its requests.
    onAnswer: options.onAnswer ?? (() => {}),
  })
  return { baseUrl: running.baseUrl, apiKey, keyGenerated: options.apiKey === undefined, close: () => running.close() }
}

const SERVE_USAGE = `Usage: petstore-conformance serve [--port 8080] [--host 127.0.0.1] [--pets N]

Serves the embedded reference implementation of the Pet Store v1 interface, as the suite judges it, until
Ctrl-C or SIGTERM. The key is PETSTORE_API_KEY, or one generated and printed once. Each answer is logged on a line.

  --port N   port to listen on (default ${SERVE_DEFAULT_PORT}; 0: one the OS picks)
  --host H   address to listen on (default 127.0.0.1; 0.0.0.0 serves other machines too)
  --pets N   pets the store holds at the start (default 0)`

/** A whole number within [min, max] from a flag's text, or the problem in words. */
function wholeNumber(text: string | undefined, flag: string, min: number, max: number): number | string | undefined {
  if (text === undefined) return undefined
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) return `--${flag} ${text}: expected a whole number from ${min} to ${max}`
  return Number(text)
}

/** The serve verb: arguments after `serve`, the environment for the key; exit 0 once stopped, 2 for a mistake in its set-up. */
export async function serveCommand(
  suiteSource: () => Promise<Pick<ConformanceSuite, 'startReference'>>,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: RunIo,
  stop: AbortSignal | undefined,
): Promise<number> {
  let values: { port?: string; host?: string; pets?: string; help?: boolean }
  try {
    values = parseArgs({
      args: [...argv],
      options: { port: { type: 'string' }, host: { type: 'string' }, pets: { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    io.err(`${error instanceof Error ? error.message : String(error)}\n\n${SERVE_USAGE}`)
    return EXIT.usage
  }
  if (values.help) {
    io.out(SERVE_USAGE)
    return EXIT.conformant
  }
  const port = wholeNumber(values.port, 'port', 0, 65_535)
  const pets = wholeNumber(values.pets, 'pets', 0, 100_000)
  const problems = [port, pets].filter((value): value is string => typeof value === 'string')
  if (problems.length > 0) {
    io.err(`${problems.join('\n')}\n\n${SERVE_USAGE}`)
    return EXIT.usage
  }
  const key = env.PETSTORE_API_KEY?.trim() || undefined
  // A key given by the environment is never printed, so neither is it where a request carries it in its target (a query's api_key).
  const redact = key ? createRedactor(key) : (text: string) => text
  let served: ServedReference
  try {
    served = await serveReference(await suiteSource(), {
      ...(typeof port === 'number' ? { port } : {}),
      ...(values.host ? { host: values.host } : {}),
      ...(typeof pets === 'number' ? { pets } : {}),
      ...(key ? { apiKey: key } : {}),
      onAnswer: ({ method, url, status, durationMs }) => io.out(`${method} ${escapeControlCharacters(redact(url))} ${status} ${durationMs.toFixed(1)} ms`),
    })
  } catch (error) {
    const code = (error as { code?: string }).code
    const where = `${values.host ?? '127.0.0.1'}:${typeof port === 'number' ? port : SERVE_DEFAULT_PORT}`
    io.err(
      code === 'EADDRINUSE'
        ? `Cannot serve on ${where}: the port is in use; choose another with --port (0 lets the OS pick one)`
        : code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
          ? `Cannot serve on ${where}: no such address on this machine; check --host`
          : `Cannot serve on ${where}: ${error instanceof Error ? error.message : String(error)}`,
    )
    return EXIT.usage
  }
  io.out(`Pet Store v1 reference serving ${served.baseUrl}${typeof pets === 'number' && pets > 0 ? ` with ${pets} pets` : ''}`)
  io.out(served.keyGenerated ? `API key (generated; set PETSTORE_API_KEY to choose one): ${served.apiKey}` : 'API key: the value of PETSTORE_API_KEY')
  io.out(`Try it:  ${commandInvocation(env).prefix} --base-url ${served.baseUrl} --profile full   (with that key in PETSTORE_API_KEY)`)
  io.out('Stop it with Ctrl-C.')
  await new Promise<void>((resolve) => {
    if (!stop || stop.aborted) return resolve()
    stop.addEventListener('abort', () => resolve(), { once: true })
  })
  await served.close()
  io.out('Stopped.')
  return EXIT.conformant
}
