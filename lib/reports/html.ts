/**
 * report.html: one self-contained file (no network, no external assets). The verdict and counts first;
 * then the traceability matrix, spec section → requirement → level → verdict → checks, untestable
 * statements included; each row opens on its spec text, reasons and failures with their evidence, `curl`
 * line and replay command. Filters by verdict and by area. Everything the target sent is escaped here,
 * on the server side; the script only shows and hides rows.
 */

import type { Failure } from '../checks/check-result.js'
import type { Evidence } from '../checks/evidence.js'
import { alarmLine } from '../checks/watchdog.js'
import { counted } from '../judging/headline.js'
import type { RequirementResult, Verdict } from '../judging/verdicts.js'
import { remainingWords } from './console.js'
import { escapeHtml } from './escape-html.js'
import { htmlPage } from './html-page.js'
import type { RunResult } from './run-result.js'
import { renderAtAGlance, TRAFFIC_STYLE } from './traffic-html.js'

const VERDICTS: Verdict[] = ['fail', 'warn', 'inconclusive', 'pass', 'info', 'skipped', 'untestable']

/** Failures first, then what needs a look, then the rest: the order of the table. */
const ORDER: Record<Verdict, number> = { fail: 0, warn: 1, inconclusive: 2, pass: 3, info: 4, skipped: 5, untestable: 6 }

/** Whose words a requirement quotes: the spec's own, or the conformance policy's where it settles a gap. */
function quoteLabel(result: RequirementResult): string {
  return result.source.startsWith('CONFORMANCE-POLICY') ? 'The conformance policy says' : 'The spec says'
}

function headers(record: Record<string, string>): string {
  return Object.entries(record)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n')
}

function evidenceBlock(evidence: Evidence): string {
  const request = `${evidence.request.method} ${evidence.request.url}\n${headers(evidence.request.headers)}${evidence.request.body !== undefined ? `\n\n${evidence.request.body}` : ''}`
  const response = evidence.response
    ? `${evidence.response.status}\n${headers(evidence.response.headers)}\n\n${evidence.response.body}`
    : `no answer: ${evidence.failure ?? 'unknown'}`
  return `<div class="evidence">
<h5>Request</h5><pre>${escapeHtml(request)}</pre>
<h5>Response${evidence.retries ? ` (after ${evidence.retries} retries)` : ''}</h5><pre>${escapeHtml(response)}</pre>
<h5>Reproduce</h5><pre class="curl">${escapeHtml(evidence.curl)}</pre>
${evidence.trace ? `<p class="trace">In your logs: trace <code>${escapeHtml(evidence.trace.traceId)}</code>, span <code class="span-id">${escapeHtml(evidence.trace.spanId)}</code></p>` : ''}
</div>`
}

function failureBlock(failure: Failure): string {
  const parts = [`<p class="message">${escapeHtml(failure.message)}</p>`]
  if (failure.expected !== undefined) parts.push(`<p><b>Expected:</b> ${escapeHtml(failure.expected)}</p>`)
  if (failure.actual !== undefined) parts.push(`<p><b>Actual:</b> ${escapeHtml(failure.actual)}</p>`)
  if (failure.schemaErrors?.length) parts.push(`<p><b>Schema errors:</b></p><ul>${failure.schemaErrors.map((error) => `<li>${escapeHtml(error)}</li>`).join('')}</ul>`)
  if (failure.replay) {
    parts.push(
      `<p><b>Counterexample</b> (seed ${failure.replay.seed}, path ${escapeHtml(failure.replay.path)}):</p><pre>${escapeHtml(failure.replay.counterexample)}</pre><p><b>Replay:</b></p><pre class="replay">${escapeHtml(failure.replay.command)}</pre>`,
    )
    if (failure.replay.script !== undefined) parts.push(`<p><b>The whole sequence as a curl script:</b></p><pre class="script">${escapeHtml(failure.replay.script)}</pre>`)
  }
  parts.push(...failure.evidence.map(evidenceBlock))
  return `<div class="failure">${parts.join('\n')}</div>`
}

function detailsOf(result: RequirementResult): string {
  const parts = [
    `<p><b>${escapeHtml(result.title)}</b></p>`,
    `<p class="label">${quoteLabel(result)} (${escapeHtml(result.source)}):</p><blockquote>${escapeHtml(result.specText)}</blockquote>`,
  ]
  if (result.decision) parts.push(`<p><b>How the policy settles it:</b> ${escapeHtml(result.decision)}</p>`)
  if (result.reasons.length) parts.push(`<p><b>Why ${escapeHtml(result.verdict)}:</b> ${escapeHtml(result.reasons.join('; '))}</p>`)
  if (result.partial) parts.push(`<p><b>Partial:</b> ${escapeHtml(result.partial)}</p>`)
  if (result.observations.length) parts.push(`<p><b>Recorded:</b></p><ul>${result.observations.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>`)
  if (result.retried.length) parts.push(`<p><b>Retried requests:</b></p><ul>${result.retried.map((note) => `<li>${escapeHtml(note)}</li>`).join('')}</ul>`)
  if (result.harnessErrors.length) parts.push(`<p><b>Harness errors:</b></p><pre>${escapeHtml(result.harnessErrors.join('\n'))}</pre>`)
  if (result.rootCause) parts.push(`<p class="root-cause"><b>Failed from the root cause:</b> ${escapeHtml(result.rootCause)} (named once at the top)</p>`)
  parts.push(...result.failures.map(failureBlock))
  return parts.join('\n')
}

function row(result: RequirementResult): string {
  const change = result.change && result.change !== 'unchanged' && result.change !== 'new' ? ` <span class="change">${escapeHtml(result.change)}</span>` : ''
  return `<tr class="requirement" id="${escapeHtml(result.id)}" data-verdict="${result.verdict}" data-area="${escapeHtml(result.area)}">
<td>${escapeHtml(result.source)}</td>
<td><details><summary>${escapeHtml(result.id)}</summary>${detailsOf(result)}</details></td>
<td>${result.level}</td>
<td><span class="verdict ${result.verdict}">${result.verdict}</span>${change}</td>
<td class="number">${result.checks}</td>
</tr>`
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; }
h1 { margin: 0 0 .25rem; } .headline.conformant { color: #176b2c; } .headline.non-conformant { color: #b3261e; } .headline.no-verdict, .headline.not-proven { color: #8a5a00; }
.headline-note { font-weight: 600; margin: 0 0 .5rem; } .label { color: #555; margin-bottom: 0; } tr:target { outline: 2px solid #1a5fb4; }
.meta { color: #555; margin-bottom: 1rem; }
table { border-collapse: collapse; width: 100%; } th, td { border-bottom: 1px solid #ddd; padding: .35rem .5rem; text-align: left; vertical-align: top; }
td.number { text-align: right; } summary { cursor: pointer; font-family: ui-monospace, monospace; }
.verdict { padding: .05rem .4rem; border-radius: .3rem; font-weight: 600; } .fail { background: #fbd5d2; } .warn { background: #fde9bf; }
.pass { background: #d3f0da; } .inconclusive { background: #e4e4f7; } .info, .skipped, .untestable { background: #eee; }
.change { font-size: 12px; color: #b3261e; } pre { background: #f6f6f6; padding: .5rem; overflow-x: auto; white-space: pre-wrap; word-break: break-all; max-height: 24rem; }
.failure { border-left: 3px solid #b3261e; padding-left: .75rem; margin: .75rem 0; } .filters { margin: 1rem 0; display: flex; gap: 1rem; flex-wrap: wrap; }
.counts span { margin-right: 1rem; }${TRAFFIC_STYLE}`

const SCRIPT = `
const rows = [...document.querySelectorAll('tr.requirement')];
const boxes = [...document.querySelectorAll('input[name=verdict]')];
const area = document.getElementById('area');
function apply() {
  const shown = new Set(boxes.filter((box) => box.checked).map((box) => box.value));
  let visible = 0;
  for (const row of rows) {
    const show = shown.has(row.dataset.verdict) && (area.value === '' || row.dataset.area === area.value);
    row.hidden = !show;
    if (show) visible += 1;
  }
  document.getElementById('visible').textContent = visible + ' of ' + rows.length + ' requirements shown';
}
for (const box of boxes) box.addEventListener('change', apply);
area.addEventListener('change', apply);
apply();
// report.html#<requirement id> opens that requirement.
function openTarget() {
  const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (!target) return;
  target.hidden = false;
  const details = target.querySelector('details');
  if (details) details.open = true;
  target.scrollIntoView();
}
window.addEventListener('hashchange', openTarget);
openTarget();`

/** Broken answers several requirements failed from: named once, with links to the requirements. */
function rootCauses(run: RunResult): string {
  if (run.rootCauses.length === 0) return ''
  const items = run.rootCauses.map(
    (cause) =>
      `<li>${escapeHtml(cause.cause)}: ${counted(cause.requirements.length, 'requirement')} failed from it: ${cause.requirements.map((id) => `<a href="#${escapeHtml(id)}">${escapeHtml(id)}</a>`).join(', ')}<br>once it is fixed: ${escapeHtml(remainingWords(cause.remaining, cause.requirements))}</li>`,
  )
  return `<div class="root-causes" id="root-causes"><b>Root causes</b><ul>${items.join('')}</ul></div>`
}

/** The trace id and run id every request carried, for the meta line. */
function traceMeta(run: RunResult): string {
  if (!run.trace) return ''
  return `<br><span id="trace">${run.trace.traceId ? `trace <code>${escapeHtml(run.trace.traceId)}</code> in every traceparent · ` : ''}User-Agent <code>${escapeHtml(run.trace.userAgent)}</code></span>`
}

export function renderHtml(run: RunResult): string {
  const s = run.summary
  const areas = [...new Set(run.requirements.map((result) => result.area))]
  const baseline = run.baseline
    ? `<p>Against the baseline: <b>${counted(run.baseline.newFailures, 'new failure')}</b>, ${run.baseline.fixed} fixed, ${run.baseline.stillFailing} still failing, ${run.baseline.unchanged} unchanged.</p>`
    : ''
  return htmlPage({
    title: `Pet Store conformance: ${run.headline.text}`,
    style: STYLE,
    script: SCRIPT,
    body: `<h1 class="headline ${run.headline.text.toLowerCase().replace(' ', '-')}" id="verdict">${run.headline.text}</h1>
${run.headline.note ? `<p class="headline-note" id="headline-note">${escapeHtml(run.headline.note)}</p>` : ''}
<div class="meta">${escapeHtml(run.tool.name)} ${escapeHtml(run.tool.version)} · ${escapeHtml(run.profile)} profile against ${escapeHtml(run.target.baseUrl)}${run.target.embeddedReference ? ' (embedded reference)' : ''} · seed ${run.seed} · started ${escapeHtml(run.startedAt)} · ${run.requestsSent} requests in ${(run.durationMs / 1000).toFixed(1)} s · exit code ${run.exitCode}${traceMeta(run)}</div>
<div class="counts" id="counts">${VERDICTS.map((verdict) => `<span><span class="verdict ${verdict}">${verdict}</span> ${s[verdict]}</span>`).join('')}</div>
${baseline}
${rootCauses(run)}
${run.harnessErrors.length ? `<p><b>Harness errors:</b></p><pre>${escapeHtml(run.harnessErrors.join('\n'))}</pre>` : ''}
${run.watchdog?.length ? `<p><b>The run sat still (watchdog):</b></p><pre id="watchdog">${escapeHtml(run.watchdog.map(alarmLine).join('\n'))}</pre>` : ''}
${renderAtAGlance(run.traffic)}
${run.harFile ? `<p>Every exchange of the run: <a id="har-link" href="${escapeHtml(encodeURI(run.harFile))}">${escapeHtml(run.harFile)}</a> (HAR 1.2: open it in a browser's network panel or a HAR viewer)</p>` : ''}
<div class="filters">
<span>Verdict: ${VERDICTS.map((verdict) => `<label><input type="checkbox" name="verdict" value="${verdict}" checked> ${verdict}</label>`).join(' ')}</span>
<label>Area: <select id="area"><option value="">all</option>${areas.map((name) => `<option value="${escapeHtml(name)}">${escapeHtml(name)}</option>`).join('')}</select></label>
<span id="visible"></span>
</div>
<table>
<thead><tr><th>Spec section</th><th>Requirement</th><th>Level</th><th>Verdict</th><th>Checks</th></tr></thead>
<tbody>
${[...run.requirements]
  .sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict])
  .map(row)
  .join('\n')}
</tbody>
</table>`,
  })
}
