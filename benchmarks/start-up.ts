/**
 * The command's start-up beside bare Node: the answers that need no target (--version, --help,
 * --list-requirements, a usage error) timed from spawn to exit, wall and CPU, median of several runs each.
 */
import { commandPath } from '../lib/spec/package-root.js'
import { median, runMeasured } from './child-process.js'

export interface StartupFigures {
  verb: string
  wallMs: number
  cpuMs: number
  /** Wall ms more than bare `node -e 0`. */
  overBareMs: number
}

const VERBS: Array<{ verb: string; args: string[] }> = [
  { verb: '--version', args: ['--version'] },
  { verb: '--help', args: ['--help'] },
  { verb: '--list-requirements', args: ['--list-requirements'] },
  { verb: 'a usage error (--no-such-flag)', args: ['--no-such-flag'] },
]

async function timed(args: readonly string[], runs: number): Promise<{ wallMs: number; cpuMs: number }> {
  const wall: number[] = []
  const cpu: number[] = []
  for (let run = 0; run < runs; run++) {
    const child = await runMeasured(args)
    wall.push(child.wallMs)
    cpu.push(child.cpu.totalCpuMs)
  }
  return { wallMs: median(wall), cpuMs: median(cpu) }
}

export async function measureStartup(runs = 7): Promise<{ bare: { wallMs: number; cpuMs: number }; verbs: StartupFigures[] }> {
  const command = commandPath
  const bare = await timed(['-e', '0'], runs)
  const verbs: StartupFigures[] = []
  for (const { verb, args } of VERBS) {
    const figures = await timed([command, ...args], runs)
    verbs.push({ verb, ...figures, overBareMs: figures.wallMs - bare.wallMs })
  }
  return { bare, verbs }
}
