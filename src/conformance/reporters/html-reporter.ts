import type { Finding, RunResult } from '../run-result.js';
import { escapeXml as h } from './escape-xml.js';
import type { Reporter } from './reporter.js';

/** report.html: one self-contained page (no scripts, no external assets) for a person in a browser. */
export const htmlReporter: Reporter = {
  name: 'html',
  onRunEnd: async (result, { writeFile }) => {
    await writeFile('report.html', renderHtml(result));
  },
};

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1b1b}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .6rem;text-align:left}
td.n{text-align:right}.passed{color:#116611}.failed{color:#b00020}pre{background:#f5f5f5;padding:.6rem;overflow-x:auto;white-space:pre-wrap}
section.finding{border-left:4px solid #b00020;padding-left:1rem;margin:1.5rem 0}.sev{font-weight:600;text-transform:uppercase}`;

function renderHtml(result: RunResult): string {
  const { totals } = result;
  const failures = result.scenarios.flatMap((s) => s.findings).filter((f) => f.blocking);
  const other = result.scenarios.flatMap((s) => s.findings).filter((f) => !f.blocking);
  const observations = result.scenarios.flatMap((s) => s.observations);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance ${h(result.verdict)}: ${h(result.target)}</title><style>${STYLE}</style></head>
<body>
<h1 class="${result.verdict}">Conformance ${result.verdict === 'passed' ? 'passed' : 'FAILED'}</h1>
<p>Target <code>${h(result.target)}</code> · ${h(result.contract.title)} ${h(result.contract.version)} · --fail-on ${h(result.settings.failOn)} · ${h(result.startedAt)} · ${(result.durationMs / 1000).toFixed(1)} s</p>
<table id="totals"><tr><th>scenarios</th><th>passed</th><th>failed</th><th>skipped</th><th>requests</th><th>findings</th><th>blocking</th><th>observations</th></tr>
<tr>${[totals.scenarios, totals.passed, totals.failed, totals.skipped, totals.exchanges, totals.findings, totals.blockingFindings, totals.observations].map((n) => `<td class="n">${n}</td>`).join('')}</tr></table>
<h2>Operations by documented status</h2>
<table id="coverage"><tr><th>operation</th><th>method and path</th><th>status</th><th>exercised</th><th>passed</th><th>failed</th><th>observed</th></tr>
${result.coverage.map((r) => `<tr><td>${h(r.operationId)}</td><td><code>${h(`${r.method} ${r.path}`)}</code></td><td>${h(r.status)}${r.documented ? '' : ' (undocumented)'}</td><td class="n">${r.exercised}</td><td class="n">${r.passed}</td><td class="n">${r.failed}</td><td class="n">${r.observed}</td></tr>`).join('\n')}
</table>
<h2>Failures (${failures.length})</h2>
${failures.map(renderFinding).join('\n') || '<p>None.</p>'}
<h2>Below --fail-on (${other.length})</h2>
${other.map(renderFinding).join('\n') || '<p>None.</p>'}
<h2>Observations (${observations.length})</h2>
<p>Where the contract leaves the answer open: recorded, never failed.</p>
<ul>${observations.map((o) => `<li>${h(`${o.file} › ${o.scenario}, step ${o.step} (${o.operationId}): ${o.note}`)}: <code>${h(`${o.status ?? '-'} ${o.body.slice(0, 200)}`)}</code></li>`).join('\n')}</ul>
</body></html>
`;
}

function renderFinding(f: Finding): string {
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
  return `<section class="finding"><h3><span class="sev">${h(f.severity)}</span> <code>${h(f.checkId)}</code>: ${h(f.title)}</h3>
<p>${h(f.file)} › ${h(f.scenario)}, step ${f.step} (${h(f.operationId)}). Clause: ${h(f.clause)}</p>
<p><b>Received:</b> ${h(f.received)}<br><b>Documented:</b> ${h(f.documented)}</p>
<h4>Request</h4><pre>${h(request)}</pre><h4>Response</h4><pre>${h(response)}</pre><h4>Reproduce</h4><pre>${h(f.curl)}</pre></section>`;
}
