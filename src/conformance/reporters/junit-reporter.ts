import { escapeXml } from '../../shared/escape-xml.js';
import type { LikelyCause } from '../judge/likely-causes.js';
import type { RunResult, ScenarioResult, TargetGone } from '../run-result.js';
import { caseOrigin } from './case-origin.js';
import { describeFinding } from './describe-finding.js';
import { plural } from './plural.js';
import { reportOrder } from './report-order.js';
import type { NotRun, Reporter } from './reporter.js';

/**
 * junit.xml as CI systems read it: a testsuite per scenario file (generated cases under their kind), a testcase
 * per case. A blocking finding is a <failure> whose message is the first finding's sentence. A run that stopped
 * on its configuration or an unavailable target, or did not happen, is an <error>: nothing was learnt about the
 * target; so is a case the target's going away cut short.
 */
export const junitReporter: Reporter = {
  name: 'junit',
  files: ['junit.xml'],
  onRunEnd: async (result, { writeFile }) => {
    await writeFile('junit.xml', renderJunit(result));
  },
  onRunError: async (notRun, { writeFile }) => {
    await writeFile('junit.xml', renderNotRun(notRun));
  },
};

function renderJunit(result: RunResult): string {
  const files = new Map<string, ScenarioResult[]>();
  for (const scenario of reportOrder(result.scenarios)) {
    const suite = scenario.source === 'generated' ? caseOrigin(scenario) : scenario.file;
    files.set(suite, [...(files.get(suite) ?? []), scenario]);
  }
  const properties = renderProperties({
    target: result.target,
    seed: String(result.settings.seed),
    'fail-on': result.settings.failOn,
    ...Object.fromEntries(result.hints.map((hint, i) => [`hint ${i + 1}`, hint])),
  });
  const causeOf = new Map(result.causes.flatMap((cause) => cause.cases.map((id) => [id, cause] as const)));
  const cutShort = new Set(result.targetGone?.cases);
  // A stopped run is one <error> (its configuration, or a target not serving): the probe's findings that stopped it
  // are its account, not failures of the contract beside it.
  const failed = (s: ScenarioResult) => s.outcome === 'failed' && !cutShort.has(s.id) && result.stopped === undefined;
  const suites = [...files].map(([file, scenarios]) => {
    const attributes = {
      name: file,
      tests: scenarios.length,
      failures: scenarios.filter(failed).length,
      errors: scenarios.filter((s) => cutShort.has(s.id)).length,
      skipped: scenarios.filter((s) => s.outcome === 'skipped').length,
      time: seconds(suiteTime(scenarios, result.durationMs)),
    };
    const gone = (s: ScenarioResult) => (cutShort.has(s.id) ? result.targetGone : undefined);
    const cause = (s: ScenarioResult) => ({ cause: causeOf.get(s.id), of: result.causes.length });
    const stopped = result.stopped !== undefined;
    return `  <testsuite ${attrs(attributes)}>\n${properties}${scenarios.map((s) => renderCase(file, s, gone(s), cause(s), stopped)).join('')}  </testsuite>\n`;
  });
  if (result.stopped) suites.unshift(errorSuite(result.stopped.kind, result.stopped.reason, result.stopped.kind));
  const { totals } = result;
  const root = {
    name: 'conformance',
    tests: totals.scenarios + (result.stopped ? 1 : 0),
    failures: result.scenarios.filter(failed).length,
    errors: (result.stopped ? 1 : 0) + cutShort.size,
    skipped: totals.skipped,
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs({ ...root, time: seconds(result.durationMs) })}>\n${suites.join('')}</testsuites>\n`;
}

function renderNotRun(notRun: NotRun): string {
  const suite = errorSuite('run', `exit ${notRun.exitCode}: ${notRun.message}`, notRun.code);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs({ name: 'conformance', tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000' })}>\n${suite}</testsuites>\n`;
}

function errorSuite(name: string, message: string, type: string): string {
  return (
    `  <testsuite ${attrs({ name, tests: 1, failures: 0, errors: 1, skipped: 0, time: '0.000' })}>\n` +
    `    <testcase ${attrs({ classname: name, name: 'the run could not check the target', time: '0.000' })}>\n` +
    `      <error ${attrs({ message, type })}>${escapeXml(message)}</error>\n    </testcase>\n  </testsuite>\n`
  );
}

function renderCase(
  file: string,
  scenario: ScenarioResult,
  gone: TargetGone | undefined,
  { cause, of: causes }: { cause: LikelyCause | undefined; of: number },
  stopped: boolean,
): string {
  const open = `    <testcase ${attrs({ classname: file, name: scenario.name, id: scenario.id, time: seconds(scenario.durationMs) })}`;
  const blocking = stopped ? [] : scenario.findings.filter((f) => f.blocking);
  const other = stopped ? scenario.findings : scenario.findings.filter((f) => !f.blocking);
  const parts: string[] = [];
  if (scenario.outcome === 'skipped') parts.push(`      <skipped ${attrs({ message: scenario.skipReason ?? '' })}/>\n`);
  const [first] = blocking;
  if (gone) {
    const message = `the target had stopped answering (since ${gone.at}): ${gone.failure}`;
    const text = blocking.map((f) => describeFinding(f)).join('\n\n');
    parts.push(`      <error ${attrs({ message, type: 'target-gone' })}>${escapeXml(text)}</error>\n`);
  } else if (first) {
    const more = blocking.length > 1 ? ` (and ${plural(blocking.length - 1, 'more finding')})` : '';
    // CI shows the message alone: the likely cause it shares with other cases comes first.
    const label = cause === undefined ? '' : `likely cause ${cause.rank} of ${causes} (${cause.cases.length} cases): `;
    const message = `${label}${first.title}${more}`;
    const text = blocking.map((f) => describeFinding(f)).join('\n\n');
    parts.push(`      <failure ${attrs({ message, type: first.checkId })}>${escapeXml(text)}</failure>\n`);
  }
  const notes = [
    ...other.map((f) => describeFinding(f)),
    ...scenario.observations.map(
      (o) => `observed, step ${o.step} (${o.operationId}): ${o.note}: ${o.status ?? 'no answer'} ${o.body}`,
    ),
  ];
  if (notes.length > 0) parts.push(`      <system-out>${escapeXml(notes.join('\n'))}</system-out>\n`);
  return parts.length === 0 ? `${open}/>\n` : `${open}>\n${parts.join('')}    </testcase>\n`;
}

function renderProperties(values: Record<string, string>): string {
  const rows = Object.entries(values).map(([name, value]) => `      <property ${attrs({ name, value })}/>\n`);
  return `    <properties>\n${rows.join('')}    </properties>\n`;
}

function attrs(values: Record<string, string | number>): string {
  return Object.entries(values)
    .map(([name, value]) => `${name}="${escapeXml(String(value))}"`)
    .join(' ');
}

/**
 * A suite's time: the sum of its cases' times, at most the run's whole duration. Cases run concurrently
 * (--concurrency), so the sum overstates the time the suite took; the cases carry no start times to measure
 * its wall-clock span, and no suite can have taken longer than the run.
 */
function suiteTime(scenarios: readonly ScenarioResult[], runMs: number): number {
  return Math.min(
    scenarios.reduce((t, s) => t + s.durationMs, 0),
    runMs,
  );
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
