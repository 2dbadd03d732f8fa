/**
 * fleet.html: the fleet at a glance, one self-contained file like report.html (no network, no external assets).
 * First the fleet's exit code and each target's verdict, with links to its own report.html and results.json;
 * then the matrix of requirements × targets, the requirements where targets differ from the majority ("drift")
 * first, each differing cell marked in words and shape, not colour alone, and linked to the requirement in that
 * target's report. Everything comes from fleet.json and is escaped here; the script only hides rows.
 */

import type { Verdict } from '../judging/verdicts.js'
import { escapeHtml } from '../reports/escape-html.js'
import { htmlPage } from '../reports/html-page.js'
import { CHANGE_WORDS, type FleetReport, type FleetRequirementRow, type FleetTargetEntry } from './fleet-report.js'

const EXIT_WORDS: Record<number, string> = { 0: 'conformant', 1: 'non-conformant', 2: 'set-up mistake', 3: 'no verdict' }

/** A link to a file of a target's own reports: the name is one folder name, each part is encoded anyway. */
function hrefOf(path: string, fragment?: string): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/')
  return escapeHtml(fragment === undefined ? encoded : `${encoded}#${encodeURIComponent(fragment)}`)
}

function targetRow(target: FleetTargetEntry): string {
  const s = target.summary
  return `<tr class="target" data-name="${escapeHtml(target.name)}">
<td><a href="${hrefOf(target.report)}">${escapeHtml(target.name)}</a></td>
<td><span class="headline ${escapeHtml(target.verdict.toLowerCase().replace(' ', '-'))}">${escapeHtml(target.verdict)}</span>${target.stopReason ? `<br><span class="stop">${escapeHtml(target.stopReason)}</span>` : ''}</td>
<td class="number">${target.exitCode}</td>
<td class="number">${s.fail}</td><td class="number">${s.warn}</td><td class="number">${s.inconclusive}</td><td class="number">${s.pass}</td>
<td>${escapeHtml(target.baseUrl)}</td>
<td><a href="${hrefOf(target.results)}">results.json</a></td>
</tr>`
}

function cell(row: FleetRequirementRow, target: FleetTargetEntry): string {
  const verdict: Verdict | undefined = row.verdicts[target.name]
  if (verdict === undefined) return '<td class="absent">—</td>'
  const drifts = row.drift.includes(target.name)
  const folder = target.report.slice(0, target.report.lastIndexOf('/') + 1)
  const change = row.changes?.[target.name]
  return `<td class="${drifts ? 'drift' : ''}" data-target="${escapeHtml(target.name)}"><a class="verdict ${verdict}" href="${hrefOf(`${folder}report.html`, row.id)}">${drifts ? '≠ ' : ''}${verdict}</a>${change ? ` <span class="change">${CHANGE_WORDS[change]}</span>` : ''}</td>`
}

function requirementRow(row: FleetRequirementRow, targets: readonly FleetTargetEntry[]): string {
  return `<tr class="requirement" data-drift="${row.drift.length}">
<th scope="row"><code>${escapeHtml(row.id)}</code> <span class="level">${row.level}</span>${row.drift.length > 0 ? `<br><span class="majority">most: ${row.majority}; differ: ${row.drift.map(escapeHtml).join(', ')}</span>` : ''}</th>
${targets.map((target) => cell(row, target)).join('')}
</tr>`
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; }
h1 { margin: 0 0 .25rem; } .meta { color: #555; margin-bottom: 1rem; }
table { border-collapse: collapse; } th, td { border-bottom: 1px solid #ddd; padding: .3rem .5rem; text-align: left; vertical-align: top; }
td.number { text-align: right; } .stop { color: #555; font-size: 12px; } .level, .majority { color: #555; font-size: 12px; }
.headline { font-weight: 600; } .headline.conformant { color: #176b2c; } .headline.non-conformant { color: #b3261e; } .headline.no-verdict, .headline.not-proven { color: #8a5a00; }
.verdict { padding: .05rem .4rem; border-radius: .3rem; font-weight: 600; text-decoration: none; color: inherit; }
.fail { background: #fbd5d2; } .warn { background: #fde9bf; } .pass { background: #d3f0da; } .inconclusive { background: #e4e4f7; } .info, .skipped, .untestable { background: #eee; }
td.drift { outline: 2px dashed #1b1b1b; outline-offset: -3px; } td.drift .verdict { font-style: italic; }
.matrix { overflow-x: auto; } .filters { margin: 1rem 0; } .change { font-size: 12px; font-weight: 600; }`

const SCRIPT = `
const rows = [...document.querySelectorAll('tr.requirement')];
const driftOnly = document.getElementById('drift-only');
function apply() {
  let visible = 0;
  for (const row of rows) {
    row.hidden = driftOnly.checked && row.dataset.drift === '0';
    if (!row.hidden) visible += 1;
  }
  document.getElementById('visible').textContent = visible + ' of ' + rows.length + ' requirements shown';
}
driftOnly.addEventListener('change', apply);
apply();`

export function renderFleetHtml(report: FleetReport): string {
  const drifting = report.requirements.filter((row) => row.drift.length > 0).length
  const conformant = report.targets.filter((target) => target.exitCode === 0).length
  return htmlPage({
    title: `Pet Store conformance: a fleet of ${report.targets.length}, exit ${report.exitCode}`,
    style: STYLE,
    script: SCRIPT,
    body: `<h1 id="fleet-verdict">A fleet of ${report.targets.length}: exit ${report.exitCode} (${EXIT_WORDS[report.exitCode] ?? 'unknown'})</h1>
<div class="meta">${escapeHtml(report.tool.name)} ${escapeHtml(report.tool.version)} · interface ${escapeHtml(report.specVersion)} · ${conformant} of ${report.targets.length} conformant · <span id="drift-count">${drifting} requirements drift</span> (a target's verdict differs from the majority's)</div>
${
  report.baseline
    ? `<p id="baseline">Against the baseline ${escapeHtml(report.baseline.file)}: <b>${report.baseline.newFailures} new failures</b>, ${report.baseline.fixed} fixed${report.baseline.newTargets.length > 0 ? `; new targets, not compared: ${report.baseline.newTargets.map(escapeHtml).join(', ')}` : ''}</p>`
    : ''
}
<table id="targets">
<thead><tr><th>Target</th><th>Verdict</th><th>Exit</th><th>fail</th><th>warn</th><th>inconclusive</th><th>pass</th><th>Base URL</th><th>Results</th></tr></thead>
<tbody>
${report.targets.map(targetRow).join('\n')}
</tbody>
</table>
<div class="filters"><label><input type="checkbox" id="drift-only"> drift only</label> <span id="visible"></span></div>
<div class="matrix">
<table id="matrix">
<thead><tr><th>Requirement</th>${report.targets.map((target) => `<th scope="col">${escapeHtml(target.name)}</th>`).join('')}</tr></thead>
<tbody>
${report.requirements.map((row) => requirementRow(row, report.targets)).join('\n')}
</tbody>
</table>
</div>
<p class="meta">≠ and a dashed frame: the target differs from the majority on that requirement. Each verdict opens the requirement in that target's own report.</p>`,
  })
}
