import type { Reporter } from './reporter.js';
import { describeFinding } from './describe-finding.js';

const MARKS = { passed: 'PASS', failed: 'FAIL', skipped: 'SKIP' } as const;

export const consoleReporter: Reporter = {
  name: 'console',
  onRunStart: ({ target, scenarios, files, seed }, { print }) => {
    print(`conformance: ${scenarios} cases (scenario files and generated) from ${files} sources against ${target}, seed ${seed}`);
  },
  onScenarioEnd: (scenario, { print }) => {
    print(
      `${MARKS[scenario.outcome]} ${scenario.file} › ${scenario.name}${scenario.skipReason ? ` (${scenario.skipReason})` : ''}`,
    );
    for (const finding of scenario.findings) print(describeFinding(finding).replace(/^/gm, '     '));
  },
  onRunEnd: (result, { print }) => {
    const { totals } = result;
    const severities = Object.entries(totals.bySeverity)
      .filter(([, n]) => n > 0)
      .map(([s, n]) => `${n} ${s}`)
      .join(', ');
    print('');
    print(
      `${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped of ${totals.scenarios} scenarios; ` +
        `${totals.exchanges} requests; ${totals.findings} findings${severities ? ` (${severities})` : ''}; ` +
        `${totals.observations} observations; ${(result.durationMs / 1000).toFixed(1)} s`,
    );
    if (result.stopped) print(`Stopped: ${result.stopped.reason}`);
    for (const hint of result.hints) print(hint);
    print(`Verdict: ${result.verdict.toUpperCase()} (--fail-on ${result.settings.failOn})`);
  },
};
