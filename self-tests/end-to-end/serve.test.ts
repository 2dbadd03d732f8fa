/**
 * `petstore-conformance serve`: the reference on a port, as a newcomer starts it to try the suite and a client
 * developer to develop against. It says where it serves and with which key, logs each answer on a line, is judged
 * conformant by the suite, and stops cleanly on SIGTERM; a port in use is a set-up mistake (exit 2) that says so.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import { describe, expect, test } from 'vitest'
import { serveReference } from '../../entry-points/index.js'
import { commandPath } from '../../lib/spec/package-root.js'
import { runCli } from '../helpers/run-cli.js'
import { API_KEY } from '../helpers/targets.js'

/**
 * The built command `serve …` as a child process, with its output so far: both streams as they were read, and each on
 * its own (two pipes are read in no set order: a line on stderr may be read after a later one on stdout).
 */
function startServe(
  args: readonly string[],
  env: Record<string, string>,
): { child: ChildProcess; output: () => string; stdout: () => string; stderr: () => string; exited: Promise<number> } {
  const child = spawn(process.execPath, [commandPath, 'serve', ...args], { env: { PATH: process.env.PATH ?? '', ...env } })
  const read = { both: '', stdout: '', stderr: '' }
  child.stdout?.on('data', (chunk) => {
    read.both += chunk
    read.stdout += chunk
  })
  child.stderr?.on('data', (chunk) => {
    read.both += chunk
    read.stderr += chunk
  })
  // 'close', not 'exit': the exit may come before the last of the output is read (on a loaded machine it did).
  const exited = new Promise<number>((resolve) => child.once('close', (code) => resolve(code ?? -1)))
  return { child, output: () => read.both, stdout: () => read.stdout, stderr: () => read.stderr, exited }
}

/** Resolves with the output once `pattern` shows in it (or rejects when the process exits first). */
function waitFor(serve: ReturnType<typeof startServe>, pattern: RegExp): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const look = () => {
      const match = pattern.exec(serve.output())
      if (match) {
        serve.child.stdout?.off('data', look)
        resolve(match)
      }
    }
    serve.child.stdout?.on('data', look)
    void serve.exited.then(() => reject(new Error(`serve exited first: ${serve.output()}`)))
    look()
  })
}

describe('the reference on a port of its own', () => {
  test('serve says where it serves and with which key, is judged conformant, logs each answer, and stops on SIGTERM with exit 0', async () => {
    const serve = startServe(['--port', '0', '--pets', '25'], { PETSTORE_API_KEY: API_KEY })
    const [, baseUrl] = await waitFor(serve, /serving (http:\/\/127\.0\.0\.1:\d+\/v1) with 25 pets/)
    await waitFor(serve, /API key: the value of PETSTORE_API_KEY/)
    await waitFor(serve, new RegExp(`Try it: {2}npx petstore-conformance --base-url ${baseUrl} --profile full`))
    expect(serve.output()).not.toContain(API_KEY)
    const outcome = await runCli(['--base-url', baseUrl as string, '--profile', 'smoke', '--quiet'], { PETSTORE_API_KEY: API_KEY })
    expect(outcome.code, outcome.stdout).toBe(0)
    await waitFor(serve, /^GET \/v1\/pets\?limit=100 200 \d+\.\d ms$/m)
    // The key a request carries in its query (as the checks of the key in other places send it) is masked in the log too.
    expect((await fetch(`${baseUrl}/pets?api_key=${API_KEY}`)).status).toBe(401)
    await waitFor(serve, /^GET \/v1\/pets\?api_key=\S+ 401 \d+\.\d ms$/m)
    expect(serve.output()).not.toContain(API_KEY)
    serve.child.kill('SIGTERM')
    expect(await serve.exited).toBe(0)
    expect(serve.stderr()).toMatch(/SIGTERM: stopping the server\n$/)
    expect(serve.stdout()).toMatch(/\nStopped\.\n$/)
  })

  test('without PETSTORE_API_KEY it makes a key and prints it once', async () => {
    const serve = startServe(['--port', '0'], {})
    const [, key] = await waitFor(serve, /API key \(generated; set PETSTORE_API_KEY to choose one\): (\S+)/)
    const [, baseUrl] = /serving (\S+)/.exec(serve.output()) ?? []
    const answer = await fetch(`${baseUrl}/pets`, { headers: { authorization: `Bearer ${key}` } })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual([])
    serve.child.kill('SIGINT')
    expect(await serve.exited).toBe(0)
    expect(serve.output().split(key as string)).toHaveLength(2)
  })

  test('a port in use is a set-up mistake: exit 2, and it says which port and what to do', async () => {
    const taken = createServer()
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
    const { port } = taken.address() as { port: number }
    try {
      const serve = startServe(['--port', String(port)], {})
      expect(await serve.exited).toBe(2)
      expect(serve.output()).toContain(`Cannot serve on 127.0.0.1:${port}: the port is in use; choose another with --port`)
    } finally {
      taken.close()
    }
  })

  test('a flag it does not know, or a port out of range, is exit 2 with its usage', async () => {
    const unknown = startServe(['--base-url', 'http://x'], {})
    expect(await unknown.exited).toBe(2)
    expect(unknown.output()).toMatch(/Unknown option '--base-url'[\s\S]*Usage: petstore-conformance serve/)
    const range = startServe(['--port', '70000'], {})
    expect(await range.exited).toBe(2)
    expect(range.output()).toContain('--port 70000: expected a whole number from 0 to 65535')
  })

  test('serveReference() in the typed API serves the same reference until close()', async () => {
    const served = await serveReference({ port: 0, pets: 3, apiKey: API_KEY })
    try {
      expect(served.keyGenerated).toBe(false)
      const answer = await fetch(`${served.baseUrl}/pets?limit=2`, { headers: { authorization: `Bearer ${API_KEY}` } })
      expect(answer.status).toBe(200)
      expect(await answer.json()).toHaveLength(2)
      expect((await fetch(`${served.baseUrl}/pets`)).status).toBe(401)
    } finally {
      await served.close()
    }
  })
})
