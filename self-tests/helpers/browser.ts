/**
 * A real Chromium for the report's browser test, with nothing to download: CHROMIUM_PATH when set, else
 * the binary that the @sparticuz/chromium dev dependency ships inside its npm package (inflated once into
 * the temporary folder), else a system Chromium at /usr/bin/chromium. The test never skips: no browser is
 * a failure that says where it looked.
 */
import { existsSync } from 'node:fs'
import packagedChromium from '@sparticuz/chromium'
import { type Browser, chromium } from 'playwright-core'

const SYSTEM_CHROMIUM = '/usr/bin/chromium'

/** Flags that keep a headless Chromium quiet on a machine with no network, as root. */
const QUIET = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

/** The packaged binary's own flags, less those that would weaken what the test checks (the page's isolation from the network). */
const WEAKENING = new Set(['--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials'])

interface Executable {
  path: string
  args: string[]
  source: string
}

async function findChromium(env: NodeJS.ProcessEnv): Promise<Executable> {
  if (env.CHROMIUM_PATH) return { path: env.CHROMIUM_PATH, args: QUIET, source: 'CHROMIUM_PATH' }
  const problems: string[] = []
  try {
    const path = await packagedChromium.executablePath()
    return { path, args: [...packagedChromium.args.filter((flag) => !WEAKENING.has(flag)), ...QUIET], source: '@sparticuz/chromium' }
  } catch (error) {
    problems.push(`@sparticuz/chromium: ${error instanceof Error ? error.message : String(error)}`)
  }
  if (existsSync(SYSTEM_CHROMIUM)) return { path: SYSTEM_CHROMIUM, args: QUIET, source: SYSTEM_CHROMIUM }
  throw new Error(`no Chromium: CHROMIUM_PATH is not set, ${problems.join('; ')}, and there is none at ${SYSTEM_CHROMIUM}`)
}

export async function launchChromium(): Promise<Browser> {
  const executable = await findChromium(process.env)
  try {
    return await chromium.launch({ executablePath: executable.path, args: executable.args })
  } catch (error) {
    throw new Error(`Chromium from ${executable.source} (${executable.path}) did not start: ${error instanceof Error ? error.message : String(error)}`)
  }
}
