/** The report of createPet/read-your-writes-lag: the lags the run's reads of created pets saw. */
import type { LagLog } from '../data/eventual-reads.js'
import type { CheckReport } from './check-result.js'

/**
 * What the run saw of lags, as the report of createPet/read-your-writes-lag; inconclusive when no created pet was
 * read (a read-only run creates none; a full run whose creates all failed has none to read).
 */
export function lagReport(log: LagLog, windowMs: number, readOnly: boolean): CheckReport {
  const { reads } = log
  const common = {
    requirementId: 'createPet/read-your-writes-lag',
    title: '[createPet/read-your-writes-lag] the lag of reads of created pets, over the whole run',
    incidental: [],
    exchangeIds: [],
    assertions: 0,
  }
  if (reads === 0) {
    const why = readOnly ? 'the smoke profile creates none' : 'no create was answered with a pet to read'
    return { ...common, outcome: 'inconclusive', reason: `no pet created by this run was read back (${why})`, observations: [] }
  }
  const longest = log.lags.reduce<(typeof log.lags)[number] | undefined>((max, lag) => (max === undefined || lag.ms > max.ms ? lag : max), undefined)
  const observations = [
    longest
      ? `longest lag: ${longest.ms} ms (${longest.what}, after ${longest.reads} reads); ${log.lags.length} of ${reads} reads of created pets had to wait (window ${windowMs} ms)`
      : log.missing.length === 0
        ? `every one of ${reads} reads of created pets found the pet at once (window ${windowMs} ms)`
        : `${reads - log.missing.length} of ${reads} reads of created pets found the pet at once, none after waiting (window ${windowMs} ms)`,
    ...(log.missing.length > 0 ? [`still missing when the window closed: ${log.missing.slice(0, 5).join('; ')}`] : []),
  ]
  return { ...common, outcome: 'pass', observations }
}
