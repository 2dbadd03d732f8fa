#!/usr/bin/env node
/**
 * The warm side of the paired benchmark: in one process, the suite's full run repeated through the typed API
 * (as a fleet, the soak or a vendor's vitest project runs it, reports written as the command writes them), or
 * the raw loop's requests replayed, each pass's CPU and requests printed as JSON lines. A first pass pays for
 * compiling and optimising the code it runs; the later ones show what a request costs once that is paid.
 * Usage: warm-runs.js suite <base URL> <passes> <concurrency>   (the key in PETSTORE_API_KEY)
 *        warm-runs.js raw <requests.json> <base URL> <passes> <concurrency>
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runConformance } from '../entry-points/index.js'
import { type RecordedRequestLine, replay } from './raw-loop.js'

export interface WarmPass {
  cpuMs: number
  requests: number
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}

async function measured(pass: () => Promise<number>): Promise<WarmPass> {
  const before = cpuMs()
  const requests = await pass()
  return { cpuMs: cpuMs() - before, requests }
}

async function main(): Promise<void> {
  const [side, ...args] = process.argv.slice(2)
  if (side === 'suite') {
    const [baseUrl, passes, concurrency] = args
    const folder = mkdtempSync(join(tmpdir(), 'petstore-warm-'))
    try {
      for (let pass = 0; pass < Number(passes); pass++) {
        const figures = await measured(async () => {
          const result = await runConformance({
            baseUrl,
            profile: 'full',
            seed: 7,
            concurrency: Number(concurrency),
            writeReports: true,
            reportDir: join(folder, `pass-${pass}`),
            env: { PETSTORE_API_KEY: process.env.PETSTORE_API_KEY },
          })
          if (result.exitCode !== 0) throw new Error(`a warm pass against the reference ended with exit ${result.exitCode}`)
          return result.requestsSent
        })
        process.stdout.write(`${JSON.stringify(figures)}\n`)
      }
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
    return
  }
  if (side === 'raw') {
    const [listFile, baseUrl, passes, concurrency] = args
    const lines: RecordedRequestLine[] = JSON.parse(readFileSync(listFile as string, 'utf8'))
    for (let pass = 0; pass < Number(passes); pass++) {
      const figures = await measured(async () => {
        await replay(lines, baseUrl as string, Number(concurrency))
        return lines.length
      })
      process.stdout.write(`${JSON.stringify(figures)}\n`)
    }
    return
  }
  throw new Error('usage: warm-runs.js suite <base URL> <passes> <concurrency> | raw <requests.json> <base URL> <passes> <concurrency>')
}

await main()
