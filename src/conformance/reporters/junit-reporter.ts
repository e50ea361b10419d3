import type { RunResult, ScenarioResult } from '../run-result.js';
import { describeFinding } from './describe-finding.js';
import { escapeXml } from './escape-xml.js';
import type { Reporter } from './reporter.js';

/** junit.xml as CI systems read it: a testsuite per scenario file, a testcase per scenario. */
export const junitReporter: Reporter = {
  name: 'junit',
  onRunEnd: async (result, { writeFile }) => {
    await writeFile('junit.xml', renderJunit(result));
  },
};

function renderJunit(result: RunResult): string {
  const files = new Map<string, ScenarioResult[]>();
  for (const scenario of result.scenarios) files.set(scenario.file, [...(files.get(scenario.file) ?? []), scenario]);
  const suites = [...files].map(([file, scenarios]) => {
    const attributes = {
      name: file,
      tests: scenarios.length,
      failures: scenarios.filter((s) => s.outcome === 'failed').length,
      errors: 0,
      skipped: scenarios.filter((s) => s.outcome === 'skipped').length,
      time: seconds(scenarios.reduce((t, s) => t + s.durationMs, 0)),
    };
    return `  <testsuite ${attrs(attributes)}>\n${scenarios.map((s) => renderCase(file, s)).join('')}  </testsuite>\n`;
  });
  const { totals } = result;
  const root = { name: 'conformance', tests: totals.scenarios, failures: totals.failed, errors: 0, skipped: totals.skipped };
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs({ ...root, time: seconds(result.durationMs) })}>\n${suites.join('')}</testsuites>\n`;
}

function renderCase(file: string, scenario: ScenarioResult): string {
  const open = `    <testcase ${attrs({ classname: file, name: scenario.name, time: seconds(scenario.durationMs) })}`;
  const blocking = scenario.findings.filter((f) => f.blocking);
  const other = scenario.findings.filter((f) => !f.blocking);
  const parts: string[] = [];
  if (scenario.outcome === 'skipped') parts.push(`      <skipped ${attrs({ message: scenario.skipReason ?? '' })}/>\n`);
  if (blocking.length > 0) {
    const message = `${blocking.length} finding${blocking.length > 1 ? 's' : ''}: ${blocking.map((f) => f.checkId).join(', ')}`;
    const text = blocking.map(describeFinding).join('\n\n');
    parts.push(`      <failure ${attrs({ message, type: blocking[0]?.checkId ?? '' })}>${escapeXml(text)}</failure>\n`);
  }
  const notes = [
    ...other.map(describeFinding),
    ...scenario.observations.map(
      (o) => `observation, step ${o.step} (${o.operationId}): ${o.note}: ${o.status ?? '-'} ${o.body}`,
    ),
  ];
  if (notes.length > 0) parts.push(`      <system-out>${escapeXml(notes.join('\n'))}</system-out>\n`);
  return parts.length === 0 ? `${open}/>\n` : `${open}>\n${parts.join('')}    </testcase>\n`;
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}="${escapeXml(String(value))}"`)
    .join(' ');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
