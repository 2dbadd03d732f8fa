/**
 * "The run at a glance" in report.html: per operation, latency p50 / p95 / max and attempts by status class;
 * and the run as a timeline drawn in inline SVG by the report itself (no script, no font, nothing fetched).
 * Requests in flight are a stepped line; 429s, timeouts and retries are rows of their own, each with its own
 * shape (triangle, cross, circle) and its name written beside it, so the chart reads without colour.
 */
import { escapeHtml } from './escape-html.js'
import { STATUS_CLASSES, type TrafficSummary } from './traffic-summary.js'

export const TRAFFIC_STYLE = `
#at-a-glance svg { max-width: 100%; height: auto; font: 11px system-ui, sans-serif; } #at-a-glance td, #at-a-glance th { text-align: right; }
#at-a-glance td:first-child, #at-a-glance th:first-child { text-align: left; font-family: ui-monospace, monospace; } #at-a-glance table { width: auto; }`

const WIDTH = 760
const LEFT = 78
const RIGHT = 12
const PLOT = WIDTH - LEFT - RIGHT
/** The in-flight chart, then one row each for 429s, timeouts and retries, then the time axis. */
const CHART_TOP = 10
const CHART_HEIGHT = 90
const ROW_HEIGHT = 18
const MARK_ROWS = [
  { key: 'tooManyRequests', label: '429s', shape: 'triangle' },
  { key: 'timeouts', label: 'timeouts', shape: 'cross' },
  { key: 'retried', label: 'retries', shape: 'circle' },
] as const

function operationsTable(traffic: TrafficSummary): string {
  const rows = traffic.operations.map((operation) => {
    const latency = operation.latencyMs
    const cells = [operation.requests, latency?.p50 ?? '–', latency?.p95 ?? '–', latency?.max ?? '–', ...STATUS_CLASSES.map((name) => operation.byStatusClass[name])]
    return `<tr><td>${escapeHtml(operation.operation)}</td>${cells.map((cell) => `<td>${cell}</td>`).join('')}</tr>`
  })
  return `<table id="latency">
<thead><tr><th>Operation</th><th>Requests</th><th>p50 ms</th><th>p95 ms</th><th>max ms</th>${STATUS_CLASSES.map((name) => `<th>${name}</th>`).join('')}</tr></thead>
<tbody>${rows.join('\n')}</tbody>
</table>`
}

function mark(shape: (typeof MARK_ROWS)[number]['shape'], x: number, y: number): string {
  switch (shape) {
    case 'triangle':
      return `<path d="M${x} ${y - 5}L${x + 5} ${y + 4}L${x - 5} ${y + 4}Z" fill="currentColor"/>`
    case 'cross':
      return `<path d="M${x - 4} ${y - 4}L${x + 4} ${y + 4}M${x + 4} ${y - 4}L${x - 4} ${y + 4}" stroke="currentColor" stroke-width="2"/>`
    default:
      return `<circle cx="${x}" cy="${y}" r="4" fill="none" stroke="currentColor" stroke-width="1.5"/>`
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`
}

/** Where the time axis is marked: its start, each quarter and its end. */
const TICKS = [0, 0.25, 0.5, 0.75, 1]

/** The time axis's labels for a run of `totalMs`, with the fewest decimals that keep any two from reading alike. */
export function tickLabels(totalMs: number): string[] {
  const at = (decimals: number) => TICKS.map((tick) => `${((tick * totalMs) / 1000).toFixed(decimals)} s`)
  let decimals = 0
  while (decimals < 6 && new Set(at(decimals)).size < TICKS.length) decimals += 1
  return at(decimals)
}

function timelineSvg(traffic: TrafficSummary): string {
  const { slices, sliceMs } = traffic.timeline
  const count = Math.max(1, slices.length)
  const totalMs = count * sliceMs
  const most = Math.max(1, ...slices.map((slice) => slice.inFlight))
  const x = (index: number) => LEFT + (index / count) * PLOT
  const y = (inFlight: number) => CHART_TOP + CHART_HEIGHT - (inFlight / most) * CHART_HEIGHT
  const steps = slices.map((slice, index) => `L${x(index).toFixed(1)} ${y(slice.inFlight).toFixed(1)}L${x(index + 1).toFixed(1)} ${y(slice.inFlight).toFixed(1)}`).join('')
  const base = CHART_TOP + CHART_HEIGHT
  const rowsTop = base + 8
  const axisY = rowsTop + MARK_ROWS.length * ROW_HEIGHT + 4
  const height = axisY + 20
  const rows = MARK_ROWS.map((row, rowIndex) => {
    const cy = rowsTop + rowIndex * ROW_HEIGHT + ROW_HEIGHT / 2
    const total = slices.reduce((sum, slice) => sum + slice[row.key], 0)
    const marks = slices
      .map((slice, index) =>
        slice[row.key] > 0
          ? `<g class="${row.shape}"><title>${row.label}: ${slice[row.key]} between ${seconds(index * sliceMs)} and ${seconds((index + 1) * sliceMs)}</title>${mark(row.shape, (x(index) + x(index + 1)) / 2, cy)}</g>`
          : '',
      )
      .join('')
    return `<text x="${LEFT - 6}" y="${cy + 4}" text-anchor="end">${row.label} (${total})</text><line x1="${LEFT}" y1="${cy}" x2="${LEFT + PLOT}" y2="${cy}" stroke="currentColor" stroke-opacity="0.2"/>${marks}`
  }).join('\n')
  const labels = tickLabels(totalMs)
  const ticks = TICKS.map(
    (at, index) =>
      `<line x1="${LEFT + at * PLOT}" y1="${axisY}" x2="${LEFT + at * PLOT}" y2="${axisY + 4}" stroke="currentColor"/><text x="${LEFT + at * PLOT}" y="${axisY + 15}" text-anchor="middle">${labels[index]}</text>`,
  ).join('')
  return `<svg id="timeline" role="img" aria-labelledby="timeline-title" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" xmlns="http://www.w3.org/2000/svg" style="color:#1b1b1b">
<title id="timeline-title">Requests in flight over the run (at most ${most}), and when 429s, timeouts and retries came</title>
<text x="${LEFT - 6}" y="${CHART_TOP + 8}" text-anchor="end">${most} in flight</text><text x="${LEFT - 6}" y="${base}" text-anchor="end">0</text>
<line x1="${LEFT}" y1="${base}" x2="${LEFT + PLOT}" y2="${base}" stroke="currentColor"/>
<path class="in-flight" d="M${LEFT} ${base}${steps}L${LEFT + PLOT} ${base}Z" fill="currentColor" fill-opacity="0.15" stroke="currentColor" stroke-width="1.5"/>
${rows}
<line x1="${LEFT}" y1="${axisY}" x2="${LEFT + PLOT}" y2="${axisY}" stroke="currentColor"/>${ticks}
</svg>`
}

/** The section, or nothing for a run that sent no request. */
export function renderAtAGlance(traffic: TrafficSummary | undefined): string {
  if (!traffic || traffic.operations.length === 0) return ''
  const total = (key: 'tooManyRequests' | 'timeouts' | 'retried') => traffic.timeline.slices.reduce((sum, slice) => sum + slice[key], 0)
  const most = Math.max(0, ...traffic.timeline.slices.map((slice) => slice.inFlight))
  return `<section id="at-a-glance">
<h2>The run at a glance</h2>
${operationsTable(traffic)}
<p>Latency is of the attempts that were answered; status classes count every attempt, retries included.</p>
${timelineSvg(traffic)}
<p id="timeline-summary">At most ${most} requests in flight at once; ${total('tooManyRequests')} answered 429, ${total('timeouts')} timed out, ${total('retried')} retried. Each slice of the timeline is ${traffic.timeline.sliceMs} ms.</p>
</section>`
}
