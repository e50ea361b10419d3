import { escapeHtml as h } from '../../shared/escape-html.js';
import type { CoverageRow, Finding, RunResult, ScenarioResult } from '../run-result.js';
import { describeCause } from '../judge/likely-causes.js';
import { SEVERITIES } from '../judge/severity.js';
import { caseOrigin } from './case-origin.js';
import { bodyExtent } from './describe-finding.js';
import { describeCreated } from './describe-created.js';
import { plural } from './plural.js';
import { reportOrder } from './report-order.js';
import { STOP_TITLES } from './stop-titles.js';
import type { NotRun, Reporter } from './reporter.js';

/**
 * report.html: one self-contained page (one small inline script for the filter, no external assets). At the top
 * the verdict, why a run stopped, the hints and the first failures; then the filter, the coverage table and the
 * cases grouped by scenario, each exchange shown once and collapsed. Only the first failed cases are open, and a
 * case shows at most MAX_FINDINGS findings, so a run with a thousand findings is still a page to move around in.
 */
export const htmlReporter: Reporter = {
  name: 'html',
  files: ['report.html'],
  onRunEnd: async (result, { writeFile }) => {
    await writeFile('report.html', renderHtml(result));
  },
  onRunError: async (notRun, { writeFile }) => {
    await writeFile('report.html', renderNotRun(notRun));
  },
};

const FIRST_FAILURES = 5;
const OPEN_CASES = 10;
const MAX_FINDINGS = 100;

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:76rem;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;margin:.6rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}td.n{text-align:right}
.passed{color:#116611}.failed,.stopped{color:#b00020}.skipped{color:#8a6d00}
.banner{border:2px solid #b00020;background:#fdecee;padding:.6rem 1rem;margin:1rem 0;font-weight:600}
.hint{border-left:4px solid #1565c0;background:#eef4fc;padding:.4rem .8rem;margin:.4rem 0}
pre{background:#f5f5f5;padding:.5rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all;margin:.3rem 0}
details.case{border:1px solid #ddd;border-radius:4px;margin:.4rem 0;padding:.3rem .6rem}details.case>summary{cursor:pointer}
.finding{border-left:4px solid #b00020;padding:.2rem .8rem;margin:.6rem 0}.finding.low,.finding.medium{border-color:#c77700}
.finding.below{opacity:.85;border-style:dashed}.finding .text{white-space:pre-wrap}.sev{font-weight:700;text-transform:uppercase;font-size:.8em}
.cov-failed{background:#fdecee}.cov-passed{background:#edf7ed}.cov-none{background:#f1f1f1;color:#666}.cov-observed{background:#fff8e1}
#by-check tr[data-check]{cursor:pointer}#filter{position:sticky;top:0;background:#fff;border-bottom:1px solid #ccc;padding:.4rem 0;z-index:1}
.consequences{margin:.2rem 0 .2rem 1.2rem;color:#444}`;

// Hides findings outside the chosen severities and check, and cases left with nothing to show.
const SCRIPT = `const apply=()=>{const sev=new Set([...document.querySelectorAll('#filter input:checked')].map(i=>i.value));
const check=document.getElementById('check').value;const failedOnly=document.getElementById('failed-only').checked;
for(const f of document.querySelectorAll('.finding'))f.hidden=!(sev.has(f.dataset.severity)&&(!check||f.dataset.check===check));
for(const c of document.querySelectorAll('details.case')){const fs=[...c.querySelectorAll('.finding')];
c.hidden=(failedOnly&&c.dataset.outcome!=='failed')||(fs.length>0&&fs.every(f=>f.hidden))||(fs.length===0&&(!!check||failedOnly));}};
document.getElementById('filter').addEventListener('change',apply);
for(const r of document.querySelectorAll('#by-check tr[data-check]'))r.addEventListener('click',()=>{
document.getElementById('check').value=r.dataset.check;apply();document.getElementById('filter').scrollIntoView();});`;

// Failed cases grouped by their first failure, most cases first: with one bug, one line.
function renderCauses(result: RunResult): string {
  if (result.causes.length === 0) return '';
  const byId = new Map(result.scenarios.map((s) => [s.id, s]));
  const rows = result.causes.map((cause) => {
    const first = byId.get(cause.cases[0] as string);
    const link = first ? ` (first: <a href="#${anchor(first)}">${h(first.name)}</a>)` : '';
    return `<li><span class="sev">${h(cause.severity)}</span> ${h(describeCause(cause))}${link}</li>`;
  });
  return `<h2 id="causes">Likely causes</h2>\n<ol>${rows.join('')}</ol>`;
}

function renderHtml(result: RunResult): string {
  const created = describeCreated(result);
  const cases = reportOrder(result.scenarios);
  const failures = cases.flatMap((s) => s.findings.filter((f) => f.blocking).map((f) => ({ s, f })));
  const checks = [...new Set(cases.flatMap((s) => s.findings.map((f) => f.checkId)))].sort();
  const title = result.stopped
    ? `stopped: ${STOP_TITLES[result.stopped.kind].short}`
    : result.verdict === 'passed'
      ? 'passed'
      : 'FAILED';
  const failed = cases.filter((s) => s.outcome === 'failed');
  const others = cases.filter((s) => s.outcome !== 'failed');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Conformance ${h(title)}: ${h(result.target)}</title><style>${STYLE}</style></head>
<body>
<h1 class="${result.stopped ? 'stopped' : result.verdict}">Conformance ${h(title)}</h1>
<p>Target <code>${h(result.target)}</code> · ${h(result.contract.title)} ${h(result.contract.version)} · --fail-on ${h(result.settings.failOn)} · seed <code>${result.settings.seed}</code> · ${h(result.startedAt)} · ${(result.durationMs / 1000).toFixed(1)} s</p>
${result.stopped ? `<div class="banner" id="stopped">Stopped: ${h(result.stopped.reason)}</div>` : ''}
${result.hints.map((hint) => `<div class="hint">Hint: ${h(hint)}</div>`).join('\n')}
${renderTotals(result)}
${created === undefined ? '' : `<p id="created">${h(created)}</p>`}
${renderCauses(result)}
<h2>First failures</h2>
${
  failures.length === 0
    ? '<p>None.</p>'
    : `<ol>${failures
        .slice(0, FIRST_FAILURES)
        .map(
          ({ s, f }) =>
            `<li><span class="sev">${h(f.severity)}</span> <a href="#${anchor(s)}">${h(s.name)}</a>, step ${f.step}: ${h(f.title)}</li>`,
        )
        .join(
          '',
        )}</ol>${failures.length > FIRST_FAILURES ? `<p>${plural(failures.length - FIRST_FAILURES, 'more failure')} below.</p>` : ''}`
}
${renderByCheck(cases)}
<h2>Operations by documented status</h2>
${renderCoverage(result.coverage)}
<h2>Cases (${cases.length})</h2>
<div id="filter">Severity: ${SEVERITIES.map((s) => `<label><input type="checkbox" value="${s}" checked> ${s}</label>`).join(' ')}
· Check: <select id="check"><option value="">all</option>${checks.map((c) => `<option>${h(c)}</option>`).join('')}</select>
· <label><input type="checkbox" id="failed-only"> failed cases only</label></div>
<h3>Failed (${failed.length})</h3>
${failed.map((s, i) => renderCase(s, i < OPEN_CASES)).join('\n') || '<p>None.</p>'}
<details id="other-cases"><summary><b>Passed and skipped (${others.length})</b></summary>
${others.map((s) => renderCase(s, false)).join('\n')}
</details>
<script>${SCRIPT}</script>
</body></html>
`;
}

function renderTotals(result: RunResult): string {
  const { totals } = result;
  const cells = [
    totals.scenarios,
    totals.passed,
    totals.failed,
    totals.skipped,
    totals.exchanges,
    totals.findings,
    totals.blockingFindings,
    totals.observations,
  ];
  const bySeverity = SEVERITIES.map((s) => `${totals.bySeverity[s] ?? 0} ${s}`).join(', ');
  return `<table id="totals"><tr><th>cases</th><th>passed</th><th>failed</th><th>skipped</th><th>requests</th><th>findings</th><th>blocking</th><th>observations</th></tr>
<tr>${cells.map((n) => `<td class="n">${n}</td>`).join('')}</tr></table>
<p>Findings by severity: ${bySeverity}.</p>`;
}

// Many findings often have few causes: one row per check says how many there are and in how many cases.
function renderByCheck(cases: readonly ScenarioResult[]): string {
  const rows = new Map<string, { severity: string; findings: number; cases: Set<string> }>();
  for (const s of cases) {
    for (const f of s.findings) {
      const row = rows.get(f.checkId) ?? { severity: f.severity, findings: 0, cases: new Set<string>() };
      row.findings++;
      row.cases.add(s.id);
      rows.set(f.checkId, row);
    }
  }
  if (rows.size === 0) return '';
  const body = [...rows]
    .sort((a, b) => b[1].findings - a[1].findings)
    .map(
      ([check, r]) =>
        `<tr data-check="${h(check)}"><td><code>${h(check)}</code></td><td>${h(r.severity)}</td><td class="n">${r.findings}</td><td class="n">${r.cases.size}</td></tr>`,
    );
  return `<h2>Findings by check</h2>\n<p>Click a row to show only its findings.</p>\n<table id="by-check"><tr><th>check</th><th>severity</th><th>findings</th><th>cases</th></tr>\n${body.join('\n')}\n</table>`;
}

function renderCoverage(rows: readonly CoverageRow[]): string {
  const body = rows.map((r) => {
    const state = r.failed > 0 ? 'cov-failed' : r.exercised === 0 ? 'cov-none' : r.passed > 0 ? 'cov-passed' : 'cov-observed';
    const status = `${h(r.status)}${r.documented ? '' : ' (undocumented)'}${r.documented && r.exercised === 0 ? ' — not exercised' : ''}`;
    const name = `${h(r.operationId)}${r.deprecated ? ' <em>(deprecated)</em>' : ''}`;
    const notGenerated = (r.notGenerated ?? []).map(h).join('<br>');
    return `<tr class="${state}"><td>${name}</td><td><code>${h(`${r.method} ${r.path}`)}</code></td><td>${status}</td><td class="n">${r.exercised}</td><td class="n">${r.passed}</td><td class="n">${r.failed}</td><td class="n">${r.observed}</td><td>${notGenerated}</td></tr>`;
  });
  return `<table id="coverage"><tr><th>operation</th><th>method and path</th><th>status</th><th>exercised</th><th>passed</th><th>failed</th><th>observed</th><th>not generated</th></tr>\n${body.join('\n')}\n</table>`;
}

function anchor(s: ScenarioResult): string {
  return `case-${encodeURIComponent(s.id).replace(/%/g, '_')}`;
}

function renderCase(s: ScenarioResult, open: boolean): string {
  const shown = s.findings.slice(0, MAX_FINDINGS);
  // Findings on one exchange share it: show it once, after them.
  const byExchange = new Map<string, Finding[]>();
  for (const f of shown) {
    const key = `${f.step}|${f.curl}|${f.response?.status}|${f.response?.body}`;
    byExchange.set(key, [...(byExchange.get(key) ?? []), f]);
  }
  const findings = [...byExchange.values()].map(
    (group) => `${group.map(renderFinding).join('\n')}\n${renderExchange(group[0] as Finding)}`,
  );
  const more =
    s.findings.length > shown.length ? `<p>${plural(s.findings.length - shown.length, 'more finding')} in report.json.</p>` : '';
  const observations = s.observations.length
    ? `<ul>${s.observations.map((o) => `<li>observed, step ${o.step} (${h(o.operationId)}): ${h(o.note)}: <code>${h(`${o.status ?? 'no answer'} ${o.body.slice(0, 200)}`)}</code></li>`).join('')}</ul>`
    : '';
  const summary = `<span class="${s.outcome}">${s.outcome.toUpperCase()}</span> ${h(s.name)} · <small>${h(caseOrigin(s))} · id <code>${h(s.id)}</code> · ${plural(s.findings.length, 'finding')}${s.skipReason ? ` · ${h(s.skipReason)}` : ''}</small>`;
  return `<details class="case" id="${anchor(s)}" data-outcome="${s.outcome}"${open ? ' open' : ''}><summary>${summary}</summary>
${findings.join('\n')}${more}${observations}</details>`;
}

function renderFinding(f: Finding): string {
  const consequences = f.consequences?.length
    ? `<ul class="consequences">${f.consequences.map((c) => `<li>as a consequence: <span class="sev">${h(c.severity)}</span> <code>${h(c.checkId)}</code>: ${h(c.title)}</li>`).join('')}</ul>`
    : '';
  return `<div class="finding ${h(f.severity)}${f.blocking ? '' : ' below'}" data-severity="${h(f.severity)}" data-check="${h(f.checkId)}">
<b><span class="sev">${h(f.severity)}</span> <code>${h(f.checkId)}</code>: <span class="text">${h(f.title)}</span></b>${f.blocking ? '' : ' <small>(below --fail-on)</small>'}
<br>Step ${f.step} (${h(f.operationId)}). <b>Received:</b> <span class="text">${h(f.received)}</span> · <b>Documented:</b> <span class="text">${h(f.documented)}</span> <small>(${h(f.clause)})</small>${consequences}</div>`;
}

function renderExchange(f: Finding): string {
  const request = [
    `${f.request.method} ${f.request.url}`,
    ...Object.entries(f.request.headers).map(([k, v]) => `${k}: ${v}`),
    ...(f.request.body === undefined ? [] : ['', f.request.body]),
  ].join('\n');
  const response = f.response
    ? [
        `HTTP ${f.response.status}`,
        ...Object.entries(f.response.headers).map(([k, v]) => `${k}: ${v}`),
        '',
        f.response.body,
      ].join('\n')
    : '(no answer)';
  const label = `${f.request.method} ${f.request.url} → ${f.response ? `${f.response.status}, ${bodyExtent(f.response)}` : 'no answer'}`;
  return `<details><summary>Exchange: ${h(label)}</summary><pre>${h(request)}</pre><pre>${h(response)}</pre>${f.curl ? `<pre>${h(f.curl)}</pre>` : ''}</details>`;
}

function renderNotRun(notRun: NotRun): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance not run</title><style>${STYLE}</style></head>
<body><h1 class="stopped">Conformance not run</h1>
<div class="banner">Exit ${notRun.exitCode}: ${h(notRun.message)}</div>
<p>Target <code>${h(notRun.target ?? '(none)')}</code> · ${h(notRun.startedAt)}. No report of an earlier run is kept.</p>
</body></html>
`;
}
